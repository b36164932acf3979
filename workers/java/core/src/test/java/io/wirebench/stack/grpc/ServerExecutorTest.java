package io.wirebench.stack.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.wirebench.stack.Address;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import wirebench.v1.PersonServiceGrpc;
import wirebench.v1.Wirebench;

/**
 * Which thread runs a grpc-java server's handlers: the production pool when no option is
 * given, the transport's thread with direct_executor=true, grpc-java's own default (its
 * cached pool, whose threads it names grpc-default-executor-N) with direct_executor=false,
 * as the original REST-vs-gRPC sweep's servers had.
 */
class ServerExecutorTest {
  /** A PersonService whose GetPerson records the thread it runs on. */
  private static final class Recording extends PersonServiceGrpc.PersonServiceImplBase {
    final AtomicReference<Thread> thread = new AtomicReference<>();

    @Override
    public void getPerson(Wirebench.PersonId req, StreamObserver<Wirebench.Person> out) {
      thread.set(Thread.currentThread());
      out.onNext(Wirebench.Person.newBuilder().setId(req.getId()).build());
      out.onCompleted();
    }
  }

  private static Thread handlerThread(boolean okhttp, Map<String, String> options) throws Exception {
    GrpcSettings s = GrpcSettings.parse("grpc-java-netty", options);
    ForkJoinPool pool = s.productionServerExecutor() ? ServerExecutors.production() : null;
    Recording svc = new Recording();
    Address listen = Address.tcp("127.0.0.1", 0);
    Server server = okhttp
        ? OkHttpTransport.server(listen, 1 << 20, s, List.of(svc), List.of(), false, pool)
        : NettyTransport.server(listen, 1 << 20, s, List.of(svc), List.of(), false, null, pool);
    Address bound = okhttp ? OkHttpTransport.boundAddress(server) : NettyTransport.boundAddress(server, listen);
    ManagedChannel ch = ManagedChannelBuilder.forAddress("127.0.0.1", bound.inet().getPort()).usePlaintext().build();
    try {
      Wirebench.Person p = PersonServiceGrpc.newBlockingStub(ch).getPerson(Wirebench.PersonId.newBuilder().setId(7).build());
      assertEquals(7, p.getId());
      return svc.thread.get();
    } finally {
      ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void optionsChooseTheExecutor() {
    assertTrue(GrpcSettings.parse("grpc-java-netty", Map.of()).productionServerExecutor());
    GrpcSettings direct = GrpcSettings.parse("grpc-java-netty", Map.of("direct_executor", "true"));
    assertTrue(direct.directExecutor());
    assertFalse(direct.productionServerExecutor());
    GrpcSettings pool = GrpcSettings.parse("grpc-java-netty", Map.of("direct_executor", "false"));
    assertFalse(pool.directExecutor());
    assertFalse(pool.productionServerExecutor());
  }

  @Test
  void productionPoolHasOneThreadPerCpu() {
    ForkJoinPool pool = ServerExecutors.production();
    try {
      assertEquals(Runtime.getRuntime().availableProcessors(), pool.getParallelism());
      assertTrue(pool.getAsyncMode(), "FIFO (async) mode, as Executors.newWorkStealingPool makes it");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void nettyServerRunsHandlersOnTheProductionPool() throws Exception {
    Thread t = handlerThread(false, Map.of());
    assertInstanceOf(ForkJoinWorkerThread.class, t);
    assertTrue(t.getName().startsWith("wirebench-grpc-server-"), t.getName());
  }

  @Test
  void okHttpServerRunsHandlersOnTheProductionPool() throws Exception {
    Thread t = handlerThread(true, Map.of());
    assertInstanceOf(ForkJoinWorkerThread.class, t);
  }

  @Test
  void directExecutorRunsHandlersOnTheTransportThread() throws Exception {
    Thread t = handlerThread(false, Map.of("direct_executor", "true"));
    assertFalse(t instanceof ForkJoinWorkerThread, t.getName());
    assertFalse(t.getName().startsWith("grpc-default-executor"), t.getName());
    // grpc-netty-shaded's event loop threads are Netty's FastThreadLocalThreads.
    assertTrue(t.getClass().getName().endsWith(".netty.util.concurrent.FastThreadLocalThread"), t.getClass().getName());
  }

  @Test
  void directExecutorFalseKeepsGrpcJavasDefaultPool() throws Exception {
    Thread t = handlerThread(false, Map.of("direct_executor", "false"));
    assertTrue(t.getName().startsWith("grpc-default-executor"), t.getName());
  }
}
