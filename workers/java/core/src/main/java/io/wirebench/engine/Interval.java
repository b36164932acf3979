package io.wirebench.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What one phase measured: the merge of every recorder of a session. Owned by one
 * thread once the phase has ended.
 */
public final class Interval {
  /** Wall-clock span of the phase, Unix nanoseconds. */
  public long startUnixNanos;
  public long endUnixNanos;
  public long ops;
  public final Map<String, Long> errors = new LinkedHashMap<>();
  public final Map<String, String> firstErrors = new LinkedHashMap<>();
  /** Response time (end − intended), service time (end − start), lag (start − intended; open model only). */
  public final Histogram resp = Histograms.create();
  public final Histogram service = Histograms.create();
  public final Histogram lag;
  /** Calls whose response time was over 60 s, recorded as 60 s. */
  public long clamped;
  /** Open-model arrivals that found every in-flight slot busy. */
  public long overflow;

  Interval(boolean withLag) {
    lag = withLag ? Histograms.create() : null;
  }

  public long errorCount() {
    long n = 0;
    for (long c : errors.values()) {
      n += c;
    }
    return n;
  }
}
