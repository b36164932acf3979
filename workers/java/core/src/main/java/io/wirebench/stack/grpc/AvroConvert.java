package io.wirebench.stack.grpc;

import io.wirebench.contract.Model;
import java.util.ArrayList;
import java.util.List;

/**
 * Conversions between the contract's model and the classes avro-maven-plugin generates
 * from contract/schema/avro (package wirebench.v1); the optional picture is the
 * ["null", Picture] union.
 */
final class AvroConvert {
  private AvroConvert() {}

  static wirebench.v1.Person toAvro(Model.Person p) {
    wirebench.v1.Picture pic = p.picture() == null ? null
        : new wirebench.v1.Picture(p.picture().large(), p.picture().medium(), p.picture().thumbnail());
    return new wirebench.v1.Person(p.id(),
        new wirebench.v1.PersonName(p.name().title(), p.name().first(), p.name().last()), p.gender(),
        new wirebench.v1.Location(p.location().street(), p.location().city(), p.location().state(), p.location().postCode()),
        p.email(), pic);
  }

  static Model.Person fromAvro(wirebench.v1.Person p) {
    wirebench.v1.PersonName n = p.getName();
    wirebench.v1.Location l = p.getLocation();
    wirebench.v1.Picture q = p.getPicture();
    Model.Picture pic = q == null ? null : new Model.Picture(q.getLarge(), q.getMedium(), q.getThumbnail());
    return new Model.Person(p.getId(), new Model.PersonName(n.getTitle(), n.getFirst(), n.getLast()), p.getGender(),
        new Model.Location(l.getStreet(), l.getCity(), l.getState(), l.getPostCode()), p.getEmail(), pic);
  }

  static wirebench.v1.PersonList toAvro(List<Model.Person> ps) {
    List<wirebench.v1.Person> out = new ArrayList<>(ps.size());
    for (Model.Person p : ps) {
      out.add(toAvro(p));
    }
    return new wirebench.v1.PersonList(out);
  }

  static List<Model.Person> fromAvro(wirebench.v1.PersonList l) {
    List<Model.Person> out = new ArrayList<>(l.getPersons().size());
    for (wirebench.v1.Person p : l.getPersons()) {
      out.add(fromAvro(p));
    }
    return out;
  }

  static wirebench.v1.PersonLinkList toAvroLinks(List<Model.PersonLink> links) {
    List<wirebench.v1.PersonLink> out = new ArrayList<>(links.size());
    for (Model.PersonLink k : links) {
      out.add(new wirebench.v1.PersonLink(toAvro(k.p1()), toAvro(k.p2())));
    }
    return new wirebench.v1.PersonLinkList(out);
  }

  static List<Model.PersonLink> fromAvro(wirebench.v1.PersonLinkList l) {
    List<Model.PersonLink> out = new ArrayList<>(l.getLinks().size());
    for (wirebench.v1.PersonLink k : l.getLinks()) {
      out.add(new Model.PersonLink(fromAvro(k.getP1()), fromAvro(k.getP2())));
    }
    return out;
  }

  static wirebench.v1.Trade toAvro(Model.Trade t) {
    return new wirebench.v1.Trade(t.id(), t.symbol(), t.price(), t.quantity(), t.timestampNanos(),
        t.side() == Model.Side.SELL ? wirebench.v1.Side.SELL : wirebench.v1.Side.BUY);
  }

  static Model.Trade fromAvro(wirebench.v1.Trade t) {
    return new Model.Trade(t.getId(), t.getSymbol(), t.getPrice(), t.getQuantity(), t.getTimestampNanos(),
        t.getSide() == wirebench.v1.Side.SELL ? Model.Side.SELL : Model.Side.BUY);
  }
}
