package io.wirebench.stack.grpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.wirebench.contract.Code;
import io.wirebench.contract.ContractException;
import java.util.Map;

/**
 * The contract's codes as gRPC statuses (internal/grpcx/status.go): not_found is
 * NOT_FOUND, invalid_argument INVALID_ARGUMENT, resource_exhausted RESOURCE_EXHAUSTED,
 * internal INTERNAL; any other status is a failure of the call, not a refusal.
 */
final class GrpcErrors {
  private GrpcErrors() {}

  private static final Map<Code, Status.Code> TO_GRPC = Map.of(
      Code.NOT_FOUND, Status.Code.NOT_FOUND,
      Code.INVALID_ARGUMENT, Status.Code.INVALID_ARGUMENT,
      Code.RESOURCE_EXHAUSTED, Status.Code.RESOURCE_EXHAUSTED,
      Code.INTERNAL, Status.Code.INTERNAL);
  private static final Map<Status.Code, Code> FROM_GRPC = Map.of(
      Status.Code.NOT_FOUND, Code.NOT_FOUND,
      Status.Code.INVALID_ARGUMENT, Code.INVALID_ARGUMENT,
      Status.Code.RESOURCE_EXHAUSTED, Code.RESOURCE_EXHAUSTED,
      Status.Code.INTERNAL, Code.INTERNAL);

  /** What a handler answers for a failure of the service: its contract status, else INTERNAL. */
  static StatusRuntimeException toStatus(Throwable t) {
    if (t instanceof ContractException ce) {
      return Status.fromCode(TO_GRPC.get(ce.code())).withDescription(ce.getMessage()).asRuntimeException();
    }
    if (t instanceof StatusRuntimeException sre) {
      return sre;
    }
    return Status.INTERNAL.withDescription(String.valueOf(t)).withCause(t).asRuntimeException();
  }

  /**
   * What a client throws for a failed call: a contract status becomes a ContractException;
   * others stay. grpc-java reports a compressed answer over the client's limit as
   * CANCELLED caused by a RESOURCE_EXHAUSTED status (it finds out while decompressing):
   * that is the client's refusal, resource_exhausted.
   */
  static Exception fromStatus(StatusRuntimeException e) {
    if (e.getStatus().getCode() == Status.Code.CANCELLED && e.getStatus().getCause() instanceof StatusRuntimeException cause
        && cause.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED) {
      return fromStatus(cause);
    }
    Code c = FROM_GRPC.get(e.getStatus().getCode());
    if (c != null) {
      String d = e.getStatus().getDescription();
      return new ContractException(c, d == null ? e.getStatus().getCode().name() : d);
    }
    return e;
  }
}
