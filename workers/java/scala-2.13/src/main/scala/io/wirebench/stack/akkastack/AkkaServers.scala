package io.wirebench.stack.akkastack

// Shared source: its Pekko twin is generated from it at build time (scala-2.13/pom.xml, pekko-sources).

import akka.actor.ActorSystem
import akka.http.scaladsl.Http
import io.wirebench.stack.{Address, Stack}

import scala.concurrent.Await
import scala.concurrent.duration._

/**
 * Starting and stopping an Akka HTTP server as its users do: on an ActorSystem
 * (AkkaServerSystem), `Http().newServerAt(host, port).bind(handler)`, and on close the
 * binding terminated and the system with it.
 */
private[akkastack] object AkkaServers {
  /** Binds handler on listen (TCP) and returns the running server, or fails and stops the system. */
  def bind(system: ActorSystem, listen: Address,
      handler: akka.http.scaladsl.model.HttpRequest => scala.concurrent.Future[akka.http.scaladsl.model.HttpResponse])
      : Stack.RunningServer = {
    implicit val sys: ActorSystem = system
    val binding =
      try Await.result(Http().newServerAt(listen.host(), listen.port()).bind(handler), 30.seconds)
      catch {
        case e: Throwable =>
          stop(system)
          throw e
      }
    val bound = Address.tcp(listen.host(), binding.localAddress.getPort)
    new Stack.RunningServer {
      override def address(): Address = bound

      override def close(): Unit = {
        try Await.ready(binding.terminate(hardDeadline = 100.millis), 5.seconds)
        catch { case _: Exception => () }
        stop(system)
      }
    }
  }

  private def stop(system: ActorSystem): Unit =
    try Await.ready(system.terminate(), 10.seconds)
    catch { case _: Exception => () }
}
