package io.wirebench.stack.grpc;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor a grpc-java server of wirebench runs its handlers on when no option says
 * otherwise: a work-stealing ForkJoinPool in async (FIFO) mode with one thread per CPU the
 * JVM may use (Runtime.availableProcessors(), which the driver's
 * -XX:ActiveProcessorCount sets to the worker's CPUs). grpc-java's ServerBuilder.executor
 * documents that without one it uses "a static cached thread pool" and that "users are
 * encouraged to specify their own executor that limits the number of threads"; grpc.io's
 * performance guide lists cached, fixed and fork-join pools for Java; grpc-java's own
 * benchmark server (benchmarks/.../driver/LoadServer.java, its async server) and
 * grpc_bench's Java server (Executors.newWorkStealingPool(CPUs)) both run this pool.
 * docs/java-worker.md, "How each stack is set up", has the sources.
 */
final class ServerExecutors {
  private ServerExecutors() {}

  /** A new pool; the server does not own it, so whoever starts the server shuts it down. */
  static ForkJoinPool production() {
    AtomicInteger n = new AtomicInteger();
    ForkJoinPool.ForkJoinWorkerThreadFactory threads = pool -> {
      ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
      t.setDaemon(true);
      t.setName("wirebench-grpc-server-" + n.getAndIncrement());
      return t;
    };
    return new ForkJoinPool(Runtime.getRuntime().availableProcessors(), threads, null, true);
  }
}
