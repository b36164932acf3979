package io.wirebench.stack.http4sstack

import cats.data.{Kleisli, Validated}
import cats.effect.IO
import scala.util.chaining._
import fs2.{Chunk, Stream}
import io.circe.syntax._
import io.wirebench.contract.{Code, ContractException, Reference}
import io.wirebench.stack.jsonwire.CirceJson._
import io.wirebench.stack.jsonwire.Wire
import org.http4s._
import org.http4s.circe.CirceEntityCodec._
import org.http4s.dsl.io._
import org.http4s.headers.{Allow, Connection, `Content-Type`}
import org.http4s.server.middleware.EntityLimiter
import org.typelevel.ci._

import java.nio.charset.StandardCharsets
import scala.jdk.CollectionConverters._

/**
 * The http-json routes (docs/protocols.md) in http4s's DSL. Refusals are the contract's
 * JSON error bodies: the service's ContractExceptions and http4s's decoding failures
 * through the server's error handler, wrong methods (http4s has no automatic 405) and
 * unknown routes by routes of their own. Bodies over the limit are refused from their
 * Content-Length, and a chunked one by http4s's EntityLimiter once it passes the limit.
 */
final class Http4sRoutes(svc: Reference, limit: Long) {
  private object Count extends OptionalValidatingQueryParamDecoderMatcher[Long]("count")

  private val ndjson = `Content-Type`(new MediaType("application", "x-ndjson"))

  private val routes: HttpRoutes[IO] = HttpRoutes.of[IO] {
    case GET -> Root / "persons"                    => Ok(Wire.persons(svc.listPersons()))
    case req @ POST -> Root / "persons"             => req.as[Wire.Person].flatMap(p => Ok(Wire.person(svc.createPerson(Wire.model(p)))))
    case GET -> Root / "persons" / LongVar(id)          => Ok(Wire.person(svc.getPerson(id)))
    case GET -> Root / "persons" / LongVar(id) / "links" => Ok(Wire.links(svc.getPersonLinks(id)))
    case req @ POST -> Root / "echo"                => req.as[Wire.EchoBody].flatMap(b => Ok(Wire.EchoBody(svc.echo(b.payload))))
    case req @ POST -> Root / "increment"           => req.as[Wire.ValueBody].flatMap(b => Ok(Wire.ValueBody(svc.increment(b.value))))
    case GET -> Root / "stats"                      => Ok(Wire.stats(svc.stats()))
    case GET -> Root / "trades" :? Count(count) =>
      count match {
        case None                     => refuse(Code.INVALID_ARGUMENT, "missing query parameter count, e.g. /trades?count=100")
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
  val app: HttpApp[IO] = {
    val bounded = EntityLimiter.httpRoutes(routes, limit)
    Kleisli { (req: Request[IO]) =>
      if (req.contentLength.exists(_ > limit)) tooLarge(s"request body of ${req.contentLength.get} bytes is over the limit of $limit")
      else bounded(req).getOrElseF(Response[IO](Status.NotFound).withEntity(Wire.error(Code.NOT_FOUND, s"no route ${req.uri.path}")).pipe(IO.pure))
    }
  }

  /** The server's error handler: refusals of the service, bodies that do not decode, bodies over the limit. */
  val errors: PartialFunction[Throwable, IO[Response[IO]]] = {
    case e: ContractException           => refuse(e.code(), e.getMessage)
    case EntityLimiter.EntityTooLarge(n) => tooLarge(s"request body is over the limit of $n bytes")
    case e: DecodeFailure                => refuse(Code.INVALID_ARGUMENT, s"bad request body: ${e.message}")
  }

  /**
   * The NDJSON trade stream: one chunk per batch of trades, then the end line. A bad count
   * throws before the response starts (an ordinary 400); a client that goes away ends the
   * stream at its next write.
   */
  private def trades(count: Long): IO[Response[IO]] =
    IO(svc.trades(count).asScala).flatMap { it =>
      val lines = Stream
        .fromIterator[IO](it, Wire.TradeBatch)
        .chunks
        .map { batch =>
          val sb = new StringBuilder
          batch.foreach(t => sb.append(Wire.trade(t).asJson.noSpaces).append('\n'))
          Chunk.array(sb.toString.getBytes(StandardCharsets.UTF_8))
        }
      val end = Stream.emit(Chunk.array((Wire.EndLine(Wire.EndCount(count)).asJson.noSpaces + "\n").getBytes(StandardCharsets.UTF_8)))
      Ok((lines ++ end).flatMap(Stream.chunk)).map(_.withContentType(ndjson))
    }

  private def refuse(code: Code, message: String): IO[Response[IO]] =
    Response[IO](Status.fromInt(Wire.status(code)).getOrElse(Status.InternalServerError))
      .withEntity(Wire.error(code, message))
      .pipe(IO.pure)

  private def tooLarge(message: String): IO[Response[IO]] =
    refuse(Code.RESOURCE_EXHAUSTED, message).map(_.putHeaders(Connection(ci"close")))

  private def notAllowed(req: Request[IO], allowed: String): IO[Response[IO]] =
    Response[IO](Status.MethodNotAllowed)
      .withEntity(Wire.error(Code.INVALID_ARGUMENT, s"method ${req.method} is not allowed on ${req.uri.path}; allowed: $allowed"))
      .putHeaders(Header.Raw(ci"Allow", allowed))
      .pipe(IO.pure)
}
