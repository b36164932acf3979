package io.wirebench.engine;

import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Accumulates the calls of the callers that share it (a shard), as record.Recorder
 * does: the lock is shared by a few callers only, so it is rarely contended, and
 * draining at a phase's end (when no call is in flight) resets it. Safe for concurrent use.
 */
final class Recorder {
  private long ops;
  private long clamped;
  private final Map<String, Long> errors = new HashMap<>();
  private final Histogram resp = Histograms.create();
  private final Histogram service = Histograms.create();
  private final Histogram lag;

  Recorder(boolean withLag) {
    lag = withLag ? Histograms.create() : null;
  }

  /** A successful call, timestamps from System.nanoTime(). */
  synchronized void record(long intended, long start, long end) {
    long r = end - intended;
    ops++;
    if (r > Histograms.HIGHEST_NS) {
      clamped++; // response time is the longest of the three
    }
    Histograms.record(resp, r);
    Histograms.record(service, end - start);
    if (lag != null) {
      Histograms.record(lag, start - intended);
    }
  }

  /** A failed call: it enters no latency histogram (a fast error is no fast answer). */
  synchronized void error(String kind) {
    errors.merge(kind, 1L, Long::sum);
  }

  synchronized void drainTo(Interval iv) {
    iv.ops += ops;
    iv.clamped += clamped;
    errors.forEach((k, n) -> iv.errors.merge(k, n, Long::sum));
    iv.resp.add(resp);
    iv.service.add(service);
    if (lag != null && iv.lag != null) {
      iv.lag.add(lag);
    }
    ops = 0;
    clamped = 0;
    errors.clear();
    resp.reset();
    service.reset();
    if (lag != null) {
      lag.reset();
    }
  }
}
