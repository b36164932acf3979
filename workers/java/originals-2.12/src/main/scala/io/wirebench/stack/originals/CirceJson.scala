package io.wirebench.stack.originals

import io.circe.generic.semiauto.{deriveDecoder, deriveEncoder}
import io.circe.{Decoder, ObjectEncoder}
import io.wirebench.stack.jsonwire.Wire._

/**
 * ../../../../../../../../scala-2.13/src/main/scala/io/wirebench/stack/jsonwire/CirceJson.scala
 * on circe 0.9 (ObjectEncoder for Encoder.AsObject): a change to one belongs in both.
 *
 * circe codecs of the http-json bodies, derived from the case classes (circe-generic's
 * semiauto derivation, as http4s users write them). A person's picture that is None is
 * left out rather than written as null, as the wire mapping says.
 *
 * The decoders of answers (lists, stats, trade lines, errors) are this file's own: only
 * the Scala 2.12 family has an http4s client. A list written as null (Go's servers write
 * an empty list so) decodes as empty.
 */
object CirceJson {
  implicit val personNameEncoder: ObjectEncoder[PersonName] = deriveEncoder
  implicit val personNameDecoder: Decoder[PersonName] = deriveDecoder
  implicit val locationEncoder: ObjectEncoder[Location] = deriveEncoder
  implicit val locationDecoder: Decoder[Location] = deriveDecoder
  implicit val pictureEncoder: ObjectEncoder[Picture] = deriveEncoder
  implicit val pictureDecoder: Decoder[Picture] = deriveDecoder
  implicit val personEncoder: ObjectEncoder[Person] =
    deriveEncoder[Person].mapJsonObject(_.filter { case (_, v) => !v.isNull })
  implicit val personDecoder: Decoder[Person] = deriveDecoder
  implicit val personListEncoder: ObjectEncoder[PersonList] = deriveEncoder
  implicit val personListDecoder: Decoder[PersonList] =
    Decoder.instance(_.downField("persons").as[Option[Vector[Person]]].map(ps => PersonList(ps.getOrElse(Vector.empty))))
  implicit val personLinkEncoder: ObjectEncoder[PersonLink] = deriveEncoder
  implicit val personLinkDecoder: Decoder[PersonLink] = deriveDecoder
  implicit val linkListEncoder: ObjectEncoder[LinkList] = deriveEncoder
  implicit val linkListDecoder: Decoder[LinkList] =
    Decoder.instance(_.downField("links").as[Option[Vector[PersonLink]]].map(ls => LinkList(ls.getOrElse(Vector.empty))))
  implicit val echoEncoder: ObjectEncoder[EchoBody] = deriveEncoder
  implicit val echoDecoder: Decoder[EchoBody] = deriveDecoder
  implicit val valueEncoder: ObjectEncoder[ValueBody] = deriveEncoder
  implicit val valueDecoder: Decoder[ValueBody] = deriveDecoder
  implicit val statsEncoder: ObjectEncoder[StatsBody] = deriveEncoder
  implicit val statsDecoder: Decoder[StatsBody] = deriveDecoder
  implicit val tradeEncoder: ObjectEncoder[Trade] = deriveEncoder
  implicit val tradeDecoder: Decoder[Trade] = deriveDecoder
  implicit val endCountEncoder: ObjectEncoder[EndCount] = deriveEncoder
  implicit val endCountDecoder: Decoder[EndCount] = deriveDecoder
  implicit val endLineEncoder: ObjectEncoder[EndLine] = deriveEncoder
  implicit val endLineDecoder: Decoder[EndLine] = deriveDecoder
  implicit val errorEncoder: ObjectEncoder[ErrorBody] = deriveEncoder
  implicit val errorDecoder: Decoder[ErrorBody] = deriveDecoder
}
