package io.wirebench.engine;

import io.wirebench.contract.Pcg;

/**
 * The open model's arrival schedule (load/load.go): offsets from the schedule's start,
 * never decreasing. Owned by one thread.
 */
abstract class Pacer {
  /** The offset in nanoseconds of the next arrival. */
  abstract long next();

  static Pacer of(String arrival, double rate, long seed) {
    return "poisson".equals(arrival) ? new Poisson(rate, seed) : new Constant(rate);
  }

  /** Offset i is i/rate computed from the index, so rounding does not build up. */
  static final class Constant extends Pacer {
    private final double rate;
    private long i;

    Constant(double rate) {
      this.rate = rate;
    }

    @Override
    long next() {
      long d = (long) ((double) i * 1e9 / rate);
      i++;
      return d;
    }
  }

  /**
   * Exponential gaps of mean 1/rate, added in float seconds. The gaps come from the same
   * PCG the Go pacer seeds (seed, 0x5851f42d4c957f2d) by inversion, −ln(1−U); Go draws
   * them with a ziggurat (ExpFloat64), so the two schedules are alike in law, not in
   * their individual arrivals.
   */
  static final class Poisson extends Pacer {
    private final double rate;
    private final Pcg r;
    private double t;

    Poisson(double rate, long seed) {
      this.rate = rate;
      this.r = new Pcg(seed, 0x5851f42d4c957f2dL);
    }

    @Override
    long next() {
      long d = (long) (t * 1e9);
      t += -Math.log(1 - r.float64()) / rate;
      return d;
    }
  }
}
