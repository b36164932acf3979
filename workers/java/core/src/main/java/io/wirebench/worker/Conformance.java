package io.wirebench.worker;

import io.wirebench.contract.Code;
import io.wirebench.contract.ContractException;
import io.wirebench.contract.Contract;
import io.wirebench.contract.Dataset;
import io.wirebench.contract.Model;
import io.wirebench.contract.Service;
import io.wirebench.contract.Workload;
import io.wirebench.contract.Workloads;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The contract checks a client runs against a server, after protocol/protocoltest's
 * suite: every workload's op (answers verified), refusals with the right codes, echo
 * payloads from empty to 4 MiB with non-ASCII text, streams of 0, 1 and 10000 trades,
 * and a stream stopped early by its receiver; with originalTrades, the same streams of
 * the original's trades, every field compared. Used by the worker's `check` command and
 * by the tests of every server and client pair.
 *
 * <p>It stays in Java for the Java clients: Go cannot make a Java client's calls, so the Go
 * interop test (stack/jvm) runs `check` against the Go servers. The Java servers are held
 * to the Go side's one contract check instead (conform.Check, what `wirebench conform`
 * runs), through Go clients.
 */
public final class Conformance {
  private Conformance() {}

  /** Runs every check on s against a server of ds; returns the failures (empty: conforms). */
  public static List<String> run(Service s, Dataset ds, Consumer<String> progress) {
    return run(s, ds, false, progress);
  }

  /**
   * Runs every check on s against a server of ds, the original's trades too when
   * originalTrades (both stacks carry them); returns the failures (empty: conforms).
   */
  public static List<String> run(Service s, Dataset ds, boolean originalTrades, Consumer<String> progress) {
    List<String> failures = new ArrayList<>();
    if (originalTrades) {
      Workload op = Workloads.build("stream", new Workloads.Params(0, 0, 1000, Contract.TRADE_ORIGINAL), ds);
      check(failures, progress, "workload stream, trade original", () -> op.run(s, 0));
      for (long count : new long[] {0, 1, 10000}) {
        check(failures, progress, "StreamOriginalTrades(" + count + ")", () -> {
          long[] i = {0};
          s.streamOriginalTrades(count, t -> {
            if (!t.equals(Contract.originalTradeAt(i[0]))) {
              throw new AssertionError("original trade " + i[0] + " = " + t + ", want " + Contract.originalTradeAt(i[0]));
            }
            i[0]++;
          });
          if (i[0] != count) {
            throw new AssertionError("delivered " + i[0]);
          }
        });
      }
      check(failures, progress, "StreamOriginalTrades(-1) is invalid_argument",
          () -> expect(Code.INVALID_ARGUMENT, () -> {
            s.streamOriginalTrades(-1, t -> {});
            return null;
          }));
    }
    for (String name : Workloads.names()) {
      Workload op = Workloads.build(name, new Workloads.Params(11, 10, 1000), ds);
      for (long i = 0; i < 3; i++) {
        long seq = i;
        check(failures, progress, "workload " + name + " op " + seq, () -> op.run(s, seq));
      }
    }
    for (long id : new long[] {0, -1, ds.size() + 1, Long.MAX_VALUE}) {
      check(failures, progress, "GetPerson(" + id + ") is not_found", () -> expect(Code.NOT_FOUND, () -> s.getPerson(id)));
      check(failures, progress, "GetPersonLinks(" + id + ") is not_found", () -> expect(Code.NOT_FOUND, () -> s.getPersonLinks(id)));
    }
    Model.Person noLast = new Model.Person(0, new Model.PersonName("", "A", ""), "", new Model.Location("", "", "", ""),
        "a@example.com", null);
    Model.Person noAt = new Model.Person(0, new Model.PersonName("", "A", "B"), "", new Model.Location("", "", "", ""),
        "no-at-sign", null);
    check(failures, progress, "CreatePerson without a last name is invalid_argument",
        () -> expect(Code.INVALID_ARGUMENT, () -> s.createPerson(noLast)));
    check(failures, progress, "CreatePerson with no '@' is invalid_argument",
        () -> expect(Code.INVALID_ARGUMENT, () -> s.createPerson(noAt)));
    check(failures, progress, "CreatePerson without a picture", () -> {
      Model.Person got = s.createPerson(ds.person(4).withId(0));
      if (got.picture() != null || got.id() <= ds.size()) {
        throw new AssertionError("got " + got);
      }
    });
    for (String payload : new String[] {"", Contract.payload(11), Contract.payload(100 << 10), Contract.payload(4 << 20),
        "héllo wörld ✓ 日本語 🚀 \u00a0\t\n\"quoted\" \\ <tag> &amp;"}) {
      check(failures, progress, "Echo of " + payload.length() + " chars", () -> {
        String got = s.echo(payload);
        if (!payload.equals(got)) {
          throw new AssertionError("got " + (got == null ? "null" : got.length() + " chars"));
        }
      });
    }
    check(failures, progress, "Stats after Echo", () -> {
      s.echo("Hello World");
      Model.Stats st = s.stats();
      if (st.calls() < 1 || st.lastPayloadLen() != 11) {
        throw new AssertionError("got " + st);
      }
    });
    for (long n : new long[] {0, 1, -1, 41, Long.MIN_VALUE, Long.MAX_VALUE - 1}) {
      check(failures, progress, "Increment(" + n + ")", () -> {
        long got = s.increment(n);
        if (got != n + 1) {
          throw new AssertionError("got " + got);
        }
      });
    }
    for (long count : new long[] {0, 1, 10000}) {
      check(failures, progress, "StreamTrades(" + count + ")", () -> {
        long[] i = {0};
        s.streamTrades(count, t -> {
          if (!t.equals(Contract.tradeAt(i[0]))) {
            throw new AssertionError("trade " + i[0] + " = " + t);
          }
          i[0]++;
        });
        if (i[0] != count) {
          throw new AssertionError("delivered " + i[0]);
        }
      });
    }
    check(failures, progress, "StreamTrades(-1) is invalid_argument",
        () -> expect(Code.INVALID_ARGUMENT, () -> {
          s.streamTrades(-1, t -> {});
          return null;
        }));
    check(failures, progress, "a stream stopped by its receiver", () -> {
      RuntimeException stop = new RuntimeException("enough");
      int[] n = {0};
      long start = System.nanoTime();
      try {
        s.streamTrades(Contract.MAX_TRADES, t -> {
          if (++n[0] == 100) {
            throw stop;
          }
        });
        throw new AssertionError("the stream ended without the receiver's error");
      } catch (RuntimeException e) {
        if (e != stop) {
          throw e;
        }
      }
      if (n[0] != 100) {
        throw new AssertionError("the receiver was called " + n[0] + " times");
      }
      if (System.nanoTime() - start > 5_000_000_000L) {
        throw new AssertionError("stopping took over 5 s: the client must cancel, not drain");
      }
      s.getPerson(1);
    });
    return failures;
  }

  @FunctionalInterface
  private interface Check {
    void run() throws Exception;
  }

  @FunctionalInterface
  private interface Call {
    Object call() throws Exception;
  }

  private static void check(List<String> failures, Consumer<String> progress, String name, Check c) {
    try {
      c.run();
      progress.accept("ok   " + name);
    } catch (Throwable t) {
      failures.add(name + ": " + t);
      progress.accept("FAIL " + name + ": " + t);
    }
  }

  private static void expect(Code code, Call c) throws Exception {
    try {
      Object v = c.call();
      throw new AssertionError("succeeded with " + v + ", want " + code.wire());
    } catch (ContractException e) {
      if (e.code() != code) {
        throw new AssertionError("code " + e.code().wire() + " (" + e.getMessage() + "), want " + code.wire());
      }
    }
  }
}
