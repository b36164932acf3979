package io.wirebench.stack.originals

import akka.actor.ActorSystem
import akka.http.scaladsl.model.{HttpRequest, HttpResponse}
import akka.http.scaladsl.{Http, HttpConnectionContext, UseHttp2}
import akka.stream.{ActorMaterializer, Materializer}
import io.wirebench.stack.{Address, Stack}

import scala.concurrent.duration._
import scala.concurrent.{Await, Future}

/**
 * Starting and stopping an Akka HTTP 10.1 server on Akka 2.5 as its users did then: on an
 * ActorSystem configured by the application (AkkaServerSystem, scala-2.13's source), an
 * ActorMaterializer, `Http().bindAndHandleAsync(handler, host, port, connectionContext)`
 * (with `HttpConnectionContext(http2 = Always)` for gRPC, as Akka gRPC 0.4's documentation
 * binds it), and on close the binding unbound and the system terminated. (scala-2.13's
 * AkkaServers is the same on Akka HTTP 10.2's newServerAt.)
 */
private[originals] object Akka25Servers {
  /** Binds handler on listen (TCP) and returns the running server, or fails and stops the system. */
  def bind(system: ActorSystem, mat: Materializer, listen: Address, http2: Boolean,
      handler: HttpRequest => Future[HttpResponse]): Stack.RunningServer = {
    implicit val sys: ActorSystem = system
    implicit val m: Materializer = mat
    val ctx = if (http2) HttpConnectionContext(http2 = UseHttp2.Always) else HttpConnectionContext()
    val binding =
      try Await.result(Http().bindAndHandleAsync(handler, listen.host(), listen.port(), ctx), 30.seconds)
      catch {
        case e: Throwable =>
          stop(system)
          throw e
      }
    val bound = Address.tcp(listen.host(), binding.localAddress.getPort)
    new Stack.RunningServer {
      override def address(): Address = bound

      override def close(): Unit = {
        try Await.ready(binding.unbind(), 5.seconds)
        catch { case _: Exception => () }
        stop(system)
      }
    }
  }

  def materializer(system: ActorSystem): Materializer = ActorMaterializer()(system)

  private def stop(system: ActorSystem): Unit =
    try Await.ready(system.terminate(), 10.seconds)
    catch { case _: Exception => () }
}
