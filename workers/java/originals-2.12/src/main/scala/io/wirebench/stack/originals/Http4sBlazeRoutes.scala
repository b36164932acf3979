package io.wirebench.stack.originals

// scala-2.13 http4sstack/Http4sRoutes.scala is this service on http4s 0.23: a change to one belongs in both.

import cats.data.Validated
import cats.effect.IO
import fs2.{Chunk, Stream}
import io.circe.syntax._
import io.wirebench.contract.{Code, ContractException, Reference}
import io.wirebench.stack.jsonwire.Wire
import io.wirebench.stack.originals.CirceJson._
import org.http4s._
import org.http4s.circe._
import org.http4s.dsl.impl.OptionalValidatingQueryParamDecoderMatcher
import org.http4s.dsl.io._
import org.http4s.headers.{Connection, `Content-Type`}
import org.http4s.server.{DefaultServiceErrorHandler, ServiceErrorHandler}
import org.http4s.server.middleware.EntityLimiter
import org.http4s.util.CaseInsensitiveString

import java.nio.charset.StandardCharsets
import scala.collection.JavaConverters._

/**
 * The http-json routes (docs/protocols.md) as an http4s 0.18 HttpService in its DSL, with
 * circe entity codecs from http4s-circe (`jsonEncoderOf`, `jsonOf`), as the metrifier
 * original wrote its server. Refusals are the contract's JSON error bodies: the service's
 * ContractExceptions and http4s's decoding failures through Blaze's service error handler,
 * wrong methods (http4s has no automatic 405) and unknown routes by routes of their own.
 * Bodies over the limit are refused from their Content-Length, and a chunked one by
 * http4s's EntityLimiter once it passes the limit.
 */
final class Http4sBlazeRoutes(svc: Reference, limit: Long) {
  import Http4sBlazeRoutes._

  private object Count extends OptionalValidatingQueryParamDecoderMatcher[Long]("count")

  private val ndjson = `Content-Type`(new MediaType("application", "x-ndjson"))

  private val routes: HttpService[IO] = HttpService[IO] {
    case GET -> Root / "persons"                    => Ok(Wire.persons(svc.listPersons()))
    case req @ POST -> Root / "persons"             => req.as[Wire.Person].flatMap(p => Ok(Wire.person(svc.createPerson(Wire.model(p)))))
    case GET -> Root / "persons" / LongVar(id)          => Ok(Wire.person(svc.getPerson(id)))
    case GET -> Root / "persons" / LongVar(id) / "links" => Ok(Wire.links(svc.getPersonLinks(id)))
    case req @ POST -> Root / "echo"                => req.as[Wire.EchoBody].flatMap(b => Ok(Wire.EchoBody(svc.echo(b.payload))))
    case req @ POST -> Root / "increment"           => req.as[Wire.ValueBody].flatMap(b => Ok(Wire.ValueBody(svc.increment(b.value))))
    case GET -> Root / "stats"                      => Ok(Wire.stats(svc.stats()))
    case GET -> Root / "trades" :? Count(count) =>
      count match {
        case None                       => refuse(Code.INVALID_ARGUMENT, "missing query parameter count, e.g. /trades?count=100")
        case Some(Validated.Invalid(e)) => refuse(Code.INVALID_ARGUMENT, s"count: ${e.head.sanitized}")
        case Some(Validated.Valid(n))   => trades(n)
      }
    case req @ _ -> Root / "persons"                   => notAllowed(req, "GET, POST")
    case req @ _ -> Root / "persons" / LongVar(_)      => notAllowed(req, "GET")
    case req @ _ -> Root / "persons" / LongVar(_) / "links" => notAllowed(req, "GET")
    case req @ _ -> Root / "echo"                      => notAllowed(req, "POST")
    case req @ _ -> Root / "increment"                 => notAllowed(req, "POST")
    case req @ (_ -> Root / ("stats" | "trades"))      => notAllowed(req, "GET")
  }

  /** The routes, bodies bounded by the limit, and a JSON 404 for any other path. */
  val service: HttpService[IO] = {
    val bounded = EntityLimiter(routes, limit)
    HttpService.lift[IO] { req =>
      if (req.contentLength.exists(_ > limit)) tooLarge(s"request body of ${req.contentLength.get} bytes is over the limit of $limit")
      else bounded(req).getOrElseF(Response[IO](Status.NotFound).withBody(Wire.error(Code.NOT_FOUND, s"no route ${req.uri.path}")))
    }
  }

  /**
   * Blaze's service error handler: refusals of the service, bodies that do not decode,
   * bodies over the limit; anything else as http4s's default handler answers it.
   */
  val errors: ServiceErrorHandler[IO] = req => {
    val ours: PartialFunction[Throwable, IO[Response[IO]]] = {
      case e: ContractException            => refuse(e.code(), e.getMessage)
      case EntityLimiter.EntityTooLarge(n) => tooLarge(s"request body is over the limit of $n bytes")
      case e: DecodeFailure                => refuse(Code.INVALID_ARGUMENT, s"bad request body: ${e.message}")
    }
    ours.orElse(DefaultServiceErrorHandler[IO].apply(req))
  }

  /**
   * The NDJSON trade stream: one chunk per batch of trades, then the end line. A bad count
   * throws before the response starts (an ordinary 400); a client that goes away ends the
   * stream at its next write.
   */
  private def trades(count: Long): IO[Response[IO]] =
    IO(svc.trades(count).asScala).flatMap { it =>
      val lines = Stream
        .fromIterator[IO, Seq[io.wirebench.contract.Model.Trade]](it.grouped(Wire.TradeBatch))
        .map { batch =>
          val sb = new StringBuilder
          batch.foreach(t => sb.append(Wire.trade(t).asJson.noSpaces).append('\n'))
          sb.toString.getBytes(StandardCharsets.UTF_8)
        }
      val end = Stream.emit((Wire.EndLine(Wire.EndCount(count)).asJson.noSpaces + "\n").getBytes(StandardCharsets.UTF_8))
      Ok((lines ++ end).flatMap(b => Stream.chunk(Chunk.bytes(b))).covary[IO]).map(_.withContentType(ndjson))
    }

  private def refuse(code: Code, message: String): IO[Response[IO]] =
    Response[IO](Status.fromInt(Wire.status(code)).getOrElse(Status.InternalServerError)).withBody(Wire.error(code, message))

  private def tooLarge(message: String): IO[Response[IO]] =
    refuse(Code.RESOURCE_EXHAUSTED, message).map(_.putHeaders(Connection(CaseInsensitiveString("close"))))

  private def notAllowed(req: Request[IO], allowed: String): IO[Response[IO]] =
    Response[IO](Status.MethodNotAllowed)
      .withBody(Wire.error(Code.INVALID_ARGUMENT, s"method ${req.method} is not allowed on ${req.uri.path}; allowed: $allowed"))
      .map(_.putHeaders(Header("Allow", allowed)))
}

/** The entity codecs of the bodies, as metrifier's `codecs` object declared them. */
private object Http4sBlazeRoutes {
  implicit val personEntityEncoder: EntityEncoder[IO, Wire.Person] = jsonEncoderOf[IO, Wire.Person]
  implicit val personEntityDecoder: EntityDecoder[IO, Wire.Person] = jsonOf[IO, Wire.Person]
  implicit val personListEntityEncoder: EntityEncoder[IO, Wire.PersonList] = jsonEncoderOf[IO, Wire.PersonList]
  implicit val linkListEntityEncoder: EntityEncoder[IO, Wire.LinkList] = jsonEncoderOf[IO, Wire.LinkList]
  implicit val echoEntityEncoder: EntityEncoder[IO, Wire.EchoBody] = jsonEncoderOf[IO, Wire.EchoBody]
  implicit val echoEntityDecoder: EntityDecoder[IO, Wire.EchoBody] = jsonOf[IO, Wire.EchoBody]
  implicit val valueEntityEncoder: EntityEncoder[IO, Wire.ValueBody] = jsonEncoderOf[IO, Wire.ValueBody]
  implicit val valueEntityDecoder: EntityDecoder[IO, Wire.ValueBody] = jsonOf[IO, Wire.ValueBody]
  implicit val statsEntityEncoder: EntityEncoder[IO, Wire.StatsBody] = jsonEncoderOf[IO, Wire.StatsBody]
  implicit val errorEntityEncoder: EntityEncoder[IO, Wire.ErrorBody] = jsonEncoderOf[IO, Wire.ErrorBody]
}
