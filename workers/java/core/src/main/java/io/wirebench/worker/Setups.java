package io.wirebench.worker;

import io.wirebench.contract.Contract;
import io.wirebench.control.v1.Benchmark;

/** Settings read from a Benchmark the same way by both sides. */
final class Setups {
  private Setups() {}

  /** max_message_size, or the default 16 MiB when 0; refused when negative or over 2 GiB. */
  static int messageLimit(Benchmark b) {
    long m = b.getMaxMessageSize();
    if (m == 0) {
      return Contract.DEFAULT_MAX_MESSAGE_SIZE;
    }
    if (m < 0 || m > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("max_message_size " + m + ": want 1 byte to 2GiB (0 for the default 16MiB)");
    }
    return (int) m;
  }

  /** Refuses the in-process transport, which no JVM stack has. */
  static void checkTransport(Benchmark b) {
    if ("inproc".equals(b.getTransport())) {
      throw new IllegalArgumentException("transport inproc: the JVM worker runs no in-process protocol; use tcp or unix");
    }
  }
}
