package io.wirebench.stack.originals

import cats.effect.IO
import io.wirebench.contract.Reference
import io.wirebench.stack.{Address, Stack}
import org.http4s.Uri
import org.http4s.client.blaze.{BlazeClientConfig, Http1Client}
import org.http4s.server.blaze.BlazeBuilder

import scala.concurrent.duration.Duration

/**
 * http-json served by http4s 0.18.15 on its Blaze server with circe 0.9.3 (Scala 2.12):
 * the versions of the metrifier original's HTTP server, written as it was: an
 * `HttpService[IO]` in http4s's DSL, circe entity codecs through http4s-circe,
 * `BlazeBuilder[IO].bindHttp(port, host).mountService(service, "/")`, Blaze's defaults
 * (its NIO1 selector pool, the global ExecutionContext) except the service error handler
 * that answers the contract's refusals. Its client is the original's too: http4s 0.18.15's
 * Blaze client, `Http1Client[IO](config)` with Blaze's defaults (a pool of up to 10
 * connections, shared by every caller of one client) but for one, called as the
 * original's HttpClient calls its server (Http4sBlazeClient). That one: Blaze's 10 s
 * wait for an answer's headers is left out (its request timeout is already infinite),
 * as every other client stack leaves calls to the engine's call timeout: this server
 * takes about 23 s to parse the contract check's 4 MiB echo (docs/java-worker.md), and no
 * measured call comes near 10 s. TCP only (Blaze 0.18 binds and dials TCP sockets); the
 * client cannot count bytes (Blaze owns its channels). No options.
 */
final class Http4sBlazeStack extends Stack {
  override def name(): String = "http4s-blaze"

  override def protocol(): String = "http-json"

  override def transports(): java.util.Set[String] = java.util.Collections.singleton("tcp")

  override def hasServer(): Boolean = true

  override def hasClient(): Boolean = true

  override def countsBytes(): Boolean = false

  override def language(): String = "scala"

  override def summary(): String =
    "http4s 0.18.15 on Blaze with circe 0.9.3 (Scala 2.12, cats-effect 0.10): an HttpService in the DSL served by " +
      "BlazeBuilder, called by Blaze's Http1Client with Blaze's defaults: the metrifier original's; TCP only, " +
      "client bytes not counted"

  override def libraries(): java.util.List[String] = java.util.Arrays.asList(
    "org.http4s:http4s-blaze-server_2.12",
    "org.http4s:http4s-blaze-client_2.12",
    "org.http4s:http4s-dsl_2.12",
    "org.http4s:http4s-circe_2.12",
    "io.circe:circe-generic_2.12",
    "org.scala-lang:scala-library")

  override def connect(cfg: Stack.ClientConfig): Stack.Client = {
    checkSetup(cfg.target(), cfg.options(), clientOptions())
    val base = Uri.fromString("http://" + cfg.target().hostPort()).fold(e => throw new IllegalArgumentException(e.message), identity)
    val config = BlazeClientConfig.defaultConfig.copy(responseHeaderTimeout = Duration.Inf)
    new Http4sBlazeClient(Http1Client[IO](config).unsafeRunSync(), base, cfg.maxMessageSize())
  }

  override def startServer(svc: Reference, cfg: Stack.ServerConfig): Stack.RunningServer = {
    checkSetup(cfg.listen(), cfg.options(), serverOptions())
    val listen = cfg.listen()
    val routes = new Http4sBlazeRoutes(svc, cfg.maxMessageSize().toLong)
    val server = BlazeBuilder[IO]
      .bindHttp(listen.port(), listen.host())
      .mountService(routes.service, "/")
      .withServiceErrorHandler(routes.errors)
      .start
      .unsafeRunSync()
    val bound = Address.tcp(listen.host(), server.address.getPort)
    new Stack.RunningServer {
      override def address(): Address = bound

      override def close(): Unit = server.shutdownNow()
    }
  }
}
