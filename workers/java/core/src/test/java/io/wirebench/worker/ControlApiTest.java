package io.wirebench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.wirebench.control.v1.Benchmark;
import io.wirebench.control.v1.ClientArgs;
import io.wirebench.control.v1.ClientSetup;
import io.wirebench.control.v1.ClientStatus;
import io.wirebench.control.v1.InfoReply;
import io.wirebench.control.v1.InfoRequest;
import io.wirebench.control.v1.Interval;
import io.wirebench.control.v1.LoadModel;
import io.wirebench.control.v1.Mark;
import io.wirebench.control.v1.Phase;
import io.wirebench.control.v1.QuitRequest;
import io.wirebench.control.v1.ServerArgs;
import io.wirebench.control.v1.ServerSetup;
import io.wirebench.control.v1.ServerStatus;
import io.wirebench.control.v1.WorkerGrpc;
import io.wirebench.engine.Histograms;
import com.google.protobuf.ByteString;
import io.wirebench.stack.Address;
import io.wirebench.stack.TestCerts;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The control API end to end inside one JVM, as the Go driver will use it. */
class ControlApiTest {
  private static WorkerService svc;
  private static Server control;
  private static ManagedChannel channel;
  private static WorkerGrpc.WorkerStub stub;
  /** This process's CPU, read by the tests themselves, not through the worker's ProcInfo. */
  private static final com.sun.management.OperatingSystemMXBean PROCESS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  @BeforeAll
  static void start() throws Exception {
    svc = new WorkerService("test");
    control = ControlServer.start(Address.tcp("127.0.0.1", 0), svc);
    channel = NettyChannelBuilder.forAddress(ControlServer.bound(control, Address.tcp("127.0.0.1", 0)).inet()).usePlaintext().build();
    stub = WorkerGrpc.newStub(channel);
  }

  @AfterAll
  static void stop() {
    channel.shutdownNow();
    control.shutdownNow();
  }

  /** Collects what a stream answers. */
  static final class Inbox<T> implements StreamObserver<T> {
    final LinkedBlockingQueue<Object> q = new LinkedBlockingQueue<>();
    static final Object DONE = new Object();

    @Override
    public void onNext(T v) {
      q.add(v);
    }

    @Override
    public void onError(Throwable t) {
      q.add(t);
    }

    @Override
    public void onCompleted() {
      q.add(DONE);
    }

    @SuppressWarnings("unchecked")
    T next() throws Exception {
      Object o = q.poll(60, TimeUnit.SECONDS);
      if (o instanceof Throwable t) {
        throw new AssertionError("stream failed: " + t, t);
      }
      assertNotNull(o, "no answer within 60 s");
      assertFalse(o == DONE, "stream ended");
      return (T) o;
    }

    Status error() throws Exception {
      Object o = q.poll(60, TimeUnit.SECONDS);
      assertTrue(o instanceof StatusRuntimeException, "want a failed stream, got " + o);
      return ((StatusRuntimeException) o).getStatus();
    }
  }

  private static Benchmark.Builder bench(String protocol, String server, String client) {
    return Benchmark.newBuilder().setName("test").setProtocol(protocol).setServerStack(server).setClientStack(client)
        .setTransport("tcp").setWorkload("person.get").setDataSeed(1).setDataSize(20);
  }

  @Test
  void infoListsTheStacks() {
    InfoReply r = WorkerGrpc.newBlockingStub(channel).info(InfoRequest.getDefaultInstance());
    assertTrue(r.getStacksList().containsAll(java.util.List.of("http-json/jetty-jackson", "http-json/java-httpclient",
        "grpc-proto/grpc-java-netty", "grpc-proto/grpc-java-okhttp", "grpc-avro/grpc-java-avro")), r.getStacksList().toString());
    assertTrue(r.getRuntime().contains("17"), r.getRuntime());
    assertTrue(r.getCpus() >= 1 && r.getPid() > 0 && r.getHost().getCores() >= r.getCpus());
  }

  /** RunServer, then RunClient: Ready, a warmup and three measured phases, closed and then open. */
  @Test
  void serverAndClientRunPhases() throws Exception {
    for (String model : new String[] {"closed", "open"}) {
      Benchmark.Builder b = bench("grpc-proto", "grpc-java-netty", "grpc-java-okhttp").setWorkload("echo").setPayload(64);
      if (model.equals("closed")) {
        b.setLoad(LoadModel.newBuilder().setKind("closed").setConcurrency(4).setConnections(2));
      } else {
        b.setLoad(LoadModel.newBuilder().setKind("open").setConcurrency(8).setRate(500).setArrival("poisson"));
      }
      Inbox<ServerStatus> sin = new Inbox<>();
      StreamObserver<ServerArgs> sout = stub.runServer(sin);
      sout.onNext(ServerArgs.newBuilder().setSetup(ServerSetup.newBuilder().setBenchmark(b).setListen("tcp://127.0.0.1:0")).build());
      ServerStatus st = sin.next();
      assertTrue(st.getAddress().startsWith("tcp://127.0.0.1:"), st.getAddress());
      assertTrue(st.getProc().getCpuNanos() > 0 && st.getProc().getRssBytes() > 0);

      Inbox<ClientStatus> cin = new Inbox<>();
      StreamObserver<ClientArgs> cout = stub.runClient(cin);
      cout.onNext(ClientArgs.newBuilder().setSetup(ClientSetup.newBuilder().setBenchmark(b).setAddress(st.getAddress())
          .setShareCount(1)).build());
      ClientStatus ready = cin.next();
      assertTrue(ready.hasReady(), ready.toString());
      cout.onNext(ClientArgs.newBuilder().setPhase(Phase.newBuilder().setKind("warmup").setIndex(0).setDurationNanos(200_000_000)).build());
      Interval w = cin.next().getInterval();
      assertEquals("warmup", w.getPhase());
      for (int i = 0; i < 3; i++) {
        Phase.Builder p = Phase.newBuilder().setKind("measure").setIndex(i);
        if (model.equals("closed")) {
          p.setOps(300);
        } else {
          p.setOps(100).setRestartSchedule(i == 2);
        }
        cout.onNext(ClientArgs.newBuilder().setPhase(p).build());
        Interval iv = cin.next().getInterval();
        assertEquals("measure", iv.getPhase());
        assertEquals(i, iv.getIndex());
        assertEquals(model.equals("closed") ? 300 : 100, iv.getOps(), iv.getFirstErrorsMap().toString());
        assertEquals(0, iv.getErrorsCount(), iv.getFirstErrorsMap().toString());
        Histogram resp = Histograms.decode(iv.getResponseHistogram());
        Histogram service = Histograms.decode(iv.getServiceHistogram());
        assertEquals(iv.getOps(), resp.getTotalCount());
        assertEquals(iv.getOps(), service.getTotalCount());
        if (model.equals("open")) {
          assertEquals(iv.getOps(), Histograms.decode(iv.getLagHistogram()).getTotalCount());
        } else {
          assertEquals("", iv.getLagHistogram());
        }
        assertTrue(resp.getMinValue() > 0 && resp.getMaxValue() < 60_000_000_000L);
        assertTrue(iv.getEndUnixNanos() > iv.getStartUnixNanos());
        // Each echo carries 64 bytes each way, plus framing.
        assertTrue(iv.getBytesSent() >= 64 * iv.getOps() && iv.getBytesReceived() >= 64 * iv.getOps(),
            iv.getBytesSent() + " bytes sent for " + iv.getOps() + " ops");
        assertTrue(iv.getCpuNanos() > 0 && iv.getProc().getPeakRssBytes() >= iv.getProc().getRssBytes());
      }
      cout.onCompleted();
      assertEquals(Inbox.DONE, cin.q.poll(30, TimeUnit.SECONDS));
      sout.onNext(ServerArgs.newBuilder().setMark(Mark.getDefaultInstance()).build());
      assertTrue(sin.next().getProc().getCpuNanos() > 0);
      sout.onCompleted();
      assertEquals(Inbox.DONE, sin.q.poll(30, TimeUnit.SECONDS));
    }
  }

  /**
   * A phase's CPU is the process's CPU while that phase ran, as the Go worker reports
   * it, and nothing from before it. Between two phases this test's thread burns 300 ms
   * of CPU in the same process, as a JVM's compiler threads do between the slices of an
   * interleaved round while other targets run. Process CPU read here just before the
   * phase is asked for and just after its interval arrives bounds what the worker may
   * report (the worker's own readings lie between those two, and the process CPU clock
   * never goes back); a phase's CPU that counts from the previous phase's end holds the
   * burn and exceeds that bound.
   */
  @Test
  void phaseCpuCountsThePhaseAlone() throws Exception {
    Benchmark.Builder b = bench("grpc-proto", "grpc-java-netty", "grpc-java-netty").setWorkload("echo").setPayload(16)
        .setLoad(LoadModel.newBuilder().setKind("closed").setConcurrency(1).setConnections(1));
    Inbox<ServerStatus> sin = new Inbox<>();
    StreamObserver<ServerArgs> sout = stub.runServer(sin);
    sout.onNext(ServerArgs.newBuilder().setSetup(ServerSetup.newBuilder().setBenchmark(b).setListen("tcp://127.0.0.1:0")).build());
    String address = sin.next().getAddress();
    Inbox<ClientStatus> cin = new Inbox<>();
    StreamObserver<ClientArgs> cout = stub.runClient(cin);
    cout.onNext(ClientArgs.newBuilder().setSetup(ClientSetup.newBuilder().setBenchmark(b).setAddress(address).setShareCount(1)).build());
    assertTrue(cin.next().hasReady());
    cout.onNext(ClientArgs.newBuilder().setPhase(Phase.newBuilder().setKind("warmup").setIndex(0).setOps(50)).build());
    assertEquals(50, cin.next().getInterval().getOps());

    long burnt = burnCpu(300_000_000L);
    long before = PROCESS.getProcessCpuTime();
    cout.onNext(ClientArgs.newBuilder().setPhase(Phase.newBuilder().setKind("measure").setIndex(0).setOps(10)).build());
    Interval iv = cin.next().getInterval();
    long after = PROCESS.getProcessCpuTime();
    assertEquals(10, iv.getOps());
    assertTrue(iv.getCpuNanos() >= 0 && iv.getCpuNanos() <= after - before, "the phase's CPU " + iv.getCpuNanos() / 1000
        + " µs is over the " + (after - before) / 1000 + " µs the process used from asking for it to its answer ("
        + burnt / 1000 + " µs burnt just before it)");
    cout.onCompleted();
    assertEquals(Inbox.DONE, cin.q.poll(30, TimeUnit.SECONDS));
    sout.onCompleted();
    assertEquals(Inbox.DONE, sin.q.poll(30, TimeUnit.SECONDS));
  }

  /** Spins on this thread until it has used at least nanos of CPU; returns what it used. */
  private static long burnCpu(long nanos) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long start = threads.getCurrentThreadCpuTime();
    long x = 1;
    long used;
    while ((used = threads.getCurrentThreadCpuTime() - start) < nanos) {
      for (int i = 0; i < 100_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
    }
    assertTrue(x != 0 || used > 0); // keeps the loop's work observable
    return used;
  }

  private static Status clientSetupError(Benchmark.Builder b, String target) throws Exception {
    Inbox<ClientStatus> cin = new Inbox<>();
    StreamObserver<ClientArgs> cout = stub.runClient(cin);
    cout.onNext(ClientArgs.newBuilder().setSetup(ClientSetup.newBuilder().setBenchmark(b).setAddress(target)).build());
    Status s = cin.error();
    cout.onCompleted();
    return s;
  }

  private static Status serverSetupError(Benchmark.Builder b, String listen) throws Exception {
    Inbox<ServerStatus> sin = new Inbox<>();
    StreamObserver<ServerArgs> sout = stub.runServer(sin);
    sout.onNext(ServerArgs.newBuilder().setSetup(ServerSetup.newBuilder().setBenchmark(b).setListen(listen)).build());
    Status s = sin.error();
    sout.onCompleted();
    return s;
  }

  @Test
  void badSetupsAreInvalidArguments() throws Exception {
    LoadModel closed = LoadModel.newBuilder().setKind("closed").setConcurrency(1).build();
    Status s = clientSetupError(bench("grpc-proto", "", "grpc-go").setLoad(closed), "tcp://127.0.0.1:1");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("grpc-java-netty, grpc-java-okhttp"), s.getDescription());

    s = clientSetupError(bench("grpc-proto", "", "grpc-java-netty").setLoad(closed).putClientOptions("window", "1MiB"),
        "tcp://127.0.0.1:1");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("known: direct_executor, flow_window, compressors"), s.getDescription());

    s = clientSetupError(bench("grpc-proto", "", "grpc-java-okhttp").setLoad(closed), "unix:///tmp/none.sock");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("grpc-java-okhttp does not support unix sockets"), s.getDescription());

    s = clientSetupError(bench("grpc-proto", "", "grpc-java-netty").setLoad(closed).setWorkload("person.fly"), "tcp://127.0.0.1:1");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("person.get"), s.getDescription());

    s = serverSetupError(bench("http-json", "undertow", ""), "tcp://127.0.0.1:0");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("jetty-jackson"), s.getDescription());

    s = serverSetupError(bench("http-json", "jetty-jackson", "").putServerOptions("threads", "8"), "tcp://127.0.0.1:0");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains(
        "jetty-jackson: unknown option \"threads\" (known: max_threads, min_threads, thread_idle_timeout, output_buffer_size)"),
        s.getDescription());

    // A bad value of a known option: refused by the worker before the server starts, saying what is wanted.
    s = serverSetupError(bench("http-json", "jetty-jackson", "").putServerOptions("thread_idle_timeout", "120"), "tcp://127.0.0.1:0");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains(
        "jetty-jackson: option thread_idle_timeout: want a duration such as 120ms, 60s or 1m30s, got \"120\""), s.getDescription());
  }

  /** The tls transport end to end: the server takes the setup's certificate, the client its CA, and calls succeed. */
  @Test
  void tlsRunsWithTheSetupsCertificate() throws Exception {
    Benchmark.Builder b = bench("http-json", "jetty-jackson", "java-httpclient").setTransport("tls")
        .setLoad(LoadModel.newBuilder().setKind("closed").setConcurrency(2).setConnections(1));
    Inbox<ServerStatus> sin = new Inbox<>();
    StreamObserver<ServerArgs> sout = stub.runServer(sin);
    sout.onNext(ServerArgs.newBuilder().setSetup(ServerSetup.newBuilder().setBenchmark(b).setListen("tcp://127.0.0.1:0")
        .setTlsCertPem(ByteString.copyFrom(TestCerts.read("server.pem"))).setTlsKeyPem(ByteString.copyFrom(TestCerts.read("server.key")))).build());
    String addr = sin.next().getAddress();

    Inbox<ClientStatus> cin = new Inbox<>();
    StreamObserver<ClientArgs> cout = stub.runClient(cin);
    cout.onNext(ClientArgs.newBuilder().setSetup(ClientSetup.newBuilder().setBenchmark(b).setAddress(addr).setShareCount(1)
        .setTlsCaPem(ByteString.copyFrom(TestCerts.read("trusted-ca.pem")))).build());
    assertTrue(cin.next().hasReady());
    cout.onNext(ClientArgs.newBuilder().setPhase(Phase.newBuilder().setKind("measure").setIndex(0).setOps(50)).build());
    Interval iv = cin.next().getInterval();
    assertEquals(50, iv.getOps());
    assertEquals(0, iv.getErrorsCount(), iv.getFirstErrorsMap().toString());
    cout.onCompleted();
    assertEquals(Inbox.DONE, cin.q.poll(30, TimeUnit.SECONDS));

    // A client trusting another CA is refused at its setup, saying why.
    LoadModel closed = LoadModel.newBuilder().setKind("closed").setConcurrency(1).build();
    for (String client : new String[] {"java-httpclient"}) { // the gRPC clients: StackPairsTest.untrustedCertificateFails
      Inbox<ClientStatus> bin = new Inbox<>();
      StreamObserver<ClientArgs> bout = stub.runClient(bin);
      bout.onNext(ClientArgs.newBuilder().setSetup(ClientSetup.newBuilder().setBenchmark(b.clone().setClientStack(client).setLoad(closed))
          .setAddress(addr).setShareCount(1).setTlsCaPem(ByteString.copyFrom(TestCerts.read("other-ca.pem")))).build());
      Status st = bin.error();
      assertTrue(st.getDescription() != null && st.getDescription().contains("PKIX"), client + ": " + st);
      bout.onCompleted();
    }
    sout.onCompleted();
    assertEquals(Inbox.DONE, sin.q.poll(30, TimeUnit.SECONDS));
  }

  /** The tls transport and its material go together, on both sides. */
  @Test
  void tlsSetupsAreChecked() throws Exception {
    LoadModel closed = LoadModel.newBuilder().setKind("closed").setConcurrency(1).build();
    Status s = serverSetupError(bench("grpc-proto", "grpc-java-netty", "").setTransport("tls"), "tcp://127.0.0.1:0");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("the tls transport needs one"), s.getDescription());

    Inbox<ServerStatus> sin = new Inbox<>();
    StreamObserver<ServerArgs> sout = stub.runServer(sin);
    sout.onNext(ServerArgs.newBuilder().setSetup(ServerSetup.newBuilder().setBenchmark(bench("grpc-proto", "grpc-java-netty", ""))
        .setListen("tcp://127.0.0.1:0").setTlsCertPem(ByteString.copyFrom(TestCerts.read("server.pem")))
        .setTlsKeyPem(ByteString.copyFrom(TestCerts.read("server.key")))).build());
    s = sin.error();
    sout.onCompleted();
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("transport tcp with a TLS certificate"), s.getDescription());

    s = clientSetupError(bench("grpc-proto", "", "grpc-java-netty").setTransport("tls").setLoad(closed), "tcp://127.0.0.1:1");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("the tls transport needs one"), s.getDescription());

    // A side that does not speak TLS is refused by name, before it starts.
    Inbox<ServerStatus> oin = new Inbox<>();
    StreamObserver<ServerArgs> oout = stub.runServer(oin);
    oout.onNext(ServerArgs.newBuilder().setSetup(ServerSetup.newBuilder().setBenchmark(bench("grpc-proto", "grpc-java-okhttp", "")
        .setTransport("tls")).setListen("tcp://127.0.0.1:0").setTlsCertPem(ByteString.copyFrom(TestCerts.read("server.pem")))
        .setTlsKeyPem(ByteString.copyFrom(TestCerts.read("server.key")))).build());
    s = oin.error();
    oout.onCompleted();
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("the grpc-java-okhttp server stack of grpc-proto does not speak TLS")
        && s.getDescription().contains("grpc-java-netty"), s.getDescription());

    s = serverSetupError(bench("grpc-proto", "grpc-java-netty", "").setTransport("quic"), "tcp://127.0.0.1:0");
    assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
    assertTrue(s.getDescription().contains("HTTP/3"), s.getDescription());
  }

  @Test
  void nothingListeningIsUnavailable() throws Exception {
    LoadModel closed = LoadModel.newBuilder().setKind("closed").setConcurrency(1).build();
    java.net.ServerSocket ss = new java.net.ServerSocket(0);
    int port = ss.getLocalPort();
    ss.close(); // a port nobody listens on
    for (String[] c : new String[][] {{"grpc-proto", "grpc-java-netty"}, {"http-json", "java-httpclient"}}) {
      Status s = clientSetupError(bench(c[0], "", c[1]).setLoad(closed), "tcp://127.0.0.1:" + port);
      assertEquals(Status.Code.UNAVAILABLE, s.getCode(), c[1] + ": " + s);
    }
  }

  @Test
  void quitIsAnswered() {
    // Another service instance: quitting the shared one would end the other tests' worker.
    WorkerService w = new WorkerService("t");
    Inbox<io.wirebench.control.v1.QuitReply> in = new Inbox<>();
    w.quit(QuitRequest.getDefaultInstance(), in);
    assertEquals(0, w.quitLatch().getCount());
    assertEquals(2, in.q.size()); // the reply, then the end of the call
  }
}
