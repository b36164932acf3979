package io.wirebench.engine;

import java.time.Instant;

/**
 * Converts System.nanoTime() readings to Unix nanoseconds from one anchor taken at
 * start, so the spans of a worker's phases are precise relative to each other and to
 * within a clock read of the wall clock.
 */
public final class Clock {
  private Clock() {}

  private static final long ANCHOR_MONO = System.nanoTime();
  private static final long ANCHOR_WALL;

  static {
    Instant now = Instant.now();
    ANCHOR_WALL = now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  public static long unixNanos(long nanoTime) {
    return ANCHOR_WALL + (nanoTime - ANCHOR_MONO);
  }

  public static long nowUnixNanos() {
    return unixNanos(System.nanoTime());
  }
}
