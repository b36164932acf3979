package io.wirebench.stack.grpc;

import io.grpc.CallOptions;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Channel life cycle shared by the gRPC clients. */
final class Channels {
  private Channels() {}

  /** How long connect waits for the connection (the Go clients wait 10 s too). */
  static final long CONNECT_TIMEOUT_MS = 10_000;

  /**
   * Connects ch and waits until it is READY, so a dead or non-gRPC target fails here
   * with UNAVAILABLE rather than on the first call.
   */
  static void awaitReady(ManagedChannel ch, String target) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONNECT_TIMEOUT_MS);
    ConnectivityState st = ch.getState(true);
    while (st != ConnectivityState.READY) {
      if (st == ConnectivityState.TRANSIENT_FAILURE || st == ConnectivityState.SHUTDOWN) {
        throw Status.UNAVAILABLE.withDescription("cannot connect to " + target + " (" + st + why(ch) + ")").asRuntimeException();
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw Status.UNAVAILABLE.withDescription("no connection to " + target + " within " + CONNECT_TIMEOUT_MS + " ms").asRuntimeException();
      }
      CountDownLatch changed = new CountDownLatch(1);
      ch.notifyWhenStateChanged(st, changed::countDown);
      changed.await(left, TimeUnit.NANOSECONDS);
      st = ch.getState(true);
    }
  }

  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] b) {
      return new ByteArrayInputStream(b);
    }

    @Override
    public byte[] parse(InputStream in) {
      try {
        return in.readAllBytes();
      } catch (IOException e) {
        throw Status.INTERNAL.withCause(e).asRuntimeException();
      }
    }
  };

  /**
   * Why a channel in TRANSIENT_FAILURE failed to connect (a refused connection, a TLS
   * certificate not trusted, ...): the channel's state does not say, a call's status
   * does. The call fails before it is sent, so no method needs to exist.
   */
  private static String why(ManagedChannel ch) {
    MethodDescriptor<byte[], byte[]> m = MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName("wirebench.v1.PersonService/Stats")
        .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
    try {
      ClientCalls.blockingUnaryCall(ch, m, CallOptions.DEFAULT.withDeadlineAfter(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS), new byte[0]);
      return "";
    } catch (StatusRuntimeException e) {
      StringBuilder b = new StringBuilder(": ").append(e.getStatus().getCode());
      if (e.getStatus().getDescription() != null) {
        b.append(": ").append(e.getStatus().getDescription());
      }
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
        b.append(": ").append(c.getMessage() != null ? c.getMessage() : c.getClass().getSimpleName());
      }
      return b.toString();
    }
  }

  static void close(ManagedChannel ch) {
    ch.shutdownNow();
    try {
      ch.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
