package io.wirebench.stack;

import java.util.concurrent.atomic.LongAdder;

/**
 * Bytes a client's connections sent and received on the wire (what its sockets
 * carried). Safe for concurrent use.
 */
public final class ByteCounter {
  private final LongAdder sent = new LongAdder();
  private final LongAdder received = new LongAdder();

  public void sent(long n) {
    sent.add(n);
  }

  public void received(long n) {
    received.add(n);
  }

  public long sent() {
    return sent.sum();
  }

  public long received() {
    return received.sum();
  }
}
