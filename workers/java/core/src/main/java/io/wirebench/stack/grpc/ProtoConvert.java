package io.wirebench.stack.grpc;

import io.wirebench.contract.Model;
import java.util.ArrayList;
import java.util.List;
import wirebench.v1.Wirebench;

/**
 * Conversions between the contract's model and the protobuf messages, run on every
 * call as in an application with its own domain model. A person without a picture has
 * no picture field; a Side other than BUY or SELL is refused.
 */
final class ProtoConvert {
  private ProtoConvert() {}

  static Wirebench.Person toProto(Model.Person p) {
    Wirebench.Person.Builder b = Wirebench.Person.newBuilder()
        .setId(p.id())
        .setName(Wirebench.PersonName.newBuilder().setTitle(p.name().title()).setFirst(p.name().first()).setLast(p.name().last()))
        .setGender(p.gender())
        .setLocation(Wirebench.Location.newBuilder().setStreet(p.location().street()).setCity(p.location().city())
            .setState(p.location().state()).setPostCode(p.location().postCode()))
        .setEmail(p.email());
    if (p.picture() != null) {
      b.setPicture(Wirebench.Picture.newBuilder().setLarge(p.picture().large()).setMedium(p.picture().medium())
          .setThumbnail(p.picture().thumbnail()));
    }
    return b.build();
  }

  static Model.Person fromProto(Wirebench.Person p) {
    Wirebench.PersonName n = p.getName();
    Wirebench.Location l = p.getLocation();
    Model.Picture pic = null;
    if (p.hasPicture()) {
      Wirebench.Picture q = p.getPicture();
      pic = new Model.Picture(q.getLarge(), q.getMedium(), q.getThumbnail());
    }
    return new Model.Person(p.getId(), new Model.PersonName(n.getTitle(), n.getFirst(), n.getLast()), p.getGender(),
        new Model.Location(l.getStreet(), l.getCity(), l.getState(), l.getPostCode()), p.getEmail(), pic);
  }

  static Wirebench.PersonList toProto(List<Model.Person> ps) {
    Wirebench.PersonList.Builder b = Wirebench.PersonList.newBuilder();
    for (Model.Person p : ps) {
      b.addPersons(toProto(p));
    }
    return b.build();
  }

  static List<Model.Person> fromProto(Wirebench.PersonList l) {
    List<Model.Person> out = new ArrayList<>(l.getPersonsCount());
    for (Wirebench.Person p : l.getPersonsList()) {
      out.add(fromProto(p));
    }
    return out;
  }

  static Wirebench.PersonLinkList toProtoLinks(List<Model.PersonLink> links) {
    Wirebench.PersonLinkList.Builder b = Wirebench.PersonLinkList.newBuilder();
    for (Model.PersonLink l : links) {
      b.addLinks(Wirebench.PersonLink.newBuilder().setP1(toProto(l.p1())).setP2(toProto(l.p2())));
    }
    return b.build();
  }

  static List<Model.PersonLink> fromProto(Wirebench.PersonLinkList l) {
    List<Model.PersonLink> out = new ArrayList<>(l.getLinksCount());
    for (Wirebench.PersonLink k : l.getLinksList()) {
      out.add(new Model.PersonLink(fromProto(k.getP1()), fromProto(k.getP2())));
    }
    return out;
  }

  static Wirebench.Trade toProto(Model.Trade t) {
    return Wirebench.Trade.newBuilder().setId(t.id()).setSymbol(t.symbol()).setPrice(t.price()).setQuantity(t.quantity())
        .setTimestampNanos(t.timestampNanos()).setSide(t.side() == Model.Side.SELL ? Wirebench.Side.SELL : Wirebench.Side.BUY)
        .build();
  }

  static Wirebench.OriginalTrade toProto(Model.OriginalTrade t) {
    return Wirebench.OriginalTrade.newBuilder().setId(t.id()).setExternalId(t.externalId()).setInfo(t.info())
        .setStr1(t.str1()).setStr2(t.str2()).setStr3(t.str3()).setStr4(t.str4()).setStr5(t.str5())
        .setStr6(t.str6()).setStr7(t.str7()).setStr8(t.str8()).setStr9(t.str9()).setStr10(t.str10())
        .setLong1(t.long1()).setLong2(t.long2()).setLong3(t.long3()).setLong4(t.long4()).setLong5(t.long5())
        .setLong6(t.long6()).setLong7(t.long7()).setLong8(t.long8()).setLong9(t.long9()).setLong10(t.long10())
        .build();
  }

  static Model.OriginalTrade fromProto(Wirebench.OriginalTrade t) {
    return new Model.OriginalTrade(t.getId(), t.getExternalId(), t.getInfo(),
        t.getStr1(), t.getStr2(), t.getStr3(), t.getStr4(), t.getStr5(),
        t.getStr6(), t.getStr7(), t.getStr8(), t.getStr9(), t.getStr10(),
        t.getLong1(), t.getLong2(), t.getLong3(), t.getLong4(), t.getLong5(),
        t.getLong6(), t.getLong7(), t.getLong8(), t.getLong9(), t.getLong10());
  }

  static Model.Trade fromProto(Wirebench.Trade t) {
    Model.Side side = switch (t.getSideValue()) {
      case 0 -> Model.Side.BUY;
      case 1 -> Model.Side.SELL;
      default -> throw new IllegalStateException("trade " + t.getId() + " has side " + t.getSideValue() + ", want BUY or SELL");
    };
    return new Model.Trade(t.getId(), t.getSymbol(), t.getPrice(), t.getQuantity(), t.getTimestampNanos(), side);
  }
}
