package io.wirebench.stack.grpc;

import io.grpc.BindableService;
import io.grpc.stub.StreamObserver;
import io.wirebench.contract.Reference;
import java.util.List;
import wirebench.v1.EchoServiceGrpc;
import wirebench.v1.PersonServiceGrpc;
import wirebench.v1.TradeServiceGrpc;
import wirebench.v1.Wirebench;

/** The three wirebench.v1 services over protobuf, on grpc-java's generated bases. */
final class ProtoServices {
  private ProtoServices() {}

  static List<BindableService> of(Reference svc) {
    return List.of(new Persons(svc), new Echo(svc), new Trades(svc));
  }

  static final class Persons extends PersonServiceGrpc.PersonServiceImplBase {
    private final Reference svc;

    Persons(Reference svc) {
      this.svc = svc;
    }

    @Override
    public void listPersons(Wirebench.ListPersonsRequest req, StreamObserver<Wirebench.PersonList> out) {
      answer(out, () -> ProtoConvert.toProto(svc.listPersons()));
    }

    @Override
    public void getPerson(Wirebench.PersonId req, StreamObserver<Wirebench.Person> out) {
      answer(out, () -> ProtoConvert.toProto(svc.getPerson(req.getId())));
    }

    @Override
    public void getPersonLinks(Wirebench.PersonId req, StreamObserver<Wirebench.PersonLinkList> out) {
      answer(out, () -> ProtoConvert.toProtoLinks(svc.getPersonLinks(req.getId())));
    }

    @Override
    public void createPerson(Wirebench.Person req, StreamObserver<Wirebench.Person> out) {
      answer(out, () -> ProtoConvert.toProto(svc.createPerson(ProtoConvert.fromProto(req))));
    }
  }

  static final class Echo extends EchoServiceGrpc.EchoServiceImplBase {
    private final Reference svc;

    Echo(Reference svc) {
      this.svc = svc;
    }

    @Override
    public void echo(Wirebench.EchoMessage req, StreamObserver<Wirebench.EchoMessage> out) {
      answer(out, () -> Wirebench.EchoMessage.newBuilder().setPayload(svc.echo(req.getPayload())).build());
    }

    @Override
    public void stats(Wirebench.StatsRequest req, StreamObserver<Wirebench.StatsReply> out) {
      answer(out, () -> {
        var st = svc.stats();
        return Wirebench.StatsReply.newBuilder().setCalls(st.calls()).setLastPayloadLen(st.lastPayloadLen()).build();
      });
    }

    @Override
    public void increment(Wirebench.Number req, StreamObserver<Wirebench.Number> out) {
      answer(out, () -> Wirebench.Number.newBuilder().setValue(svc.increment(req.getValue())).build());
    }
  }

  static final class Trades extends TradeServiceGrpc.TradeServiceImplBase {
    private final Reference svc;

    Trades(Reference svc) {
      this.svc = svc;
    }

    @Override
    public void streamTrades(Wirebench.TradesRequest req, StreamObserver<Wirebench.Trade> out) {
      TradeStreamer.serve(svc, req.getCount(), out, ProtoConvert::toProto);
    }

    @Override
    public void streamOriginalTrades(Wirebench.TradesRequest req, StreamObserver<Wirebench.OriginalTrade> out) {
      TradeStreamer.serve(() -> svc.originalTrades(req.getCount()), out, ProtoConvert::toProto);
    }
  }

  /** Completes a unary call with the answer, or fails it with the status of the service's error. */
  static <T> void answer(StreamObserver<T> out, java.util.function.Supplier<T> f) {
    T v;
    try {
      v = f.get();
    } catch (RuntimeException e) {
      out.onError(GrpcErrors.toStatus(e));
      return;
    }
    out.onNext(v);
    out.onCompleted();
  }
}
