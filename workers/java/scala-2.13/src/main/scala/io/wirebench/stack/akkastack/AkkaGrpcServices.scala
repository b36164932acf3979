package io.wirebench.stack.akkastack

// ../pekkostack/PekkoGrpcServices.scala is this file on Pekko: a change to one belongs in both.

import akka.NotUsed
import akka.stream.scaladsl.Source
import io.grpc.Status
import io.wirebench.contract.{Code, ContractException, Model, Reference}
import wirebench.v1.wirebench._

import scala.concurrent.{ExecutionContext, Future}
import scala.jdk.CollectionConverters._

/**
 * The three wirebench.v1 services on Akka gRPC's generated Scala traits. The reference
 * service answers at once, so each call completes its Future immediately; a refusal
 * fails it, and the handlers' exception mapper turns it into the status.
 */
final class AkkaGrpcServices(svc: Reference)(implicit ec: ExecutionContext) {
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
  }
}

object AkkaGrpcServices {
  private def answer[T](f: => T): Future[T] =
    try Future.successful(f)
    catch { case e: ContractException => Future.failed(e) }

  def status(c: Code): Status = c match {
    case Code.NOT_FOUND          => Status.NOT_FOUND
    case Code.INVALID_ARGUMENT   => Status.INVALID_ARGUMENT
    case Code.RESOURCE_EXHAUSTED => Status.RESOURCE_EXHAUSTED
    case Code.INTERNAL           => Status.INTERNAL
  }

  def toProto(p: Model.Person): Person = {
    val n = p.name()
    val l = p.location()
    Person(
      id = p.id(),
      name = Some(PersonName(n.title(), n.first(), n.last())),
      gender = p.gender(),
      location = Some(Location(l.street(), l.city(), l.state(), l.postCode())),
      email = p.email(),
      picture = Option(p.picture()).map(x => Picture(x.large(), x.medium(), x.thumbnail())))
  }

  def fromProto(p: Person): Model.Person = {
    val n = p.name.getOrElse(PersonName())
    val l = p.location.getOrElse(Location())
    new Model.Person(p.id, new Model.PersonName(n.title, n.first, n.last), p.gender,
      new Model.Location(l.street, l.city, l.state, l.postCode), p.email,
      p.picture.map(x => new Model.Picture(x.large, x.medium, x.thumbnail)).orNull)
  }

  def toProto(t: Model.Trade): Trade =
    Trade(t.id(), t.symbol(), t.price(), t.quantity(), t.timestampNanos(),
      if (t.side() == Model.Side.SELL) Side.SELL else Side.BUY)
}
