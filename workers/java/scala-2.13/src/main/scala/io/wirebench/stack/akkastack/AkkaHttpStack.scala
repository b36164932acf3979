package io.wirebench.stack.akkastack

// Shared source: its Pekko twin is generated from it at build time (scala-2.13/pom.xml, pekko-sources).

import io.wirebench.contract.Reference
import io.wirebench.stack.Stack

/**
 * http-json served by Akka HTTP with spray-json, as its users write a service: the routing
 * DSL, spray-json formats derived from case classes, Akka's defaults except the request
 * size limit. TCP only: Akka HTTP cannot bind a Unix socket. No options.
 */
final class AkkaHttpStack extends Stack {
  override def name(): String = "akka-http"

  override def protocol(): String = "http-json"

  override def transports(): java.util.Set[String] = java.util.Set.of("tcp")

  override def speaksTls(server: Boolean): Boolean = true

  override def language(): String = "scala"

  override def summary(): String = io.wirebench.stack.twins.Summaries.AkkaHttp

  override def libraries(): java.util.List[String] = java.util.List.of(
    "com.typesafe.akka:akka-http_2.13",
    "com.typesafe.akka:akka-http-spray-json_2.13",
    "com.typesafe.akka:akka-stream_2.13",
    "com.typesafe.akka:akka-actor_2.13",
    "org.scala-lang:scala-library")

  override def hasServer(): Boolean = true

  override def startServer(svc: Reference, cfg: Stack.ServerConfig): Stack.RunningServer = {
    checkSetup(cfg.listen(), cfg.options(), serverOptions(), true, cfg.tls() != null)
    val system = AkkaServerSystem("akka-http", cfg.maxMessageSize().toLong, http2 = false)
    val route = new AkkaHttpRoutes(svc).route
    AkkaServers.bind(system, cfg.listen(), cfg.tls(), akka.http.scaladsl.server.Route.toFunction(route)(system))
  }
}
