package io.wirebench.stack.jsonwire

// Shared source: its Scala 2.12 copy is generated from it at build time (originals-2.12/pom.xml, scala-2.13-sources).

import io.wirebench.stack.jsonwire.Wire._
import spray.json._

/**
 * spray-json formats of the http-json bodies, derived from the case classes as Akka HTTP's
 * and Pekko HTTP's users write them (jsonFormatN); an Option that is None is left out.
 */
object SprayJson extends DefaultJsonProtocol {
  implicit val personNameFormat: RootJsonFormat[PersonName] = jsonFormat3(PersonName.apply)
  implicit val locationFormat: RootJsonFormat[Location] = jsonFormat4(Location.apply)
  implicit val pictureFormat: RootJsonFormat[Picture] = jsonFormat3(Picture.apply)
  implicit val personFormat: RootJsonFormat[Person] = jsonFormat6(Person.apply)
  implicit val personListFormat: RootJsonFormat[PersonList] = jsonFormat1(PersonList.apply)
  implicit val personLinkFormat: RootJsonFormat[PersonLink] = jsonFormat2(PersonLink.apply)
  implicit val linkListFormat: RootJsonFormat[LinkList] = jsonFormat1(LinkList.apply)
  implicit val echoFormat: RootJsonFormat[EchoBody] = jsonFormat1(EchoBody.apply)
  implicit val valueFormat: RootJsonFormat[ValueBody] = jsonFormat1(ValueBody.apply)
  implicit val statsFormat: RootJsonFormat[StatsBody] = jsonFormat2(StatsBody.apply)
  implicit val tradeFormat: RootJsonFormat[Trade] = jsonFormat6(Trade.apply)
  implicit val endCountFormat: RootJsonFormat[EndCount] = jsonFormat1(EndCount.apply)
  implicit val endLineFormat: RootJsonFormat[EndLine] = jsonFormat1(EndLine.apply)
  implicit val errorFormat: RootJsonFormat[ErrorBody] = jsonFormat2(ErrorBody.apply)
}
