package io.wirebench.stack.akkastack

// Shared source: its Pekko twin and its Scala 2.12 copy are generated from it (the poms of both modules).

import akka.http.scaladsl.marshallers.sprayjson.SprayJsonSupport
import akka.http.scaladsl.model._
import akka.http.scaladsl.model.headers.{Allow, Connection}
import akka.http.scaladsl.server._
import akka.http.scaladsl.server.Directives._
import akka.stream.scaladsl.Source
import akka.util.ByteString
import io.wirebench.contract.{Code, ContractException, Reference}
import io.wirebench.stack.jsonwire.SprayJson._
import io.wirebench.stack.jsonwire.Wire
import spray.json._

import scala.jdk.CollectionConverters._

/**
 * The http-json routes (docs/protocols.md) in Akka HTTP's routing DSL. Refusals are the
 * contract's JSON error bodies: the service's ContractExceptions through an
 * ExceptionHandler, Akka's rejections (wrong method, bad body, bad query, no route)
 * through a RejectionHandler, as an Akka HTTP service customises its errors.
 */
final class AkkaHttpRoutes(svc: Reference) extends SprayJsonSupport {
  private val ndjson = ContentType(MediaType.customWithFixedCharset("application", "x-ndjson", HttpCharsets.`UTF-8`))

  lazy val route: Route =
    handleExceptions(exceptions) {
      handleRejections(rejections) {
        concat(
          pathPrefix("persons") {
            concat(
              pathEnd {
                concat(
                  get(complete(Wire.persons(svc.listPersons()))),
                  post(entity(as[Wire.Person])(p => complete(Wire.person(svc.createPerson(Wire.model(p)))))))
              },
              path(LongNumber)(id => get(complete(Wire.person(svc.getPerson(id))))),
              path(LongNumber / "links")(id => get(complete(Wire.links(svc.getPersonLinks(id))))))
          },
          path("echo")(post(entity(as[Wire.EchoBody])(b => complete(Wire.EchoBody(svc.echo(b.payload)))))),
          path("increment")(post(entity(as[Wire.ValueBody])(b => complete(Wire.ValueBody(svc.increment(b.value)))))),
          path("stats")(get(complete(Wire.stats(svc.stats())))),
          path("trades")(get(parameter("count".as[Long])(count => complete(trades(count))))))
      }
    }

  /**
   * The NDJSON trade stream: one chunk per batch of trades, then the end line. A bad count
   * throws before the response starts (an ordinary 400); a client that goes away cancels
   * the source.
   */
  private def trades(count: Long): HttpResponse = {
    val it = svc.trades(count).asScala
    val lines = Source
      .fromIterator(() => it)
      .map(t => Wire.trade(t).toJson.compactPrint + "\n")
      .grouped(Wire.TradeBatch)
      .map(batch => ByteString(batch.mkString))
    val end = Source.single(ByteString(Wire.EndLine(Wire.EndCount(count)).toJson.compactPrint + "\n"))
    HttpResponse(entity = HttpEntity.Chunked.fromData(ndjson, lines.concat(end)))
  }

  private def refuse(status: Int, code: Code, message: String): Route =
    complete(StatusCode.int2StatusCode(status) -> Wire.error(code, message))

  private def tooLarge(message: String): Route =
    respondWithHeader(Connection("close"))(refuse(413, Code.RESOURCE_EXHAUSTED, message))

  private val exceptions = ExceptionHandler {
    case e: ContractException       => refuse(Wire.status(e.code()), e.code(), e.getMessage)
    case e: EntityStreamSizeException => tooLarge(s"request body is over the limit of ${e.limit} bytes")
  }

  private val rejections = RejectionHandler
    .newBuilder()
    .handleAll[MethodRejection] { rs =>
      val allowed = rs.map(_.supported).distinct
      extractUri { uri =>
        respondWithHeader(Allow(allowed)) {
          refuse(405, Code.INVALID_ARGUMENT,
            s"method not allowed on ${uri.path}; allowed: ${allowed.map(_.value).mkString(", ")}")
        }
      }
    }
    .handle {
      case MalformedRequestContentRejection(_, e: EntityStreamSizeException) =>
        tooLarge(s"request body is over the limit of ${e.limit} bytes")
      case MalformedRequestContentRejection(msg, _) => refuse(400, Code.INVALID_ARGUMENT, s"bad request body: $msg")
      case RequestEntityExpectedRejection          => refuse(400, Code.INVALID_ARGUMENT, "a JSON request body is required")
      case UnsupportedRequestContentTypeRejection(supported) =>
        refuse(400, Code.INVALID_ARGUMENT, s"the request body must be JSON (Content-Type: ${supported.mkString(", ")})")
      case MissingQueryParamRejection(name) =>
        refuse(400, Code.INVALID_ARGUMENT, s"missing query parameter $name, e.g. /trades?count=100")
      case MalformedQueryParamRejection(name, msg, _) =>
        refuse(400, Code.INVALID_ARGUMENT, s"query parameter $name: $msg")
    }
    .handleNotFound(extractUri(uri => refuse(404, Code.NOT_FOUND, s"no route ${uri.path}")))
    .result()
}
