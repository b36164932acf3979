package io.wirebench.stack.originals

import cats.effect.IO
import fs2.{Chunk, Stream}
import io.circe.{Decoder, Json}
import io.circe.syntax._
import io.wirebench.contract.{Code, ContractException, Model, Service}
import io.wirebench.stack.Stack
import io.wirebench.stack.jsonwire.Wire
import io.wirebench.stack.originals.CirceJson._
import org.http4s._
import org.http4s.circe._
import org.http4s.client.Client

import java.io.IOException
import java.nio.charset.StandardCharsets
import java.util.concurrent.{ArrayBlockingQueue, CompletableFuture, ExecutionException}
import scala.collection.JavaConverters._

/**
 * The http-json client of http4s 0.18's Blaze client, written as the metrifier original's
 * HttpClient calls its server: one `Client[IO]` (`Http1Client[IO]()`, Blaze's defaults),
 * requests built from a base Uri, bodies as circe Json through http4s-circe, answers
 * decoded by `jsonOf` entity decoders of circe-generic's derived decoders. Where the
 * original's `expect` turns every non-2xx answer into UnexpectedStatus, this client reads
 * the contract's error body (the contract needs its codes back) through `fetch`, which is
 * what `expect` is made of. Answers are bounded by the client's message limit (from
 * Content-Length, else while reading; over it: resource_exhausted).
 *
 * A call runs its IO and blocks the calling thread until it completes; an interrupt
 * cancels the IO and the call throws InterruptedException. Safe for concurrent use: the
 * Blaze client is one pool of connections shared by every caller.
 */
final class Http4sBlazeClient(c: Client[IO], base: Uri, limit: Int) extends Stack.Client {
  import Http4sBlazeClient._

  private implicit val personListEntityDecoder: EntityDecoder[IO, Wire.PersonList] = jsonOf[IO, Wire.PersonList]
  private implicit val personEntityDecoder: EntityDecoder[IO, Wire.Person] = jsonOf[IO, Wire.Person]
  private implicit val linkListEntityDecoder: EntityDecoder[IO, Wire.LinkList] = jsonOf[IO, Wire.LinkList]
  private implicit val echoEntityDecoder: EntityDecoder[IO, Wire.EchoBody] = jsonOf[IO, Wire.EchoBody]
  private implicit val valueEntityDecoder: EntityDecoder[IO, Wire.ValueBody] = jsonOf[IO, Wire.ValueBody]
  private implicit val statsEntityDecoder: EntityDecoder[IO, Wire.StatsBody] = jsonOf[IO, Wire.StatsBody]

  override def listPersons(): java.util.List[Model.Person] =
    run(expect[Wire.PersonList](get(base / "persons"))).persons.map(Wire.model).asJava

  override def getPerson(id: Long): Model.Person =
    Wire.model(run(expect[Wire.Person](get(base / "persons" / id.toString))))

  override def getPersonLinks(id: Long): java.util.List[Model.PersonLink] =
    run(expect[Wire.LinkList](get(base / "persons" / id.toString / "links"))).links
      .map(l => new Model.PersonLink(Wire.model(l.p1), Wire.model(l.p2))).asJava

  override def createPerson(p: Model.Person): Model.Person =
    Wire.model(run(expect[Wire.Person](post(base / "persons", Wire.person(p).asJson))))

  override def echo(payload: String): String =
    run(expect[Wire.EchoBody](post(base / "echo", Wire.EchoBody(payload).asJson))).payload

  override def stats(): Model.Stats = {
    val s = run(expect[Wire.StatsBody](get(base / "stats")))
    new Model.Stats(s.calls, s.last_payload_len)
  }

  override def increment(n: Long): Long =
    run(expect[Wire.ValueBody](post(base / "increment", Wire.ValueBody(n).asJson))).value

  /**
   * The NDJSON stream through `Client.streaming`: Blaze's threads hand the body's chunks
   * over a small queue to the calling thread, which splits the lines, decodes each with
   * circe and gives it to the sink. A sink that throws stops the body at its next chunk
   * (Blaze then closes that connection rather than drain it).
   */
  override def streamTrades(count: Long, sink: Service.TradeSink): Unit = {
    val queue = new ArrayBlockingQueue[Piece](16)
    @volatile var stopped = false
    val body = c.streaming(Request[IO](Method.GET, (base / "trades").withQueryParam("count", count))) { resp =>
      if (resp.status.isSuccess) resp.body.chunks
      else Stream.eval(refusal(resp)).flatMap(e => Stream.raiseError[Chunk[Byte]](e).covary[IO])
    }
    val cancel = body
      .evalMap(ch => IO { if (stopped) throw Stopped; queue.put(Data(ch.toArray)) })
      .compile
      .drain
      .unsafeRunCancelable {
        case Right(_) => queue.put(End)
        case Left(Stopped) => ()
        case Left(e) => queue.put(Failed(e))
      }
    try {
      val lines = new Lines(limit)
      var n = 0L
      var ended = false
      var piece = queue.take()
      while (piece != End) {
        piece match {
          case Failed(e) => throw e
          case Data(bytes) =>
            for (line <- lines.feed(bytes)) {
              if (ended) throw new IOException("stream: data after the end line")
              val json = io.circe.jawn.parse(line).fold(e => throw new IOException(s"stream: bad line: ${e.message}"), identity)
              val obj = json.asObject.getOrElse(throw new IOException("stream: a line that is not a JSON object"))
              if (obj.contains("error")) {
                val e = decodeOrFail[Wire.ErrorBody](json.hcursor.downField("error").focus.get, "stream error line")
                throw new ContractException(Option(Code.fromWire(e.code)).getOrElse(Code.INTERNAL), e.message)
              } else if (obj.contains("end")) {
                val end = decodeOrFail[Wire.EndLine](json, "stream end line")
                if (end.end.count != n || n != count) {
                  throw new IOException(s"stream ended after $n of $count trades, its end line says ${end.end.count}")
                }
                ended = true
              } else {
                if (n == count) throw new IOException(s"stream sent more than the $count trades asked")
                val t = decodeOrFail[Wire.Trade](json, "trade")
                n += 1
                sink.accept(new Model.Trade(t.id, t.symbol, t.price, t.quantity, t.timestamp_nanos, side(t.side)))
              }
            }
          case _ => ()
        }
        piece = queue.take()
      }
      if (lines.pending) throw new IOException("stream cut short in the middle of a line")
      if (!ended) throw new IOException(s"stream cut short after $n of $count trades: no end line")
    } finally {
      stopped = true
      queue.clear() // a producer blocked on a full queue goes on, and stops at its next chunk
      cancel()
    }
  }

  override def close(): Unit = c.shutdownNow()

  private def get(uri: Uri): IO[Request[IO]] = IO.pure(Request[IO](Method.GET, uri))

  private def post(uri: Uri, body: Json): IO[Request[IO]] = Request[IO](Method.POST, uri).withBody(body)

  /** `Client.expect` with the contract's refusals and a bounded body. */
  private def expect[A](req: IO[Request[IO]])(implicit d: EntityDecoder[IO, A]): IO[A] =
    c.fetch(req) { resp =>
      if (resp.status.isSuccess) resp.copy(body = bounded(resp)).as[A]
      else refusal(resp).flatMap(e => IO.raiseError[A](e))
    }

  /** The error of a non-2xx answer: the contract error its body carries, else its status's, else a plain one. */
  private def refusal(resp: Response[IO]): IO[Throwable] =
    bounded(resp).compile.toVector.map { bytes =>
      val text = new String(bytes.toArray, StandardCharsets.UTF_8)
      io.circe.jawn.decode[Wire.ErrorBody](text).toOption.flatMap(e => Option(Code.fromWire(e.code)).map(c => (c, e.message))) match {
        case Some((code, message)) => new ContractException(code, Option(message).getOrElse(""))
        case None =>
          val msg = s"HTTP status ${resp.status.code}" + (if (text.isEmpty) "" else ": " + text.take(200))
          codeOfStatus(resp.status.code).fold[Throwable](new IOException("http-json: " + msg))(new ContractException(_, msg))
      }
    }

  /** The body of an answer, refused when its Content-Length or what arrives passes the limit. */
  private def bounded(resp: Response[IO]): EntityBody[IO] = resp.contentLength match {
    case Some(n) if n > limit => Stream.raiseError(tooLarge(s"answer of $n bytes is over the client's limit of $limit"))
    case _ =>
      resp.body.chunks.mapAccumulate(0L)((n, ch) => (n + ch.size, ch)).flatMap { case (n, ch) =>
        if (n > limit) Stream.raiseError(tooLarge(s"answer is over the client's limit of $limit bytes")) else Stream.chunk(ch)
      }
  }

  /** Runs io on the calling thread's behalf: blocks until it completes; an interrupt cancels it. */
  private def run[A](io: IO[A]): A = {
    val f = new CompletableFuture[A]
    val cancel = io.attempt.unsafeRunCancelable {
      case Right(Right(a)) => f.complete(a)
      case Right(Left(e))  => f.completeExceptionally(e)
      case Left(e)         => f.completeExceptionally(e)
    }
    try f.get()
    catch {
      case e: ExecutionException =>
        e.getCause match {
          case d: DecodeFailure => throw new IOException(s"http-json: bad answer: ${d.message}", d)
          case other           => throw other
        }
      case e: InterruptedException =>
        cancel()
        throw e
    }
  }
}

private object Http4sBlazeClient {
  /** A stream that its caller has left: no further chunks are queued. */
  private object Stopped extends Exception("stream stopped by its caller", null, false, false)

  private sealed trait Piece
  private final case class Data(bytes: Array[Byte]) extends Piece
  private final case class Failed(e: Throwable) extends Piece
  private case object End extends Piece

  private def tooLarge(message: String) = new ContractException(Code.RESOURCE_EXHAUSTED, message)

  /** The contract code a status stands for when the body says none (another server's). */
  private def codeOfStatus(status: Int): Option[Code] = status match {
    case 404 => Some(Code.NOT_FOUND)
    case 400 => Some(Code.INVALID_ARGUMENT)
    case 413 => Some(Code.RESOURCE_EXHAUSTED)
    case 500 => Some(Code.INTERNAL)
    case _   => None
  }

  private def side(s: String): Model.Side = s match {
    case "BUY"  => Model.Side.BUY
    case "SELL" => Model.Side.SELL
    case other  => throw new IOException(s"stream: trade side $other: want BUY or SELL")
  }

  private def decodeOrFail[A: Decoder](json: Json, what: String): A =
    json.as[A].fold(e => throw new IOException(s"stream: bad $what: ${e.getMessage}"), identity)

  /** Splits chunks into lines ending in \n (a \r before it dropped), each bounded by the limit. */
  private final class Lines(limit: Int) {
    private val line = new java.io.ByteArrayOutputStream(256)

    def pending: Boolean = line.size() > 0

    def feed(bytes: Array[Byte]): Vector[String] = {
      val out = Vector.newBuilder[String]
      var start = 0
      var i = 0
      while (i < bytes.length) {
        if (bytes(i) == '\n') {
          line.write(bytes, start, i - start)
          val b = line.toByteArray
          line.reset()
          val n = if (b.nonEmpty && b(b.length - 1) == '\r') b.length - 1 else b.length
          if (n > limit) throw tooLarge(s"stream line over the client's limit of $limit bytes")
          if (n > 0) out += new String(b, 0, n, StandardCharsets.UTF_8)
          start = i + 1
        }
        i += 1
      }
      line.write(bytes, start, bytes.length - start)
      if (line.size() > limit) throw tooLarge(s"stream line over the client's limit of $limit bytes")
      out.result()
    }
  }
}
