package io.wirebench.stack.akkastack

// Shared source: its Pekko twin and its Scala 2.12 copy are generated from it (the poms of both modules).

import akka.actor.ActorSystem
import com.typesafe.config.ConfigFactory

/**
 * The ActorSystem of one Akka HTTP server, configured as an application configures it: the
 * request size limit, HTTP/2 for gRPC, and logging through SLF4J (Akka's default logger
 * writes to stdout, which the worker keeps for its address line).
 */
object AkkaServerSystem {
  /**
   * maxContentLength is Akka HTTP's limit on a request entity
   * (akka.http.server.parsing.max-content-length); http2 turns on h2c with prior knowledge,
   * which gRPC clients speak; settings are more configuration lines of the stack's own
   * (the gRPC server's, AkkaGrpcStack.settings).
   */
  def apply(name: String, maxContentLength: Long, http2: Boolean, settings: String = ""): ActorSystem = {
    val conf = ConfigFactory
      .parseString(
        s"""akka.http.server.parsing.max-content-length = $maxContentLength
           |akka.http.server.preview.enable-http2 = ${if (http2) "on" else "off"}
           |akka.loggers = ["akka.event.slf4j.Slf4jLogger"]
           |akka.logging-filter = "akka.event.slf4j.Slf4jLoggingFilter"
           |$settings
           |""".stripMargin)
      .withFallback(ConfigFactory.load())
    ActorSystem(name, conf)
  }
}
