package io.wirebench.stack.akkastack

// Shared source: its Pekko twin is generated from it at build time (scala-2.13/pom.xml, pekko-sources).

import akka.actor.ActorSystem
import akka.grpc.scaladsl.{GrpcExceptionHandler, ServiceHandler}
import akka.grpc.scaladsl.ServerReflection
import akka.grpc.{GrpcServiceException, Trailers}
import akka.http.scaladsl.model.EntityStreamSizeException
import io.grpc.Status
import io.wirebench.contract.{Code, ContractException, Reference}
import io.wirebench.stack.Stack
import wirebench.v1.wirebench._

/**
 * grpc-proto served by Akka gRPC on Akka HTTP's HTTP/2 (h2c, or h2 by ALPN over TLS), as its users write a server:
 * the Scala service traits Akka gRPC's code generator made from
 * contract/schema/wirebench.proto (ScalaPB messages), implemented with Futures and a
 * Source for the stream, their handlers joined with ServiceHandler.concatOrNotFound.
 * Server reflection (v1alpha) through ServerReflection.partial.
 * The service's refusals become gRPC statuses through the handlers' exception mapper. A
 * request over the message limit fails with RESOURCE_EXHAUSTED. Like every Akka gRPC
 * server, it compresses its answers with gzip when the client says it accepts gzip
 * (grpc-java's clients do; grpc-go's, without a gzip codec registered, do not). TCP only.
 * Set up as the Akka HTTP team sets a gRPC server up (AkkaGrpcStack.settings). No options.
 */
final class AkkaGrpcStack extends Stack {
  override def name(): String = "akka-grpc"

  override def protocol(): String = "grpc-proto"

  override def transports(): java.util.Set[String] = java.util.Set.of("tcp")

  override def speaksTls(server: Boolean): Boolean = true

  override def language(): String = "scala"

  override def summary(): String = io.wirebench.stack.twins.Summaries.AkkaGrpc

  override def libraries(): java.util.List[String] = java.util.List.of(
    "com.lightbend.akka.grpc:akka-grpc-runtime_2.13",
    "com.typesafe.akka:akka-http_2.13",
    "com.typesafe.akka:akka-stream_2.13",
    "com.thesamet.scalapb:scalapb-runtime_2.13",
    "org.scala-lang:scala-library")

  override def hasServer(): Boolean = true

  override def startServer(svc: Reference, cfg: Stack.ServerConfig): Stack.RunningServer = {
    checkSetup(cfg.listen(), cfg.options(), serverOptions(), true, cfg.tls() != null)
    implicit val system: ActorSystem =
      AkkaServerSystem("akka-grpc", cfg.maxMessageSize().toLong + 5, http2 = true, settings = AkkaGrpcStack.settings)
    val services = new AkkaGrpcServices(svc)(system.dispatcher)
    val handler = ServiceHandler.concatOrNotFound(
      PersonServiceHandler.partial(services.persons, eHandler = AkkaGrpcStack.errors),
      EchoServiceHandler.partial(services.echo, eHandler = AkkaGrpcStack.errors),
      TradeServiceHandler.partial(services.trades, eHandler = AkkaGrpcStack.errors),
      ServerReflection.partial(List(PersonService, EchoService, TradeService)),
    )
    // Akka HTTP's entity limit (max-content-length) does not reach HTTP/2 request streams,
    // so each request's entity gets the limit itself, as Akka HTTP's withSizeLimit directive
    // sets it: reading past it fails the call with RESOURCE_EXHAUSTED (errors below).
    val limit = cfg.maxMessageSize().toLong + 5
    AkkaServers.bind(system, cfg.listen(), cfg.tls(), req => handler(req.withEntity(req.entity.withSizeLimit(limit))))
  }
}

object AkkaGrpcStack {
  /**
   * The gRPC server's settings as the Akka HTTP team sets an Akka gRPC server up for
   * throughput (docs/java-worker.md, "How each stack is set up"): a request of one DATA
   * frame, as a unary gRPC call's is, collected into a strict entity rather than streamed
   * (min-collect-strict-entity-size = 1, which Akka HTTP's reference.conf describes as
   * "more efficient processing of the request data without involving streams"), and the
   * default dispatcher no larger than the CPUs the JVM may use (parallelism-max; its
   * parallelism-min of 8 would otherwise run 8 threads on one CPU), as in their
   * scala_akka server of grpc_bench (application.conf) and Akka HTTP's own HTTP/2 server
   * benchmarks (H2RequestResponseBenchmark).
   */
  def settings: String =
    s"""akka.http.server.http2.min-collect-strict-entity-size = 1
       |akka.actor.default-dispatcher.fork-join-executor.parallelism-max = ${Runtime.getRuntime.availableProcessors}
       |""".stripMargin

  /** The contract's codes as gRPC statuses (internal/grpcx/status.go); a request over the limit is RESOURCE_EXHAUSTED. */
  val errors: ActorSystem => PartialFunction[Throwable, Trailers] = system => {
    case e: ContractException =>
      Trailers(AkkaGrpcConvert.status(e.code()).withDescription(e.getMessage))
    case e: EntityStreamSizeException =>
      Trailers(Status.RESOURCE_EXHAUSTED.withDescription(s"request is over the limit of ${e.limit - 5} bytes"))
    case e if GrpcExceptionHandler.defaultMapper(system).isDefinedAt(e) =>
      GrpcExceptionHandler.defaultMapper(system)(e)
  }
}
