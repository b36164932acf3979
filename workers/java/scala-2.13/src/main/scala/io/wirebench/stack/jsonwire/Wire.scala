package io.wirebench.stack.jsonwire

// Shared source: its Scala 2.12 copy is generated from it at build time (originals-2.12/pom.xml, scala-2.13-sources).

import io.wirebench.contract.{Code, Model}

import scala.jdk.CollectionConverters._

/**
 * The http-json bodies (docs/protocols.md) as the Scala servers' case classes: a Scala
 * service declares its JSON as case classes and derives their codecs (spray-json for Akka
 * HTTP and Pekko HTTP, circe for http4s). The fields are named as the JSON names them
 * (post_code, timestamp_nanos, last_payload_len), so the derived codecs need no naming
 * configuration; a person without a picture has picture = None, left out of the JSON.
 */
object Wire {
  final case class PersonName(title: String, first: String, last: String)
  final case class Location(street: String, city: String, state: String, post_code: String)
  final case class Picture(large: String, medium: String, thumbnail: String)
  final case class Person(id: Long, name: PersonName, gender: String, location: Location, email: String,
      picture: Option[Picture])
  final case class PersonList(persons: Vector[Person])
  final case class PersonLink(p1: Person, p2: Person)
  final case class LinkList(links: Vector[PersonLink])
  final case class EchoBody(payload: String)
  final case class ValueBody(value: Long)
  final case class StatsBody(calls: Long, last_payload_len: Long)
  /** One line of the trade stream; side is "BUY" or "SELL". */
  final case class Trade(id: Long, symbol: String, price: Double, quantity: Long, timestamp_nanos: Long, side: String)
  final case class EndCount(count: Long)
  /** The last line of a complete trade stream: {"end":{"count":N}}. */
  final case class EndLine(end: EndCount)
  /** Every refusal's body: {"code":"not_found","message":"..."}. */
  final case class ErrorBody(code: String, message: String)

  def person(p: Model.Person): Person = {
    val n = p.name()
    val l = p.location()
    val pic = Option(p.picture()).map(x => Picture(x.large(), x.medium(), x.thumbnail()))
    Person(p.id(), PersonName(n.title(), n.first(), n.last()), p.gender(),
      Location(l.street(), l.city(), l.state(), l.postCode()), p.email(), pic)
  }

  def model(p: Person): Model.Person = {
    val n = Option(p.name).map(n => new Model.PersonName(n.title, n.first, n.last)).orNull
    val l = Option(p.location).map(l => new Model.Location(l.street, l.city, l.state, l.post_code)).orNull
    val pic = p.picture.map(x => new Model.Picture(x.large, x.medium, x.thumbnail)).orNull
    new Model.Person(p.id, n, p.gender, l, p.email, pic)
  }

  def persons(ps: java.util.List[Model.Person]): PersonList = PersonList(ps.asScala.iterator.map(person).toVector)

  def links(ls: java.util.List[Model.PersonLink]): LinkList =
    LinkList(ls.asScala.iterator.map(l => PersonLink(person(l.p1()), person(l.p2()))).toVector)

  def stats(s: Model.Stats): StatsBody = StatsBody(s.calls(), s.lastPayloadLen())

  def trade(t: Model.Trade): Trade =
    Trade(t.id(), t.symbol(), t.price(), t.quantity(), t.timestampNanos(), t.side().name())

  def error(code: Code, message: String): ErrorBody = ErrorBody(code.wire(), message)

  /** The HTTP status of a contract code (docs/protocols.md). */
  def status(code: Code): Int = code match {
    case Code.NOT_FOUND          => 404
    case Code.INVALID_ARGUMENT   => 400
    case Code.RESOURCE_EXHAUSTED => 413
    case Code.INTERNAL           => 500
  }

  /** Trades are written and flushed in batches of this many, one chunk each, as every http-json server does. */
  val TradeBatch = 256

  val NdjsonType = "application/x-ndjson"
}
