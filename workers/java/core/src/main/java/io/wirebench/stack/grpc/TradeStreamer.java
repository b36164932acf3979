package io.wirebench.stack.grpc;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.wirebench.contract.Model;
import io.wirebench.contract.Reference;
import java.util.Iterator;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Serves StreamTrades with grpc-java's own flow control, as its manual flow-control
 * example does: trades are sent while the call is ready (its outbound buffer below
 * grpc-java's threshold) and the onReady handler resumes when the client has read, so
 * the server never queues more than the transport's window, whatever the count, and
 * never blocks a thread (which the direct executor would forbid). A cancelled call
 * stops at its next onReady.
 */
final class TradeStreamer {
  private TradeStreamer() {}

  static <T> void serve(Reference svc, long count, StreamObserver<T> observer, Function<Model.Trade, T> convert) {
    serve(() -> svc.trades(count), observer, convert);
  }

  /** serve for the trades of open (a Reference's stream), each converted by convert. */
  static <S, T> void serve(Supplier<Iterator<S>> open, StreamObserver<T> observer, Function<S, T> convert) {
    Iterator<S> trades;
    try {
      trades = open.get();
    } catch (RuntimeException e) {
      observer.onError(GrpcErrors.toStatus(e));
      return;
    }
    ServerCallStreamObserver<T> call = (ServerCallStreamObserver<T>) observer;
    call.setOnCancelHandler(() -> {}); // a cancelled call just stops: isCancelled() below
    call.setOnReadyHandler(new Runnable() {
      private boolean finished;

      @Override
      public void run() {
        while (!finished && call.isReady()) {
          if (call.isCancelled()) {
            finished = true;
            return;
          }
          if (!trades.hasNext()) {
            finished = true;
            call.onCompleted();
            return;
          }
          call.onNext(convert.apply(trades.next()));
        }
      }
    });
  }
}
