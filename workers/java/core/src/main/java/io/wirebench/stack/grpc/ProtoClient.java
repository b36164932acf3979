package io.wirebench.stack.grpc;

import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.wirebench.contract.Model;
import io.wirebench.stack.Stack;
import java.util.Iterator;
import java.util.List;
import wirebench.v1.EchoServiceGrpc;
import wirebench.v1.PersonServiceGrpc;
import wirebench.v1.TradeServiceGrpc;
import wirebench.v1.Wirebench;

/**
 * A grpc-proto client on grpc-java's generated blocking stubs over one channel (one
 * HTTP/2 connection), as the original benchmark's client was written. Interrupting the
 * calling thread cancels the call in flight (the blocking stubs do that). Safe for
 * concurrent use.
 */
final class ProtoClient implements Stack.Client {
  private static final Wirebench.ListPersonsRequest LIST = Wirebench.ListPersonsRequest.getDefaultInstance();
  private static final Wirebench.StatsRequest STATS = Wirebench.StatsRequest.getDefaultInstance();

  private final ManagedChannel channel;
  private final PersonServiceGrpc.PersonServiceBlockingStub persons;
  private final EchoServiceGrpc.EchoServiceBlockingStub echo;
  private final TradeServiceGrpc.TradeServiceBlockingStub trades;

  ProtoClient(ManagedChannel channel) {
    this.channel = channel;
    this.persons = PersonServiceGrpc.newBlockingStub(channel);
    this.echo = EchoServiceGrpc.newBlockingStub(channel);
    this.trades = TradeServiceGrpc.newBlockingStub(channel);
  }

  @Override
  public List<Model.Person> listPersons() throws Exception {
    try {
      return ProtoConvert.fromProto(persons.listPersons(LIST));
    } catch (StatusRuntimeException e) {
      throw GrpcErrors.fromStatus(e);
    }
  }

  @Override
  public Model.Person getPerson(long id) throws Exception {
    try {
      return ProtoConvert.fromProto(persons.getPerson(Wirebench.PersonId.newBuilder().setId(id).build()));
    } catch (StatusRuntimeException e) {
      throw GrpcErrors.fromStatus(e);
    }
  }

  @Override
  public List<Model.PersonLink> getPersonLinks(long id) throws Exception {
    try {
      return ProtoConvert.fromProto(persons.getPersonLinks(Wirebench.PersonId.newBuilder().setId(id).build()));
    } catch (StatusRuntimeException e) {
      throw GrpcErrors.fromStatus(e);
    }
  }

  @Override
  public Model.Person createPerson(Model.Person p) throws Exception {
    try {
      return ProtoConvert.fromProto(persons.createPerson(ProtoConvert.toProto(p)));
    } catch (StatusRuntimeException e) {
      throw GrpcErrors.fromStatus(e);
    }
  }

  @Override
  public String echo(String payload) throws Exception {
    try {
      return echo.echo(Wirebench.EchoMessage.newBuilder().setPayload(payload).build()).getPayload();
    } catch (StatusRuntimeException e) {
      throw GrpcErrors.fromStatus(e);
    }
  }

  @Override
  public Model.Stats stats() throws Exception {
    try {
      Wirebench.StatsReply r = echo.stats(STATS);
      return new Model.Stats(r.getCalls(), r.getLastPayloadLen());
    } catch (StatusRuntimeException e) {
      throw GrpcErrors.fromStatus(e);
    }
  }

  @Override
  public long increment(long n) throws Exception {
    try {
      return echo.increment(Wirebench.Number.newBuilder().setValue(n).build()).getValue();
    } catch (StatusRuntimeException e) {
      throw GrpcErrors.fromStatus(e);
    }
  }

  /** Reads the stream through the blocking iterator; a failing sink cancels the call's context (RST_STREAM). */
  @Override
  public void streamTrades(long count, TradeSink sink) throws Exception {
    stream(() -> trades.streamTrades(request(count)), t -> sink.accept(ProtoConvert.fromProto(t)));
  }

  /** streamTrades for the original's trades (TradeService/StreamOriginalTrades). */
  @Override
  public void streamOriginalTrades(long count, OriginalTradeSink sink) throws Exception {
    stream(() -> trades.streamOriginalTrades(request(count)), t -> sink.accept(ProtoConvert.fromProto(t)));
  }

  private static Wirebench.TradesRequest request(long count) {
    return Wirebench.TradesRequest.newBuilder().setCount(count).build();
  }

  /** Handles one message of a stream. */
  @FunctionalInterface
  private interface Each<W> {
    void accept(W w) throws Exception;
  }

  /** Calls a stream in a context of its own, handing each message to each; cancels the context at the end. */
  private static <W> void stream(java.util.function.Supplier<Iterator<W>> call, Each<W> each) throws Exception {
    Context.CancellableContext ctx = Context.current().withCancellation();
    Context previous = ctx.attach();
    try {
      Iterator<W> it = call.get();
      while (it.hasNext()) {
        each.accept(it.next());
      }
    } catch (StatusRuntimeException e) {
      throw GrpcErrors.fromStatus(e);
    } finally {
      ctx.detach(previous);
      ctx.cancel(null);
    }
  }

  @Override
  public void close() {
    Channels.close(channel);
  }
}
