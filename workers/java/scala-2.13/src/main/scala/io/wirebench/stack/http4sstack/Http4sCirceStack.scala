package io.wirebench.stack.http4sstack

import cats.effect.IO
import cats.effect.unsafe.IORuntime
import com.comcast.ip4s.{Host, Port}
import fs2.io.net.unixsocket.{UnixSocketAddress, UnixSockets}
import io.wirebench.contract.Reference
import fs2.io.net.tls.{TLSContext, TLSParameters}
import io.wirebench.stack.{Address, Stack, Tls, UnixSockets => StaleSockets}
import org.http4s.ember.server.EmberServerBuilder

import scala.concurrent.duration._

/**
 * http-json served by http4s 0.23's Ember server with circe, as http4s users write a
 * service (the metrifier original's REST stack was http4s + circe): cats-effect IO,
 * routes in http4s's DSL, circe codecs derived from case classes, Ember's defaults except
 * the request size limit, on cats-effect's global runtime. Over TCP or a Unix socket
 * (Ember's Unix socket support, through fs2's JDK Unix sockets), and TLS 1.3 over TCP
 * (Ember's withTLS, an fs2 TLSContext). No options.
 */
final class Http4sCirceStack extends Stack {
  override def name(): String = "http4s-circe"

  override def protocol(): String = "http-json"

  override def transports(): java.util.Set[String] = java.util.Set.of("tcp", "unix")

  override def speaksTls(server: Boolean): Boolean = true

  override def language(): String = "scala"

  override def summary(): String =
    "http4s 0.23 Ember server, routes in http4s's DSL on cats-effect IO, circe codecs derived; TCP, TLS and Unix sockets"

  override def libraries(): java.util.List[String] = java.util.List.of(
    "org.http4s:http4s-ember-server_2.13",
    "org.http4s:http4s-dsl_2.13",
    "org.http4s:http4s-circe_2.13",
    "io.circe:circe-generic_2.13",
    "org.scala-lang:scala-library")

  override def hasServer(): Boolean = true

  override def startServer(svc: Reference, cfg: Stack.ServerConfig): Stack.RunningServer = {
    checkSetup(cfg.listen(), cfg.options(), serverOptions(), true, cfg.tls() != null)
    val listen = cfg.listen()
    val routes = new Http4sRoutes(svc, cfg.maxMessageSize().toLong)
    val base = EmberServerBuilder
      .default[IO]
      .withHttpApp(routes.app)
      .withErrorHandler(routes.errors)
      .withShutdownTimeout(Duration.Zero)
    val builder =
      if (listen.isUnix()) {
        StaleSockets.removeStale(listen.path())
        base.withUnixSocketConfig(UnixSockets.forAsync[IO], UnixSocketAddress(listen.path().toString))
      } else {
        val host = Host.fromString(listen.host()).getOrElse(throw new IllegalArgumentException(s"bad host ${listen.host()}"))
        val port = Port.fromInt(listen.port()).getOrElse(throw new IllegalArgumentException(s"bad port ${listen.port()}"))
        val tcp = base.withHost(host).withPort(port)
        if (cfg.tls() == null) tcp
        else
          // fs2's TLSContext from the run's SSLContext, TLS 1.3 only; Ember speaks HTTP/1.1 over it.
          tcp.withTLS(
            TLSContext.Builder.forAsync[IO].fromSSLContext(cfg.tls().context()),
            TLSParameters(protocols = Some(List(Tls.VERSION))))
      }
    val (server, release) = builder.build.allocated.unsafeRunSync()(IORuntime.global)
    if (listen.isUnix()) awaitUnixSocket(listen, release)
    val bound =
      if (listen.isUnix()) listen
      else Address.tcp(listen.host(), server.addressIp4s.port.value)
    new Stack.RunningServer {
      override def address(): Address = bound

      override def close(): Unit = stop(release)
    }
  }

  private def stop(release: IO[Unit]): Unit = release.timeout(10.seconds).attempt.void.unsafeRunSync()(IORuntime.global)

  /**
   * Ember's server resource is acquired before its Unix socket is bound (the accept loop
   * binds it in the background), so the server is ready once a connection succeeds.
   */
  private def awaitUnixSocket(listen: Address, release: IO[Unit]): Unit = {
    val deadline = System.nanoTime() + 10.seconds.toNanos
    while (true) {
      try {
        val c = java.nio.channels.SocketChannel.open(java.net.StandardProtocolFamily.UNIX)
        try c.connect(java.net.UnixDomainSocketAddress.of(listen.path()))
        finally c.close()
        return
      } catch {
        case e: java.io.IOException =>
          if (System.nanoTime() > deadline) {
            stop(release)
            throw new java.io.IOException(s"http4s-circe: no server on $listen after 10 s: ${e.getMessage}")
          }
          Thread.sleep(10)
      }
    }
  }
}
