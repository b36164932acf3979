package io.wirebench.stack.pekkostack

// This file is ../akkastack/AkkaHttpStack.scala with Akka's packages renamed to Pekko's,
// as Pekko's users port a service; it differs in none but the names and versions. A
// change to one belongs in both. Kept as source rather than generated at build time, so
// each stack reads as written.

import io.wirebench.contract.Reference
import io.wirebench.stack.Stack

/**
 * http-json served by Pekko HTTP 1.3 (on Pekko 1.1), Apache's successor of Akka HTTP,
 * written as the akka-http stack is (the same routes and spray-json formats, through
 * pekko-http-spray-json): the routing DSL, Pekko's defaults except the request size
 * limit. TCP only: Pekko HTTP cannot bind a Unix socket. No options.
 */
final class PekkoHttpStack extends Stack {
  override def name(): String = "pekko-http"

  override def protocol(): String = "http-json"

  override def transports(): java.util.Set[String] = java.util.Set.of("tcp")

  override def hasServer(): Boolean = true

  override def startServer(svc: Reference, cfg: Stack.ServerConfig): Stack.RunningServer = {
    checkSetup(cfg.listen(), cfg.options(), serverOptions())
    val system = PekkoServers.system("pekko-http", cfg.maxMessageSize().toLong, http2 = false)
    val route = new PekkoHttpRoutes(svc).route
    PekkoServers.bind(system, cfg.listen(), org.apache.pekko.http.scaladsl.server.Route.toFunction(route)(system))
  }
}
