package io.wirebench.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PcgTest {
  @Test
  void unsignedMultiplyHigh() {
    // (2^64-1)² = 2^128 - 2^65 + 1: high word 2^64 - 2.
    assertEquals(-2L, Pcg.unsignedMultiplyHigh(-1L, -1L));
    // 2^63 · 2 = 2^64: high word 1 (signed multiplyHigh would say -1).
    assertEquals(1L, Pcg.unsignedMultiplyHigh(Long.MIN_VALUE, 2));
    // Small operands have no high word.
    assertEquals(0L, Pcg.unsignedMultiplyHigh(3, 5));
  }

  @Test
  void float64InUnitInterval() {
    Pcg r = new Pcg(1, 2);
    for (int i = 0; i < 10000; i++) {
      double f = r.float64();
      if (!(f >= 0 && f < 1)) {
        throw new AssertionError("Float64 = " + f);
      }
    }
  }

  @Test
  void utf8Length() {
    assertEquals(0, Reference.utf8Length(""));
    assertEquals(11, Reference.utf8Length("Hello World"));
    assertEquals(2, Reference.utf8Length("é"));
    assertEquals(3, Reference.utf8Length("✓"));
    assertEquals(4, Reference.utf8Length("🚀")); // a surrogate pair in Java, 4 bytes in UTF-8
  }
}
