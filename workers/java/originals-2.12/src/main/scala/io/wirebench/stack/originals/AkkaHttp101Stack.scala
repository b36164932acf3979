package io.wirebench.stack.originals

import akka.http.scaladsl.server.Route
import io.wirebench.contract.Reference
import io.wirebench.stack.Stack
import io.wirebench.stack.akkastack.{AkkaHttpRoutes, AkkaServerSystem}

/**
 * http-json served by Akka HTTP 10.1.5 on Akka 2.5.18 with spray-json: the versions of the
 * original Akka HTTP vs Akka gRPC experiment. The akka-http stack's routes and formats
 * (AkkaHttpRoutes, scala-2.13's source compiled here for Scala 2.12), bound with 10.1's API.
 * TCP only. No options.
 */
final class AkkaHttp101Stack extends Stack {
  override def name(): String = "akka-http-10.1"

  override def protocol(): String = "http-json"

  override def transports(): java.util.Set[String] = java.util.Collections.singleton("tcp")

  override def hasServer(): Boolean = true

  override def language(): String = "scala"

  override def summary(): String =
    "Akka HTTP 10.1.5 on Akka 2.5.18 (Scala 2.12), routes with spray-json: the Akka HTTP vs gRPC original's; TCP only"

  override def libraries(): java.util.List[String] = java.util.Arrays.asList(
    "com.typesafe.akka:akka-http_2.12",
    "com.typesafe.akka:akka-http-spray-json_2.12",
    "com.typesafe.akka:akka-stream_2.12",
    "com.typesafe.akka:akka-actor_2.12",
    "org.scala-lang:scala-library")

  override def startServer(svc: Reference, cfg: Stack.ServerConfig): Stack.RunningServer = {
    checkSetup(cfg.listen(), cfg.options(), serverOptions())
    implicit val system = AkkaServerSystem("akka-http-10-1", cfg.maxMessageSize().toLong, http2 = false)
    implicit val mat = Akka25Servers.materializer(system)
    val route = new AkkaHttpRoutes(svc).route
    Akka25Servers.bind(system, mat, cfg.listen(), http2 = false, Route.asyncHandler(route))
  }
}
