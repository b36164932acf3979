package io.wirebench.stack.grpc;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Status;
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
        throw Status.UNAVAILABLE.withDescription("cannot connect to " + target + " (" + st + ")").asRuntimeException();
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

  static void close(ManagedChannel ch) {
    ch.shutdownNow();
    try {
      ch.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
