package io.wirebench.stack.grpc;

import io.grpc.CallOptions;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.wirebench.contract.Model;
import io.wirebench.stack.Stack;
import java.util.Iterator;
import java.util.List;

/**
 * A grpc-avro client: grpc-java's blocking calls with AvroMethods' descriptors over one
 * channel. grpc-java always sends content-type application/grpc (it drops any other
 * from the call's metadata), as the Scala frameworks built on it did, so a server must
 * not need the "+avro" subtype to pick its codec. Safe for concurrent use.
 */
final class AvroClient implements Stack.Client {
  private static final wirebench.v1.ListPersonsRequest LIST = new wirebench.v1.ListPersonsRequest();
  private static final wirebench.v1.StatsRequest STATS = new wirebench.v1.StatsRequest();

  private final ManagedChannel channel;

  AvroClient(ManagedChannel channel) {
    this.channel = channel;
  }

  private <Q, R> R call(io.grpc.MethodDescriptor<Q, R> m, Q req) throws Exception {
    try {
      return ClientCalls.blockingUnaryCall(channel, m, CallOptions.DEFAULT, req);
    } catch (StatusRuntimeException e) {
      throw GrpcErrors.fromStatus(e);
    }
  }

  @Override
  public List<Model.Person> listPersons() throws Exception {
    return AvroConvert.fromAvro(call(AvroMethods.LIST_PERSONS, LIST));
  }

  @Override
  public Model.Person getPerson(long id) throws Exception {
    return AvroConvert.fromAvro(call(AvroMethods.GET_PERSON, new wirebench.v1.PersonId(id)));
  }

  @Override
  public List<Model.PersonLink> getPersonLinks(long id) throws Exception {
    return AvroConvert.fromAvro(call(AvroMethods.GET_PERSON_LINKS, new wirebench.v1.PersonId(id)));
  }

  @Override
  public Model.Person createPerson(Model.Person p) throws Exception {
    return AvroConvert.fromAvro(call(AvroMethods.CREATE_PERSON, AvroConvert.toAvro(p)));
  }

  @Override
  public String echo(String payload) throws Exception {
    return call(AvroMethods.ECHO, new wirebench.v1.EchoMessage(payload)).getPayload();
  }

  @Override
  public Model.Stats stats() throws Exception {
    wirebench.v1.StatsReply r = call(AvroMethods.STATS, STATS);
    return new Model.Stats(r.getCalls(), r.getLastPayloadLen());
  }

  @Override
  public long increment(long n) throws Exception {
    return call(AvroMethods.INCREMENT, new wirebench.v1.Number(n)).getValue();
  }

  @Override
  public void streamTrades(long count, TradeSink sink) throws Exception {
    Context.CancellableContext ctx = Context.current().withCancellation();
    Context previous = ctx.attach();
    try {
      Iterator<wirebench.v1.Trade> it = ClientCalls.blockingServerStreamingCall(channel, AvroMethods.STREAM_TRADES,
          CallOptions.DEFAULT, new wirebench.v1.TradesRequest(count));
      while (it.hasNext()) {
        sink.accept(AvroConvert.fromAvro(it.next()));
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
