package io.wirebench.stack.akkastack

// Shared source: its Pekko twin is generated from it at build time (scala-2.13/pom.xml, pekko-sources).

import akka.NotUsed
import akka.stream.scaladsl.Source
import io.wirebench.contract.{ContractException, Reference}
import wirebench.v1.wirebench._

import scala.concurrent.{ExecutionContext, Future}
import scala.jdk.CollectionConverters._

/**
 * The three wirebench.v1 services on Akka gRPC's generated Scala traits. The reference
 * service answers at once, so each call completes its Future immediately; a refusal
 * fails it, and the handlers' exception mapper turns it into the status.
 */
final class AkkaGrpcServices(svc: Reference)(implicit ec: ExecutionContext) {
  import AkkaGrpcConvert._
  import AkkaGrpcServices._

  val persons: PersonService = new PersonService {
    override def listPersons(in: ListPersonsRequest): Future[PersonList] =
      answer(PersonList(svc.listPersons().asScala.iterator.map(toProto).toSeq))

    override def getPerson(in: PersonId): Future[Person] = answer(toProto(svc.getPerson(in.id)))

    override def getPersonLinks(in: PersonId): Future[PersonLinkList] =
      answer(PersonLinkList(svc.getPersonLinks(in.id).asScala.iterator
        .map(l => PersonLink(Some(toProto(l.p1())), Some(toProto(l.p2())))).toSeq))

    override def createPerson(in: Person): Future[Person] = answer(toProto(svc.createPerson(fromProto(in))))
  }

  val echo: EchoService = new EchoService {
    override def echo(in: EchoMessage): Future[EchoMessage] = answer(EchoMessage(svc.echo(in.payload)))

    override def stats(in: StatsRequest): Future[StatsReply] = answer {
      val s = svc.stats()
      StatsReply(s.calls(), s.lastPayloadLen())
    }

    override def increment(in: Number): Future[Number] = answer(Number(svc.increment(in.value)))
  }

  /** A bad count throws here, before the stream starts, and the call fails with its status. */
  val trades: TradeService = new TradeService {
    override def streamTrades(in: TradesRequest): Source[Trade, NotUsed] = {
      val it = svc.trades(in.count).asScala
      Source.fromIterator(() => it.map(toProto))
    }

    /** Refused: the Akka gRPC stack does not carry the original's trade (the driver refuses such a run first). */
    override def streamOriginalTrades(in: TradesRequest): Source[OriginalTrade, NotUsed] =
      Source.failed(new akka.grpc.GrpcServiceException(io.grpc.Status.UNIMPLEMENTED.withDescription(
        "Akka gRPC does not carry the original trade shape (trade: original)")))
  }
}

object AkkaGrpcServices {
  private def answer[T](f: => T): Future[T] =
    try Future.successful(f)
    catch { case e: ContractException => Future.failed(e) }
}
