package io.wirebench.worker;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.wirebench.contract.Dataset;
import io.wirebench.contract.Workload;
import io.wirebench.contract.Workloads;
import io.wirebench.control.v1.Benchmark;
import io.wirebench.control.v1.ClientArgs;
import io.wirebench.control.v1.ClientSetup;
import io.wirebench.control.v1.ClientStatus;
import io.wirebench.control.v1.Interval;
import io.wirebench.control.v1.LoadModel;
import io.wirebench.control.v1.Phase;
import io.wirebench.control.v1.ProcStats;
import io.wirebench.control.v1.Ready;
import io.wirebench.engine.ErrorKinds;
import io.wirebench.engine.Histograms;
import io.wirebench.engine.PhaseSpec;
import io.wirebench.engine.Session;
import io.wirebench.stack.Address;
import io.wirebench.stack.ByteCounter;
import io.wirebench.stack.Stack;
import io.wirebench.stack.Stacks;
import io.wirebench.stack.Tls;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One RunClient stream. Its messages are handled in order on a thread of its own (a
 * phase blocks for its whole length, and grpc-java must stay free to deliver the
 * stream's cancellation): the setup connects the clients, checks the target against
 * the contract and answers Ready; each Phase runs one phase of the session and answers
 * its Interval. The stream's end, or its cancellation, stops the session (calls in
 * flight are cancelled) and closes the clients. A setup with a link connects the clients
 * through a {@code wirebench link} proxy (LinkProc) and reports the proxy's CPU per
 * phase, as the Go worker does.
 */
final class ClientRun implements StreamObserver<ClientArgs> {
  /** Each op of the contract check may take this long (a cold server is slow), or the call timeout if longer. */
  static final long CHECK_TIMEOUT_NANOS = 30_000_000_000L;

  private static final Object END = new Object();

  private final StreamObserver<ClientStatus> out;
  private final ScheduledExecutorService timer;
  /** The wirebench executable that runs link proxies; null: this worker cannot. */
  private final Path linkBinary;
  private final LinkedBlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean cancelled;
  private volatile Session session;

  // The run thread's state.
  private final List<Stack.Client> clients = new ArrayList<>();
  private Stack stack;
  private ByteCounter counter;
  private LinkProc link;
  private long lastSent;
  private long lastReceived;
  private boolean failed;

  ClientRun(StreamObserver<ClientStatus> out, ScheduledExecutorService timer, Path linkBinary) {
    this.out = out;
    this.timer = timer;
    this.linkBinary = linkBinary;
    this.thread = new Thread(this::loop, "wirebench-client-run");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  @Override
  public void onNext(ClientArgs a) {
    inbox.add(a);
  }

  @Override
  public void onError(Throwable t) {
    // The driver cancelled the stream or went away: stop at once.
    cancelled = true;
    Session s = session;
    if (s != null) {
      s.stop();
    }
    thread.interrupt();
    inbox.add(END);
  }

  @Override
  public void onCompleted() {
    inbox.add(END);
  }

  private void loop() {
    try {
      while (true) {
        Object m;
        try {
          m = inbox.take();
        } catch (InterruptedException e) {
          if (cancelled) {
            return;
          }
          continue;
        }
        if (m == END) {
          if (!failed && !cancelled) {
            out.onCompleted();
          }
          return;
        }
        if (failed || cancelled) {
          continue; // the stream has failed: later messages have no one to answer
        }
        ClientArgs a = (ClientArgs) m;
        try {
          if (stack == null) {
            if (!a.hasSetup()) {
              throw Status.INVALID_ARGUMENT.withDescription("RunClient: the first message must be a setup").asRuntimeException();
            }
            setup(a.getSetup());
          } else if (a.hasPhase()) {
            phase(a.getPhase());
          } else {
            throw Status.INVALID_ARGUMENT.withDescription("RunClient: after the setup, want phases").asRuntimeException();
          }
        } catch (StatusRuntimeException e) {
          failed = true;
          if (!cancelled) {
            out.onError(e);
          }
        } catch (Session.StoppedException e) {
          return;
        } catch (RuntimeException e) {
          failed = true;
          if (!cancelled) {
            out.onError(Status.INTERNAL.withDescription(e.toString()).withCause(e).asRuntimeException());
          }
        }
      }
    } finally {
      Session s = session;
      if (s != null) {
        s.close();
      }
      for (Stack.Client c : clients) {
        c.close();
      }
      if (link != null) {
        link.close();
      }
    }
  }

  private static StatusRuntimeException invalid(String msg) {
    return Status.INVALID_ARGUMENT.withDescription(msg).asRuntimeException();
  }

  private void setup(ClientSetup setup) throws Session.StoppedException {
    Benchmark b = setup.getBenchmark();
    Stack st;
    Address target;
    Dataset ds;
    Workload op;
    io.wirebench.engine.LoadModel model;
    int limit;
    Tls.Client tls;
    try {
      Setups.checkTransport(b);
      st = Stacks.lookup(b.getProtocol(), b.getClientStack(), false);
      Setups.checkTradeShape(b, st, false);
      tls = Setups.clientTls(b, setup, st);
      target = Address.parse(setup.getAddress());
      ds = Dataset.of(b.getDataSeed(), b.getDataSize());
      op = Workloads.build(b.getWorkload(), new Workloads.Params((int) Math.min(Math.max(b.getPayload(), -1), Integer.MAX_VALUE),
          (int) Math.min(Math.max(b.getIncrements(), -1), Integer.MAX_VALUE), b.getTrades(), b.getTrade()), ds);
      LoadModel lm = b.getLoad();
      model = io.wirebench.engine.LoadModel.normalize(lm.getKind(), lm.getConcurrency(), lm.getConnections(), lm.getRate(),
          lm.getArrival()).share(setup.getShareIndex(), setup.getShareCount());
      limit = Setups.messageLimit(b);
      if (b.getCallTimeoutNanos() < 0) {
        throw new IllegalArgumentException("call_timeout_nanos " + b.getCallTimeoutNanos() + ": want 0 (none) or more");
      }
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    if (setup.hasLink()) {
      if (linkBinary == null) {
        throw invalid("this worker cannot put a client behind a link: it was started without --wirebench");
      }
      try {
        link = LinkProc.start(linkBinary, target, setup.getLink());
      } catch (IllegalArgumentException | IOException e) {
        throw invalid(e.getMessage());
      } catch (InterruptedException e) {
        throw new Session.StoppedException();
      }
      target = link.address();
    }
    stack = st;
    counter = new ByteCounter();
    Stack.ClientConfig cfg = new Stack.ClientConfig(target, limit, b.getClientOptionsMap(), counter, tls);
    for (int i = 0; i < model.connections(); i++) {
      try {
        clients.add(st.connect(cfg));
      } catch (IllegalArgumentException e) {
        throw invalid(e.getMessage());
      } catch (Exception e) {
        if (cancelled) {
          throw new Session.StoppedException();
        }
        throw Status.UNAVAILABLE.withDescription("connecting to " + target + " over " + b.getProtocol() + " with "
            + st.name() + ": " + e).asRuntimeException();
      }
    }
    check(op, Math.max(CHECK_TIMEOUT_NANOS, b.getCallTimeoutNanos()));
    long stride = Math.max(1, setup.getShareCount());
    session = new Session(new Session.Config(op, clients, model, b.getCallTimeoutNanos(), b.getArrivalSeed(),
        setup.getShareIndex(), stride));
    if (cancelled) {
      session.stop();
      throw new Session.StoppedException();
    }
    ProcStats p = ProcInfo.read();
    lastSent = counter.sent();
    lastReceived = counter.received();
    out.onNext(ClientStatus.newBuilder().setReady(Ready.newBuilder().setProc(p)).build());
  }

  /**
   * Runs the op once on every connection with its answers verified, so a target that
   * does less than the contract asks fails before anything is measured: UNAVAILABLE when
   * it could not be reached, FAILED_PRECONDITION for any other failure.
   */
  /** Whether t, or a cause of it, is a TLS failure (a certificate not trusted, no common protocol, ...). */
  private static boolean tlsFailure(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof javax.net.ssl.SSLException) {
        return true;
      }
    }
    return false;
  }

  private void check(Workload op, long timeoutNanos) throws Session.StoppedException {
    for (int i = 0; i < clients.size(); i++) {
      Thread self = Thread.currentThread();
      ScheduledFuture<?> alarm = timer.schedule(self::interrupt, timeoutNanos, TimeUnit.NANOSECONDS);
      Throwable err = null;
      try {
        op.run(clients.get(i), i);
      } catch (Throwable t) {
        err = t;
      } finally {
        alarm.cancel(false);
      }
      boolean timedOut = alarm.isDone() && !alarm.isCancelled();
      Thread.interrupted();
      if (cancelled) {
        throw new Session.StoppedException();
      }
      if (timedOut) {
        throw Status.FAILED_PRECONDITION.withDescription("the target failed the contract check (connection " + (i + 1)
            + "): no answer within " + timeoutNanos / 1_000_000 + " ms").asRuntimeException();
      }
      if (err != null && tlsFailure(err)) {
        throw Status.UNAVAILABLE.withDescription("the TLS handshake with the target failed (connection " + (i + 1) + "): " + err)
            .asRuntimeException();
      }
      if (err != null) {
        String kind = ErrorKinds.classify(err);
        Status st = kind.equals(ErrorKinds.REFUSED) || kind.equals(ErrorKinds.RESET)
            || err instanceof StatusRuntimeException sre && sre.getStatus().getCode() == Status.Code.UNAVAILABLE
            ? Status.UNAVAILABLE : Status.FAILED_PRECONDITION;
        throw st.withDescription("the target failed the contract check (connection " + (i + 1) + "): " + err).asRuntimeException();
      }
    }
  }

  private void phase(Phase p) throws Session.StoppedException {
    if (!p.getKind().equals("warmup") && !p.getKind().equals("measure")) {
      throw invalid("phase kind \"" + p.getKind() + "\": want warmup or measure");
    }
    // This process's CPU and the link proxy's are read around the phase alone, as the
    // Go worker reads them: encoding its histograms and waiting for the next phase
    // (while the other targets' slices run, when interleaved, this JVM's compiler and GC
    // threads catch up) are not the load's cost per op.
    long cpuBefore = ProcInfo.cpuNanos();
    linkCpu();
    io.wirebench.engine.Interval iv;
    try {
      iv = session.phase(new PhaseSpec(p.getDurationNanos(), p.getOps(), p.getRestartSchedule(), p.getRate()));
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    ProcStats proc = ProcInfo.read();
    long linkCpu = linkCpu();
    Interval.Builder m = Interval.newBuilder()
        .setPhase(p.getKind())
        .setIndex(p.getIndex())
        .setStartUnixNanos(iv.startUnixNanos)
        .setEndUnixNanos(iv.endUnixNanos)
        .setOps(iv.ops)
        .putAllErrors(iv.errors)
        .putAllFirstErrors(iv.firstErrors)
        .setResponseHistogram(Histograms.encode(iv.resp))
        .setServiceHistogram(Histograms.encode(iv.service))
        .setClamped(iv.clamped)
        .setOverflow(iv.overflow)
        .setCpuNanos(proc.getCpuNanos() - cpuBefore)
        .setLinkCpuNanos(linkCpu)
        .setProc(proc);
    if (iv.lag != null) {
      m.setLagHistogram(Histograms.encode(iv.lag));
    }
    if (stack.countsBytes()) {
      long sent = counter.sent();
      long received = counter.received();
      m.setBytesSent(sent - lastSent).setBytesReceived(received - lastReceived);
      lastSent = sent;
      lastReceived = received;
    } else {
      m.setBytesSent(-1).setBytesReceived(-1);
    }
    out.onNext(ClientStatus.newBuilder().setInterval(m).build());
  }

  /** The link proxy's CPU since the last reading (0 without a link); INTERNAL when it has died. */
  private long linkCpu() {
    if (link == null) {
      return 0;
    }
    try {
      return link.phaseCpuNanos();
    } catch (IOException e) {
      throw Status.INTERNAL.withDescription(e.getMessage()).asRuntimeException();
    }
  }
}
