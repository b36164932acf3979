package io.wirebench.stack.akkastack

// Shared source: its Pekko twin and its Scala 2.12 copy are generated from it (the poms of both modules).

import io.grpc.Status
import io.wirebench.contract.{Code, Model}
import wirebench.v1.wirebench._

/**
 * The contract's model as the ScalaPB messages of Akka gRPC's generated services, and the
 * contract's codes as gRPC statuses (internal/grpcx/status.go).
 */
object AkkaGrpcConvert {
  def status(c: Code): Status = c match {
    case Code.NOT_FOUND          => Status.NOT_FOUND
    case Code.INVALID_ARGUMENT   => Status.INVALID_ARGUMENT
    case Code.RESOURCE_EXHAUSTED => Status.RESOURCE_EXHAUSTED
    case Code.INTERNAL           => Status.INTERNAL
  }

  def toProto(p: Model.Person): Person = {
    val n = p.name()
    val l = p.location()
    Person(
      id = p.id(),
      name = Some(PersonName(n.title(), n.first(), n.last())),
      gender = p.gender(),
      location = Some(Location(l.street(), l.city(), l.state(), l.postCode())),
      email = p.email(),
      picture = Option(p.picture()).map(x => Picture(x.large(), x.medium(), x.thumbnail())))
  }

  def fromProto(p: Person): Model.Person = {
    val n = p.name.getOrElse(PersonName())
    val l = p.location.getOrElse(Location())
    new Model.Person(p.id, new Model.PersonName(n.title, n.first, n.last), p.gender,
      new Model.Location(l.street, l.city, l.state, l.postCode), p.email,
      p.picture.map(x => new Model.Picture(x.large, x.medium, x.thumbnail)).orNull)
  }

  def toProto(t: Model.Trade): Trade =
    Trade(t.id(), t.symbol(), t.price(), t.quantity(), t.timestampNanos(),
      if (t.side() == Model.Side.SELL) Side.SELL else Side.BUY)
}
