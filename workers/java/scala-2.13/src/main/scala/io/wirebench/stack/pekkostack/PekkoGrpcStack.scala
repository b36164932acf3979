package io.wirebench.stack.pekkostack

// This file is ../akkastack/AkkaGrpcStack.scala with Akka's packages renamed to Pekko's,
// as Pekko's users port a service; it differs in the generated package and no server
// reflection. A change to one belongs in both. Kept as source rather than generated at
// build time, so each stack reads as written.

import org.apache.pekko.actor.ActorSystem
import org.apache.pekko.grpc.scaladsl.{GrpcExceptionHandler, ServiceHandler}
import org.apache.pekko.grpc.{GrpcServiceException, Trailers}
import org.apache.pekko.http.scaladsl.model.EntityStreamSizeException
import io.grpc.Status
import io.wirebench.contract.{Code, ContractException, Reference}
import io.wirebench.stack.Stack
import wirebench.v1.wirebench_pekko._

/**
 * grpc-proto served by Pekko gRPC 1.1.1 on Pekko HTTP 1.3's HTTP/2 (h2c), Apache's
 * successor of Akka gRPC, written as the akka-grpc stack is: the Scala service traits
 * Pekko gRPC's code generator made from contract/schema/wirebench.proto (ScalaPB messages,
 * package wirebench.v1.wirebench_pekko), implemented with Futures and a
 * Source for the stream, their handlers joined with ServiceHandler.concatOrNotFound. No
 * server reflection: pekko-grpc-runtime's reflection classes have the same names as
 * akka-grpc-runtime's (grpc.reflection.v1alpha.reflection.*), and the worker's one jar keeps
 * Akka's (docs/java-worker.md). The service's refusals become gRPC statuses
 * through the handlers' exception mapper. A request over the message limit fails with
 * RESOURCE_EXHAUSTED. Like every Pekko gRPC server, it compresses its answers with gzip when
 * the client says it accepts gzip (grpc-java's clients do; grpc-go's, without a gzip
 * codec registered, do not). TCP only. No options.
 */
final class PekkoGrpcStack extends Stack {
  override def name(): String = "pekko-grpc"

  override def protocol(): String = "grpc-proto"

  override def transports(): java.util.Set[String] = java.util.Set.of("tcp")

  override def hasServer(): Boolean = true

  override def startServer(svc: Reference, cfg: Stack.ServerConfig): Stack.RunningServer = {
    checkSetup(cfg.listen(), cfg.options(), serverOptions())
    implicit val system: ActorSystem = PekkoServers.system("pekko-grpc", cfg.maxMessageSize().toLong + 5, http2 = true)
    val services = new PekkoGrpcServices(svc)(system.dispatcher)
    val handler = ServiceHandler.concatOrNotFound(
      PersonServiceHandler.partial(services.persons, eHandler = PekkoGrpcStack.errors),
      EchoServiceHandler.partial(services.echo, eHandler = PekkoGrpcStack.errors),
      TradeServiceHandler.partial(services.trades, eHandler = PekkoGrpcStack.errors))
    // Pekko HTTP's entity limit (max-content-length) does not reach HTTP/2 request streams,
    // so each request's entity gets the limit itself, as Pekko HTTP's withSizeLimit directive
    // sets it: reading past it fails the call with RESOURCE_EXHAUSTED (errors below).
    val limit = cfg.maxMessageSize().toLong + 5
    PekkoServers.bind(system, cfg.listen(), req => handler(req.withEntity(req.entity.withSizeLimit(limit))))
  }
}

object PekkoGrpcStack {
  /** The contract's codes as gRPC statuses (protocol/internal/grpcx/status.go); a request over the limit is RESOURCE_EXHAUSTED. */
  val errors: ActorSystem => PartialFunction[Throwable, Trailers] = system => {
    case e: ContractException =>
      Trailers(PekkoGrpcServices.status(e.code()).withDescription(e.getMessage))
    case e: EntityStreamSizeException =>
      Trailers(Status.RESOURCE_EXHAUSTED.withDescription(s"request is over the limit of ${e.limit - 5} bytes"))
    case e if GrpcExceptionHandler.defaultMapper(system).isDefinedAt(e) =>
      GrpcExceptionHandler.defaultMapper(system)(e)
  }
}
