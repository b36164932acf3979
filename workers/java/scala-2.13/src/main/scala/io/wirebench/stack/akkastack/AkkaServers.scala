package io.wirebench.stack.akkastack

// Shared source: its Pekko twin is generated from it at build time (scala-2.13/pom.xml, pekko-sources).

import akka.actor.ActorSystem
import akka.http.scaladsl.{ConnectionContext, Http}
import io.wirebench.stack.{Address, Stack, Tls}

import scala.concurrent.Await
import scala.concurrent.duration._

/**
 * Starting and stopping an Akka HTTP server as its users do: on an ActorSystem
 * (AkkaServerSystem), `Http().newServerAt(host, port).bind(handler)` (with
 * `enableHttps(ConnectionContext.httpsServer(...))` over TLS: TLS 1.3 only, the run's
 * certificate, ALPN h2 offered by Akka HTTP itself when HTTP/2 is on), and on close the
 * binding terminated and the system with it.
 */
private[akkastack] object AkkaServers {
  /** Binds handler on listen (TCP; TLS when tls is not null) and returns the running server, or fails and stops the system. */
  def bind(system: ActorSystem, listen: Address, tls: Tls.Server,
      handler: akka.http.scaladsl.model.HttpRequest => scala.concurrent.Future[akka.http.scaladsl.model.HttpResponse])
      : Stack.RunningServer = {
    implicit val sys: ActorSystem = system
    val binding =
      try {
        val plain = Http().newServerAt(listen.host(), listen.port())
        val builder =
          if (tls == null) plain
          else {
            val ctx = tls.context()
            plain.enableHttps(ConnectionContext.httpsServer { () =>
              val engine = ctx.createSSLEngine()
              engine.setUseClientMode(false)
              Tls.restrict(engine)
            })
          }
        Await.result(builder.bind(handler), 30.seconds)
      }
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
