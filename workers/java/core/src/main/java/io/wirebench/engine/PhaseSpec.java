package io.wirebench.engine;

/**
 * One phase of a session: it lasts durationNanos or ops ops (arrivals, in the open
 * model), exactly one of them set, and ends when the calls in flight have finished.
 * restartSchedule (open model) starts the arrival schedule afresh, the first arrival
 * due at once; rate, when &gt; 0, replaces the model's rate from this phase on and
 * restarts the schedule.
 */
public record PhaseSpec(long durationNanos, long ops, boolean restartSchedule, double rate) {
  public static PhaseSpec ofDuration(long nanos) {
    return new PhaseSpec(nanos, 0, false, 0);
  }

  public static PhaseSpec ofOps(long ops) {
    return new PhaseSpec(0, ops, false, 0);
  }
}
