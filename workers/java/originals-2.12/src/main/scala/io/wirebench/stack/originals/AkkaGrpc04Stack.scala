package io.wirebench.stack.originals

import akka.NotUsed
import akka.grpc.GrpcServiceException
import akka.grpc.scaladsl.ServiceHandler
import akka.stream.scaladsl.{Flow, Source}
import akka.util.ByteString
import io.grpc.Status
import io.wirebench.contract.{ContractException, Reference}
import io.wirebench.stack.Stack
import io.wirebench.stack.akkastack.AkkaGrpcConvert._
import io.wirebench.stack.akkastack.AkkaServerSystem
import wirebench.v1.wirebench._

import scala.collection.JavaConverters._
import scala.concurrent.Future

/**
 * grpc-proto served by Akka gRPC 0.4.2 on Akka HTTP 10.1's HTTP/2 (h2c), Akka 2.5.18: the
 * original Akka HTTP vs Akka gRPC experiment's server. The Scala service traits and
 * handlers Akka gRPC 0.4.2's code generator made from contract/schema/wirebench.proto
 * (ScalaPB 0.8 messages), implemented with Futures and a Source, the handlers joined with
 * ServiceHandler.concatOrNotFound and bound with bindAndHandleAsync. Akka gRPC 0.4 has no
 * exception mapper parameter: a service refuses by failing with GrpcServiceException(status),
 * which the generated handlers answer (anything else is INTERNAL). No server reflection
 * (0.4.2 has none). A request over the message limit fails with RESOURCE_EXHAUSTED. Like
 * every Akka gRPC server it gzips its answers when the client accepts gzip. TCP only. No
 * options.
 */
final class AkkaGrpc04Stack extends Stack {
  override def name(): String = "akka-grpc-0.4"

  override def protocol(): String = "grpc-proto"

  override def transports(): java.util.Set[String] = java.util.Collections.singleton("tcp")

  override def hasServer(): Boolean = true

  override def language(): String = "scala"

  override def summary(): String =
    "Akka gRPC 0.4.2 generated Scala services on Akka HTTP 10.1 (HTTP/2 module 10.1.7), Akka 2.5.18, ScalaPB 0.8: " +
      "the Akka HTTP vs gRPC original's; no reflection; gzips answers to clients that accept gzip; TCP only"

  override def libraries(): java.util.List[String] = java.util.Arrays.asList(
    "com.lightbend.akka.grpc:akka-grpc-runtime_2.12",
    "com.typesafe.akka:akka-http_2.12",
    "com.typesafe.akka:akka-http2-support_2.12",
    "com.typesafe.akka:akka-stream_2.12",
    "com.thesamet.scalapb:scalapb-runtime_2.12",
    "org.scala-lang:scala-library")

  override def startServer(svc: Reference, cfg: Stack.ServerConfig): Stack.RunningServer = {
    checkSetup(cfg.listen(), cfg.options(), serverOptions())
    implicit val system = AkkaServerSystem("akka-grpc-0-4", cfg.maxMessageSize().toLong + 5, http2 = true)
    implicit val mat = Akka25Servers.materializer(system)
    val handler = ServiceHandler.concatOrNotFound(
      PersonServiceHandler.partial(new AkkaGrpc04Stack.Persons(svc)),
      EchoServiceHandler.partial(new AkkaGrpc04Stack.Echo(svc)),
      TradeServiceHandler.partial(new AkkaGrpc04Stack.Trades(svc)))
    // Akka HTTP's max-content-length does not reach HTTP/2 request streams, so each request's
    // entity is limited here; reading past the limit fails the call with RESOURCE_EXHAUSTED.
    val limit = cfg.maxMessageSize().toLong + 5
    Akka25Servers.bind(system, mat, cfg.listen(), http2 = true,
      req => handler(req.withEntity(req.entity.transformDataBytes(AkkaGrpc04Stack.limited(limit)))))
  }
}

object AkkaGrpc04Stack {
  /** Passes at most limit bytes, then fails with RESOURCE_EXHAUSTED. */
  def limited(limit: Long): Flow[ByteString, ByteString, NotUsed] =
    Flow[ByteString].statefulMapConcat { () =>
      var seen = 0L
      bytes => {
        seen += bytes.length
        if (seen > limit)
          throw new GrpcServiceException(
            Status.RESOURCE_EXHAUSTED.withDescription(s"request is over the limit of ${limit - 5} bytes"))
        bytes :: Nil
      }
    }

  private def refusal(e: ContractException) = new GrpcServiceException(status(e.code()).withDescription(e.getMessage))

  private def answer[T](f: => T): Future[T] =
    try Future.successful(f)
    catch { case e: ContractException => Future.failed(refusal(e)) }

  final class Persons(svc: Reference) extends PersonService {
    override def listPersons(in: ListPersonsRequest): Future[PersonList] =
      answer(PersonList(svc.listPersons().asScala.iterator.map(toProto).toVector))

    override def getPerson(in: PersonId): Future[Person] = answer(toProto(svc.getPerson(in.id)))

    override def getPersonLinks(in: PersonId): Future[PersonLinkList] =
      answer(PersonLinkList(svc.getPersonLinks(in.id).asScala.iterator
        .map(l => PersonLink(Some(toProto(l.p1())), Some(toProto(l.p2())))).toVector))

    override def createPerson(in: Person): Future[Person] = answer(toProto(svc.createPerson(fromProto(in))))
  }

  final class Echo(svc: Reference) extends EchoService {
    override def echo(in: EchoMessage): Future[EchoMessage] = answer(EchoMessage(svc.echo(in.payload)))

    override def stats(in: StatsRequest): Future[StatsReply] = answer {
      val s = svc.stats()
      StatsReply(s.calls(), s.lastPayloadLen())
    }

    override def increment(in: Number): Future[Number] = answer(Number(svc.increment(in.value)))
  }

  /** A bad count is refused before the stream starts, and the call fails with its status. */
  final class Trades(svc: Reference) extends TradeService {
    override def streamTrades(in: TradesRequest): Source[Trade, NotUsed] =
      try {
        val it = svc.trades(in.count).asScala
        Source.fromIterator(() => it.map(toProto))
      } catch { case e: ContractException => Source.failed(refusal(e)) }

    /** Refused: akka-grpc 0.4 does not carry the original's trade (the driver refuses such a run first). */
    override def streamOriginalTrades(in: TradesRequest): Source[OriginalTrade, NotUsed] =
      Source.failed(new GrpcServiceException(Status.UNIMPLEMENTED.withDescription(
        "akka-grpc 0.4 does not carry the original trade shape (trade: original)")))
  }
}
