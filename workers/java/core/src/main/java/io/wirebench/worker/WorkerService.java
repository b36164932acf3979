package io.wirebench.worker;

import io.grpc.stub.StreamObserver;
import io.wirebench.control.v1.ClientArgs;
import io.wirebench.control.v1.ClientStatus;
import io.wirebench.control.v1.InfoReply;
import io.wirebench.control.v1.InfoRequest;
import io.wirebench.control.v1.QuitReply;
import io.wirebench.control.v1.QuitRequest;
import io.wirebench.control.v1.ServerArgs;
import io.wirebench.control.v1.ServerStatus;
import io.wirebench.control.v1.WorkerGrpc;
import io.wirebench.stack.Stack;
import io.wirebench.stack.Stacks;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The control API (control/controlpb/control.proto) of the JVM worker. Each RunServer
 * and RunClient stream is independent. Safe for concurrent use.
 */
public final class WorkerService extends WorkerGrpc.WorkerImplBase {
  private final String version;
  private final Path linkBinary;
  private final CountDownLatch quit = new CountDownLatch(1);
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "wirebench-timer");
    t.setDaemon(true);
    return t;
  });

  /** A worker without links. */
  public WorkerService(String version) {
    this(version, null);
  }

  /**
   * A worker whose clients can run behind a link (ClientSetup.link) through linkBinary's
   * {@code link} command (the wirebench executable); null: none, and no "link" feature.
   */
  public WorkerService(String version, Path linkBinary) {
    this.version = version;
    this.linkBinary = linkBinary;
  }

  /** Counted down when a driver asked the worker to quit. */
  public CountDownLatch quitLatch() {
    return quit;
  }

  @Override
  public void info(InfoRequest req, StreamObserver<InfoReply> out) {
    InfoReply.Builder r = InfoReply.newBuilder()
        .setVersion(version)
        .setCpus(ProcInfo.cpus())
        .setRuntime(runtime())
        .setPid((int) ProcessHandle.current().pid())
        .setHost(ProcInfo.host());
    if (linkBinary != null) {
      r.addFeatures("link");
    }
    for (Stack s : Stacks.all()) {
      r.addStacks(s.protocol() + "/" + s.name());
    }
    out.onNext(r.build());
    out.onCompleted();
  }

  /** The runtime's name and version, e.g. "OpenJDK 17.0.15+6-Debian-1deb12u1". */
  static String runtime() {
    String name = System.getProperty("java.runtime.name", "Java");
    String vendor = name.startsWith("OpenJDK") ? "OpenJDK" : name;
    return vendor + " " + System.getProperty("java.runtime.version", Runtime.version().toString());
  }

  @Override
  public void quit(QuitRequest req, StreamObserver<QuitReply> out) {
    out.onNext(QuitReply.getDefaultInstance());
    out.onCompleted();
    quit.countDown();
  }

  @Override
  public StreamObserver<ServerArgs> runServer(StreamObserver<ServerStatus> out) {
    return new ServerRun(out);
  }

  @Override
  public StreamObserver<ClientArgs> runClient(StreamObserver<ClientStatus> out) {
    return new ClientRun(out, timer, linkBinary);
  }
}
