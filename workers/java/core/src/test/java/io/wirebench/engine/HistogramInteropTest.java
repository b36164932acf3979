package io.wirebench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wirebench.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The histograms the worker sends decode in Go, and Go's decode here: both sides encode
 * the same values into stack/jvm/testdata (this test writes histogram-java.txt with
 * -Dwirebench.update=true; stack/jvm's histogram_test.go decodes it and writes
 * histogram-go.txt with -update).
 */
class HistogramInteropTest {
  static final long[] VALUES = {1, 1000, 1000, 1000, 123456, 999999, 59_000_000_000L, Histograms.HIGHEST_NS};

  static void check(String who, Histogram h) {
    assertEquals(VALUES.length, h.getTotalCount(), who);
    assertEquals(1, h.getMinValue(), who);
    assertEquals(1000, h.getValueAtPercentile(50), who);
    assertTrue(h.valuesAreEquivalent(h.getMaxValue(), Histograms.HIGHEST_NS), who + " max " + h.getMaxValue());
  }

  @Test
  void decodesGoAndWritesJava() throws Exception {
    Path dir = TestPaths.root().resolve("stack/jvm/testdata");
    Histogram h = Histograms.create();
    for (long v : VALUES) {
      Histograms.record(h, v);
    }
    String enc = Histograms.encode(h);
    check("Java", Histograms.decode(enc));
    if (Boolean.getBoolean("wirebench.update")) {
      Files.writeString(dir.resolve("histogram-java.txt"), enc + "\n");
    }
    check("Java (committed)", Histograms.decode(Files.readString(dir.resolve("histogram-java.txt")).trim()));
    check("Go", Histograms.decode(Files.readString(dir.resolve("histogram-go.txt")).trim()));
  }
}
