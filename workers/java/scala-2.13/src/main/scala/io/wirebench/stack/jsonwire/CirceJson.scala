package io.wirebench.stack.jsonwire

import io.circe.generic.semiauto.{deriveDecoder, deriveEncoder}
import io.circe.{Decoder, Encoder}
import io.wirebench.stack.jsonwire.Wire._

/**
 * circe codecs of the http-json bodies, derived from the case classes (circe-generic's
 * semiauto derivation, as http4s users write them). A person's picture that is None is
 * left out rather than written as null, as the wire mapping says.
 */
object CirceJson {
  implicit val personNameEncoder: Encoder.AsObject[PersonName] = deriveEncoder
  implicit val personNameDecoder: Decoder[PersonName] = deriveDecoder
  implicit val locationEncoder: Encoder.AsObject[Location] = deriveEncoder
  implicit val locationDecoder: Decoder[Location] = deriveDecoder
  implicit val pictureEncoder: Encoder.AsObject[Picture] = deriveEncoder
  implicit val pictureDecoder: Decoder[Picture] = deriveDecoder
  implicit val personEncoder: Encoder.AsObject[Person] =
    deriveEncoder[Person].mapJsonObject(_.filter { case (_, v) => !v.isNull })
  implicit val personDecoder: Decoder[Person] = deriveDecoder
  implicit val personListEncoder: Encoder.AsObject[PersonList] = deriveEncoder
  implicit val personLinkEncoder: Encoder.AsObject[PersonLink] = deriveEncoder
  implicit val linkListEncoder: Encoder.AsObject[LinkList] = deriveEncoder
  implicit val echoEncoder: Encoder.AsObject[EchoBody] = deriveEncoder
  implicit val echoDecoder: Decoder[EchoBody] = deriveDecoder
  implicit val valueEncoder: Encoder.AsObject[ValueBody] = deriveEncoder
  implicit val valueDecoder: Decoder[ValueBody] = deriveDecoder
  implicit val statsEncoder: Encoder.AsObject[StatsBody] = deriveEncoder
  implicit val tradeEncoder: Encoder.AsObject[Trade] = deriveEncoder
  implicit val endCountEncoder: Encoder.AsObject[EndCount] = deriveEncoder
  implicit val endLineEncoder: Encoder.AsObject[EndLine] = deriveEncoder
  implicit val errorEncoder: Encoder.AsObject[ErrorBody] = deriveEncoder
}
