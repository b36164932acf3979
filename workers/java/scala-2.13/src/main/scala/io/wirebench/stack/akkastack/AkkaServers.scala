package io.wirebench.stack.akkastack

// Shared source: its Pekko twin is generated from it at build time (scala-2.13/pom.xml, pekko-sources).

import akka.actor.ActorSystem
import akka.http.scaladsl.Http
import com.typesafe.config.ConfigFactory
import io.wirebench.stack.{Address, Stack}

import scala.concurrent.Await
import scala.concurrent.duration._

/**
 * Starting and stopping an Akka HTTP server as its users do: an ActorSystem whose
 * configuration is the application's (here: the request size limit, HTTP/2 for gRPC, and
 * logging through SLF4J), `Http().newServerAt(host, port).bind(handler)`, and on close
 * the binding terminated and the system with it.
 */
private[akkastack] object AkkaServers {
  /**
   * An ActorSystem for one server. maxContentLength is Akka HTTP's limit on a request
   * entity (akka.http.server.parsing.max-content-length); http2 turns on h2c with prior
   * knowledge, which gRPC clients speak.
   */
  def system(name: String, maxContentLength: Long, http2: Boolean): ActorSystem = {
    val conf = ConfigFactory
      .parseString(
        s"""akka.http.server.parsing.max-content-length = $maxContentLength
           |akka.http.server.preview.enable-http2 = ${if (http2) "on" else "off"}
           |akka.loggers = ["akka.event.slf4j.Slf4jLogger"]
           |akka.logging-filter = "akka.event.slf4j.Slf4jLoggingFilter"
           |""".stripMargin)
      .withFallback(ConfigFactory.load())
    ActorSystem(name, conf)
  }

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
