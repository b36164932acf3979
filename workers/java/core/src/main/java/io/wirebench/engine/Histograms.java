package io.wirebench.engine;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * wirebench's histogram range and wire form (record/record.go): values in nanoseconds
 * from 1 ns to 60 s at 3 significant digits, sent as HdrHistogram's V2 compressed
 * encoding in base64, which the Go driver's hdrhistogram-go decodes.
 */
public final class Histograms {
  private Histograms() {}

  public static final long LOWEST_NS = 1;
  public static final long HIGHEST_NS = 60_000_000_000L;
  public static final int SIG_FIGS = 3;

  public static Histogram create() {
    return new Histogram(LOWEST_NS, HIGHEST_NS, SIG_FIGS);
  }

  /** Records v clamped into the range (a value below 1 ns is a clock step; the call took time). */
  static void record(Histogram h, long v) {
    h.recordValue(Math.min(Math.max(v, LOWEST_NS), HIGHEST_NS));
  }

  public static String encode(Histogram h) {
    ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(buf);
    byte[] b = new byte[n];
    buf.flip();
    buf.get(b);
    return Base64.getEncoder().encodeToString(b);
  }

  public static Histogram decode(String s) throws DataFormatException {
    byte[] b = Base64.getDecoder().decode(s);
    return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(b), 0);
  }
}
