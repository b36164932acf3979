package io.wirebench.contract;

import io.wirebench.contract.Model.Person;
import io.wirebench.contract.Model.PersonLink;
import io.wirebench.contract.Model.Stats;
import io.wirebench.contract.Model.Trade;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The contract's workloads (contract/workload.go), with the same names, the same ids
 * per sequence number and the same checks of the answers: an answer that differs from
 * the data set throws {@link WrongAnswerException}.
 */
public final class Workloads {
  private Workloads() {}

  /** The workload parameters; each workload reads those it uses. */
  /** The workload parameters; each workload reads those it uses. trade is "" or compact, or original. */
  public record Params(int payload, int increments, long trades, String trade) {
    /** Parameters with the compact trade. */
    public Params(int payload, int increments, long trades) {
      this(payload, increments, trades, "");
    }
  }

  private record Spec(Set<String> uses, Builder builder) {}

  @FunctionalInterface
  private interface Builder {
    Workload build(Params p, Dataset ds);
  }

  private static final Map<String, Spec> WORKLOADS = new LinkedHashMap<>();

  static {
    WORKLOADS.put("person.list", new Spec(Set.of(), (p, ds) -> (s, seq) -> checkList(s, ds)));
    WORKLOADS.put("person.get", new Spec(Set.of(), (p, ds) -> (s, seq) -> checkGet(s, ds, pickId(ds, seq))));
    WORKLOADS.put("person.links", new Spec(Set.of(), (p, ds) -> (s, seq) -> checkLinks(s, ds, pickId(ds, seq))));
    WORKLOADS.put("person.create", new Spec(Set.of(), (p, ds) -> (s, seq) -> checkCreate(s, ds, pickId(ds, seq))));
    WORKLOADS.put("person.compose", new Spec(Set.of(), (p, ds) -> (s, seq) -> {
      long a = pickId(ds, 2 * seq);
      long b = pickId(ds, 2 * seq + 1);
      checkList(s, ds);
      for (long id : new long[] {a, b}) {
        checkGet(s, ds, id);
        checkLinks(s, ds, id);
      }
      checkCreate(s, ds, a);
    }));
    // The metrifier original's programComposition: list, get of four ids, the links of
    // the first and the third, create (eight calls).
    WORKLOADS.put("person.program", new Spec(Set.of(), (p, ds) -> (s, seq) -> {
      long[] ids = new long[4];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = pickId(ds, 4 * seq + i);
      }
      checkList(s, ds);
      for (long id : ids) {
        checkGet(s, ds, id);
      }
      checkLinks(s, ds, ids[0]);
      checkLinks(s, ds, ids[2]);
      checkCreate(s, ds, ids[0]);
    }));
    WORKLOADS.put("echo", new Spec(Set.of("payload"), (p, ds) -> {
      String payload = Contract.payload(p.payload());
      return (s, seq) -> checkEcho(s, payload);
    }));
    WORKLOADS.put("echo+stats", new Spec(Set.of("payload"), (p, ds) -> {
      String payload = Contract.payload(p.payload());
      return (s, seq) -> {
        checkEcho(s, payload);
        Stats st = s.stats();
        // Concurrent ops of one benchmark all send payloads of this size, so the latest
        // Echo's length is known even under load.
        if (st.calls() < 1 || st.lastPayloadLen() != payload.length()) {
          throw new WrongAnswerException("Stats = " + st + " after Echo of " + payload.length() + " bytes");
        }
      };
    }));
    WORKLOADS.put("pingpong", new Spec(Set.of("increments"), (p, ds) -> {
      int n = p.increments();
      return (s, seq) -> {
        long x = seq;
        for (int i = 0; i < n; i++) {
          long y = s.increment(x);
          if (y != x + 1) {
            throw new WrongAnswerException("Increment(" + x + ") = " + y);
          }
          x = y;
        }
      };
    }));
    WORKLOADS.put("stream", new Spec(Set.of("trades", "trade"), (p, ds) -> {
      long count = p.trades();
      if (Contract.TRADE_ORIGINAL.equals(p.trade())) {
        return (s, seq) -> {
          long[] i = {0};
          s.streamOriginalTrades(count, t -> {
            Model.OriginalTrade want = Contract.originalTradeAt(i[0]);
            if (!t.equals(want)) {
              throw new WrongAnswerException("original trade " + i[0] + " = " + t + ", want " + want);
            }
            i[0]++;
          });
          if (i[0] != count) {
            throw new WrongAnswerException("stream delivered " + i[0] + " of " + count + " trades");
          }
        };
      }
      return (s, seq) -> {
        long[] i = {0};
        s.streamTrades(count, t -> {
          Trade want = Contract.tradeAt(i[0]);
          if (!t.equals(want)) {
            throw new WrongAnswerException("trade " + i[0] + " = " + t + ", want " + want);
          }
          i[0]++;
        });
        if (i[0] != count) {
          throw new WrongAnswerException("stream delivered " + i[0] + " of " + count + " trades");
        }
      };
    }));
  }

  /** The workload names, in the Go order. */
  public static List<String> names() {
    return List.copyOf(WORKLOADS.keySet());
  }

  /**
   * Returns the op of the named workload over ds, after checking the parameters it uses.
   * Throws IllegalArgumentException naming the valid workloads or the bad parameter.
   */
  public static Workload build(String name, Params p, Dataset ds) {
    Spec spec = WORKLOADS.get(name);
    if (spec == null) {
      throw new IllegalArgumentException("unknown workload \"" + name + "\" (known: " + String.join(", ", names()) + ")");
    }
    if (spec.uses().contains("payload") && (p.payload() < 0 || p.payload() > Contract.MAX_PAYLOAD)) {
      throw new IllegalArgumentException(name + ": payload " + p.payload() + " out of range [0, " + Contract.MAX_PAYLOAD + "]");
    }
    if (spec.uses().contains("increments") && (p.increments() < 1 || p.increments() > Contract.MAX_INCREMENTS)) {
      throw new IllegalArgumentException(name + ": increments " + p.increments() + " out of range [1, " + Contract.MAX_INCREMENTS + "]");
    }
    if (spec.uses().contains("trades") && (p.trades() < 0 || p.trades() > Contract.MAX_TRADES)) {
      throw new IllegalArgumentException(name + ": trades " + p.trades() + " out of range [0, " + Contract.MAX_TRADES + "]");
    }
    if (spec.uses().contains("trade") && !p.trade().isEmpty() && !Contract.TRADE_COMPACT.equals(p.trade())
        && !Contract.TRADE_ORIGINAL.equals(p.trade())) {
      throw new IllegalArgumentException(name + ": trade shape \"" + p.trade() + "\": want " + Contract.TRADE_COMPACT
          + " or " + Contract.TRADE_ORIGINAL);
    }
    return spec.builder().build(p, ds);
  }

  /** The id of op seq: the data set's ids taken in turn (seq is unsigned). */
  public static long pickId(Dataset ds, long seq) {
    return Long.remainderUnsigned(seq, ds.size()) + 1;
  }

  static void checkList(Service s, Dataset ds) throws Exception {
    List<Person> got = s.listPersons();
    List<Person> want = ds.persons();
    if (got.size() != want.size()) {
      throw new WrongAnswerException("ListPersons returned " + got.size() + " persons, want " + want.size());
    }
    for (int i = 0; i < got.size(); i++) {
      if (!got.get(i).equals(want.get(i))) {
        throw new WrongAnswerException("ListPersons[" + i + "] = " + got.get(i) + ", want " + want.get(i));
      }
    }
  }

  static void checkGet(Service s, Dataset ds, long id) throws Exception {
    Person got = s.getPerson(id);
    Person want = ds.person(id);
    if (!want.equals(got)) {
      throw new WrongAnswerException("GetPerson(" + id + ") = " + got + ", want " + want);
    }
  }

  static void checkLinks(Service s, Dataset ds, long id) throws Exception {
    List<PersonLink> got = s.getPersonLinks(id);
    List<PersonLink> want = ds.links(id);
    if (got.size() != want.size()) {
      throw new WrongAnswerException("GetPersonLinks(" + id + ") returned " + got.size() + " links, want " + want.size());
    }
    for (int i = 0; i < got.size(); i++) {
      if (!got.get(i).equals(want.get(i))) {
        throw new WrongAnswerException("GetPersonLinks(" + id + ")[" + i + "] = " + got.get(i) + ", want " + want.get(i));
      }
    }
  }

  static void checkCreate(Service s, Dataset ds, long id) throws Exception {
    Person p = ds.person(id).withId(0);
    Person got = s.createPerson(p);
    if (got.id() <= ds.size()) {
      throw new WrongAnswerException("CreatePerson assigned id " + got.id() + ", inside the data set's ids");
    }
    if (!got.equals(p.withId(got.id()))) {
      throw new WrongAnswerException("CreatePerson = " + got + ", want " + p.withId(got.id()));
    }
  }

  static void checkEcho(Service s, String payload) throws Exception {
    String got = s.echo(payload);
    if (!payload.equals(got)) {
      throw new WrongAnswerException("Echo returned " + (got == null ? 0 : got.length()) + " chars, want the " + payload.length() + " sent");
    }
  }
}
