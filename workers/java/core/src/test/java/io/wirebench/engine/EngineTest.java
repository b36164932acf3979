package io.wirebench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wirebench.contract.Code;
import io.wirebench.contract.ContractException;
import io.wirebench.contract.WrongAnswerException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class EngineTest {
  private static Session session(io.wirebench.contract.Workload op, LoadModel m, long timeout, long offset, long stride) {
    List<FakeService> clients = new ArrayList<>();
    for (int i = 0; i < m.connections(); i++) {
      clients.add(new FakeService());
    }
    return new Session(new Session.Config(op, clients, m, timeout, 1, offset, stride));
  }

  @Test
  void constantPacer() {
    // Each row: rate, arrival index, offset; offsets come from the index, so no rounding builds up.
    Object[][] rows = {
        {1000.0, 0, 0L},              // the first arrival is at time zero
        {1000.0, 1, 1_000_000L},      // 1000/s: 1 ms apart
        {3.0, 1, 333_333_333L},       // a third of a second, truncated to the nanosecond
        {3.0, 3, 1_000_000_000L},     // exactly one second, not three truncated thirds
        {0.5, 2, 4_000_000_000L},     // rates under 1/s work too
    };
    for (Object[] r : rows) {
      Pacer p = Pacer.of("constant", (double) r[0], 1);
      long got = 0;
      for (int i = 0; i <= (int) r[1]; i++) {
        got = p.next();
      }
      assertEquals((long) r[2], got, "rate " + r[0] + " arrival " + r[1]);
    }
  }

  @Test
  void poissonPacerHasExponentialGaps() {
    double rate = 10000;
    int n = 200000;
    Pacer p = Pacer.of("poisson", rate, 42);
    long prev = 0;
    long last = 0;
    double sumSq = 0;
    for (int i = 0; i < n; i++) {
      last = p.next();
      assertTrue(last >= prev, "arrivals go back in time");
      double gap = (last - prev) / 1e9;
      if (i > 0) {
        sumSq += gap * gap;
      }
      prev = last;
    }
    // n arrivals at rate r take about n/r s (relative standard error 1/sqrt(n) = 0.22 %).
    assertEquals(n / rate, last / 1e9, 0.01 * n / rate);
    // Exponential gaps: E[gap²] = 2/r², twice the constant gaps' 1/r².
    assertEquals(2 / (rate * rate), sumSq / (n - 1), 0.05 * 2 / (rate * rate));
  }

  @Test
  void loadModelsNormalizeAndShare() {
    assertEquals(new LoadModel("closed", 50, 1, 0, ""), LoadModel.normalize("closed", 50, 0, 0, "poisson"));
    assertEquals(new LoadModel("open", 1000, 1, 100, "constant"), LoadModel.normalize("open", 0, 0, 100, ""));
    assertThrows(IllegalArgumentException.class, () -> LoadModel.normalize("closed", 0, 0, 0, ""));
    assertThrows(IllegalArgumentException.class, () -> LoadModel.normalize("closed", 2, 3, 0, ""));
    assertThrows(IllegalArgumentException.class, () -> LoadModel.normalize("open", 2, 1, 0, ""));
    assertThrows(IllegalArgumentException.class, () -> LoadModel.normalize("open", 2, 1, 5, "bursty"));
    assertThrows(IllegalArgumentException.class, () -> LoadModel.normalize("sideways", 2, 1, 5, ""));
    // 10 callers and 3 connections over 3 workers: 4+3+3 callers, 1 connection each.
    LoadModel m = LoadModel.normalize("closed", 10, 3, 0, "");
    assertEquals(new LoadModel("closed", 4, 1, 0, ""), m.share(0, 3));
    assertEquals(new LoadModel("closed", 3, 1, 0, ""), m.share(2, 3));
    // An open model's rate is dealt, its cap on calls in flight is not.
    assertEquals(new LoadModel("open", 8, 2, 250, "poisson"), LoadModel.normalize("open", 8, 2, 1000, "poisson").share(1, 4));
    assertThrows(IllegalArgumentException.class, () -> LoadModel.normalize("closed", 2, 1, 0, "").share(2, 3));
  }

  /** Closed model with an op budget: exactly the budget's ops, caller i taking seq i, i+n, i+2n, ... */
  @Test
  void closedModelSequenceNumbers() throws Exception {
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    List<Long> dup = Collections.synchronizedList(new ArrayList<>());
    LoadModel m = LoadModel.normalize("closed", 4, 2, 0, "");
    try (Session s = session((svc, seq) -> {
      if (!seen.add(seq)) {
        dup.add(seq);
      }
    }, m, 0, 0, 1)) {
      Interval a = s.phase(PhaseSpec.ofOps(1000));
      Interval b = s.phase(PhaseSpec.ofOps(1000));
      assertEquals(1000, a.ops);
      assertEquals(1000, b.ops);
      assertEquals(1000, a.resp.getTotalCount());
      assertEquals(1000, a.service.getTotalCount());
      assertNull(a.lag);
      assertTrue(a.endUnixNanos >= a.startUnixNanos && b.startUnixNanos >= a.endUnixNanos);
    }
    assertEquals(List.of(), dup, "a sequence number was used twice");
    assertEquals(2000, seen.size());
    // Caller i of 4 takes i, i+4, i+8, ... in turn: each residue class mod 4 is a prefix
    // of its sequence, however unevenly the callers ran.
    for (long r = 0; r < 4; r++) {
      TreeSet<Long> cls = new TreeSet<>();
      for (long v : seen) {
        if (v % 4 == r) {
          cls.add(v);
        }
      }
      // The message is built only on failure: a caller that made no op (one can, on a
      // machine busy enough) has an empty class and no last element.
      final long caller = r;
      assertTrue(cls.isEmpty() || cls.last() == r + 4L * (cls.size() - 1), () -> "caller " + caller + " skipped a seq: " + cls.last());
    }
  }

  /** Shares offset and stride the sequence numbers, so two workers never repeat an op. */
  @Test
  void sharesInterleaveSequenceNumbers() throws Exception {
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    LoadModel m = LoadModel.normalize("closed", 1, 1, 0, "");
    try (Session s = session((svc, seq) -> seen.add(seq), m, 0, 1, 3)) {
      s.phase(PhaseSpec.ofOps(4));
    }
    assertEquals(Set.of(1L, 4L, 7L, 10L), seen);
  }

  @Test
  void errorsAreCountedByKindWithTheirFirstText() throws Exception {
    LoadModel m = LoadModel.normalize("closed", 1, 1, 0, "");
    try (Session s = session((svc, seq) -> {
      switch ((int) (seq % 3)) {
        case 0 -> throw new ContractException(Code.NOT_FOUND, "no person " + seq);
        case 1 -> throw new WrongAnswerException("bad " + seq);
        default -> { }
      }
    }, m, 0, 0, 1)) {
      Interval iv = s.phase(PhaseSpec.ofOps(9));
      assertEquals(3, iv.ops);
      assertEquals(3L, iv.errors.get("not_found"));
      assertEquals(3L, iv.errors.get("wrong_answer"));
      assertEquals("not_found: no person 0", iv.firstErrors.get("not_found"));
      assertEquals(3, iv.resp.getTotalCount(), "failed calls enter no histogram");
    }
  }

  /** A call that never answers is cut by the call timeout (its thread interrupted) and counted as a timeout. */
  @Test
  void callTimeoutCutsAHungCall() throws Exception {
    LoadModel m = LoadModel.normalize("closed", 2, 1, 0, "");
    try (Session s = session((svc, seq) -> Thread.sleep(Long.MAX_VALUE), m, 50_000_000, 0, 1)) {
      Interval iv = s.phase(PhaseSpec.ofOps(4));
      assertEquals(0, iv.ops);
      assertEquals(4L, iv.errors.get("timeout"));
      assertTrue(iv.firstErrors.get("timeout").startsWith("call timeout"));
    }
  }

  /** Open model: each arrival is one op, with a lag histogram as long as the ops. */
  @Test
  void openModelCountsArrivals() throws Exception {
    LoadModel m = LoadModel.normalize("open", 4, 1, 2000, "constant");
    try (Session s = session((svc, seq) -> { }, m, 0, 0, 1)) {
      Interval a = s.phase(PhaseSpec.ofOps(200));
      Interval b = s.phase(new PhaseSpec(0, 100, true, 4000));
      assertEquals(200, a.ops);
      assertEquals(100, b.ops);
      assertNotNull(a.lag);
      assertEquals(200, a.lag.getTotalCount());
      assertEquals(200, a.resp.getTotalCount());
      // 200 arrivals at 2000/s are due over 99.5 ms: the phase cannot end sooner.
      assertTrue(a.endUnixNanos - a.startUnixNanos >= 99_000_000, "phase took " + (a.endUnixNanos - a.startUnixNanos) + " ns");
    }
  }

  @Test
  void stopEndsARunningPhase() throws Exception {
    LoadModel m = LoadModel.normalize("closed", 2, 1, 0, "");
    Session s = session((svc, seq) -> Thread.sleep(Long.MAX_VALUE), m, 0, 0, 1);
    Thread stopper = new Thread(() -> {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
      s.stop();
    });
    stopper.start();
    assertThrows(Session.StoppedException.class, () -> s.phase(PhaseSpec.ofDuration(60_000_000_000L)));
    s.close();
  }

  @Test
  void histogramsRoundTripTheirEncoding() throws Exception {
    Histogram h = Histograms.create();
    for (long v : new long[] {1, 1000, 123_456, 59_000_000_000L, Histograms.HIGHEST_NS}) {
      Histograms.record(h, v);
    }
    Histograms.record(h, 0); // a clock step: recorded as 1 ns
    Histogram d = Histograms.decode(Histograms.encode(h));
    assertEquals(6, d.getTotalCount());
    assertEquals(h.getMaxValue(), d.getMaxValue());
    assertEquals(2, d.getCountAtValue(1));
    assertEquals(Histograms.HIGHEST_NS, d.getHighestTrackableValue() >= Histograms.HIGHEST_NS ? Histograms.HIGHEST_NS : -1);
  }
}
