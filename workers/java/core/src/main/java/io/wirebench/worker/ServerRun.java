package io.wirebench.worker;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.wirebench.contract.Dataset;
import io.wirebench.contract.Reference;
import io.wirebench.control.v1.Benchmark;
import io.wirebench.control.v1.ServerArgs;
import io.wirebench.control.v1.ServerSetup;
import io.wirebench.control.v1.ServerStatus;
import io.wirebench.stack.Address;
import io.wirebench.stack.Stack;
import io.wirebench.stack.Stacks;
import io.wirebench.stack.Tls;
import java.io.IOException;

/**
 * One RunServer stream: the setup starts the server stack (answered with the bound
 * address and a reading of the process), each mark is answered with a reading, and the
 * stream's end, or its failure, stops the server. grpc-java calls the methods of one
 * stream one at a time.
 */
final class ServerRun implements StreamObserver<ServerArgs> {
  private final StreamObserver<ServerStatus> out;
  private Stack.RunningServer server;
  private boolean failed;

  ServerRun(StreamObserver<ServerStatus> out) {
    this.out = out;
  }

  /** Starts the server of a setup; IllegalArgumentException for a bad one, IOException when it cannot listen. */
  static Stack.RunningServer start(ServerSetup setup) throws Exception {
    Benchmark b = setup.getBenchmark();
    Setups.checkTransport(b);
    Stack stack = Stacks.lookup(b.getProtocol(), b.getServerStack(), true);
    Setups.checkTradeShape(b, stack, true);
    Tls.Server tls = Setups.serverTls(b, setup, stack);
    Address listen = Address.parse(setup.getListen());
    Dataset ds = Dataset.of(b.getDataSeed(), b.getDataSize());
    int limit = Setups.messageLimit(b);
    com.google.protobuf.Descriptors.Descriptor message = Messages.of(b);
    if (message != null && !stack.servesMessages()) {
      throw new IllegalArgumentException("the " + stack.name() + " server stack of " + stack.protocol()
          + " does not echo a user's message (workload message)");
    }
    return stack.startServer(new Reference(ds), new Stack.ServerConfig(listen, limit, b.getServerOptionsMap(), tls, message));
  }

  @Override
  public void onNext(ServerArgs a) {
    if (failed) {
      return;
    }
    if (server == null) {
      if (!a.hasSetup()) {
        fail(Status.INVALID_ARGUMENT.withDescription("RunServer: the first message must be a setup"));
        return;
      }
      try {
        server = start(a.getSetup());
      } catch (IllegalArgumentException e) {
        fail(Status.INVALID_ARGUMENT.withDescription(e.getMessage()));
        return;
      } catch (IOException e) {
        fail(Status.UNAVAILABLE.withDescription("listening on " + a.getSetup().getListen() + ": " + e));
        return;
      } catch (Exception e) {
        fail(Status.INTERNAL.withDescription("starting the server: " + e));
        return;
      }
      out.onNext(ServerStatus.newBuilder().setAddress(server.address().toString()).setProc(ProcInfo.read()).build());
      return;
    }
    if (!a.hasMark()) {
      fail(Status.INVALID_ARGUMENT.withDescription("RunServer: after the setup, want marks"));
      return;
    }
    out.onNext(ServerStatus.newBuilder().setProc(ProcInfo.read()).build());
  }

  private void fail(Status st) {
    failed = true;
    stop();
    out.onError(st.asRuntimeException());
  }

  private void stop() {
    if (server != null) {
      server.close();
      server = null;
    }
  }

  @Override
  public void onError(Throwable t) {
    stop(); // the driver cancelled or went away
  }

  @Override
  public void onCompleted() {
    stop();
    if (!failed) {
      out.onCompleted();
    }
  }
}
