package io.wirebench.contract;

import io.wirebench.contract.Model.OriginalTrade;
import io.wirebench.contract.Model.Person;
import io.wirebench.contract.Model.PersonLink;
import io.wirebench.contract.Model.Stats;
import io.wirebench.contract.Model.Trade;
import java.util.List;

/**
 * The benchmark service (contract/service.go). Every client stack implements it, so a
 * workload runs unchanged over any protocol.
 *
 * <p>Implementations must be safe for concurrent use by many threads. A call blocks its
 * thread; interrupting the thread cancels the call in flight (the engine's call timeout
 * and a stopped run do that), after which the call throws.
 *
 * <p>Errors: a call the service refused throws {@link ContractException} with the
 * contract code its protocol carried back; a call that did not complete (transport,
 * cancellation) throws any other exception.
 */
public interface Service {
  List<Person> listPersons() throws Exception;

  Person getPerson(long id) throws Exception;

  List<PersonLink> getPersonLinks(long id) throws Exception;

  /** Returns p with the id the server assigned; the server stores nothing. */
  Person createPerson(Person p) throws Exception;

  String echo(String payload) throws Exception;

  Stats stats() throws Exception;

  long increment(long n) throws Exception;

  /**
   * Has the server send count trades, handing each, decoded, to sink in order from the
   * calling thread. When sink throws, the stream is cancelled (not drained) and its
   * exception propagates as it is.
   */
  void streamTrades(long count, TradeSink sink) throws Exception;

  /**
   * streamTrades for the REST vs gRPC original's trade (originalTradeAt). A client whose
   * stack does not carry that shape keeps this default, which refuses the call rather
   * than stream anything else (the driver refuses such a run before it starts).
   */
  default void streamOriginalTrades(long count, OriginalTradeSink sink) throws Exception {
    throw new UnsupportedOperationException(getClass().getSimpleName()
        + " does not carry the original trade shape (trade: original)");
  }

  /** Receives the trades of a stream. */
  @FunctionalInterface
  interface TradeSink {
    void accept(Trade t) throws Exception;
  }

  /** Receives the original's trades of a stream. */
  @FunctionalInterface
  interface OriginalTradeSink {
    void accept(OriginalTrade t) throws Exception;
  }
}
