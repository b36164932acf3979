package io.wirebench.worker;

import io.wirebench.contract.Contract;
import io.wirebench.control.v1.Benchmark;
import io.wirebench.control.v1.ClientSetup;
import io.wirebench.control.v1.ServerSetup;
import io.wirebench.stack.Stack;
import io.wirebench.stack.Stacks;
import io.wirebench.stack.Tls;

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

  /** Refuses the in-process transport, which no JVM stack has, and QUIC, which none speaks. */
  static void checkTransport(Benchmark b) {
    if ("inproc".equals(b.getTransport())) {
      throw new IllegalArgumentException("transport inproc: the JVM worker runs no in-process protocol; use tcp or unix");
    }
    if ("quic".equals(b.getTransport())) {
      throw new IllegalArgumentException("transport quic: no JVM stack speaks HTTP/3; use tcp, tls or unix");
    }
  }

  /**
   * The server's TLS of a setup, or null for plain text: the tls transport needs a
   * certificate and key, the others none, and the stack must speak it.
   */
  static Tls.Server serverTls(Benchmark b, ServerSetup setup, Stack stack) {
    boolean want = "tls".equals(b.getTransport());
    if (want != !setup.getTlsCertPem().isEmpty()) {
      throw new IllegalArgumentException("RunServer: transport " + b.getTransport() + " with a TLS certificate of "
          + setup.getTlsCertPem().size() + " bytes: the tls transport needs one, the others none");
    }
    if (!want) {
      return null;
    }
    requireTls(stack, true);
    return new Tls.Server(setup.getTlsCertPem().toByteArray(), setup.getTlsKeyPem().toByteArray());
  }

  /** The client's TLS of a setup, or null for plain text, checked as serverTls checks the server's. */
  static Tls.Client clientTls(Benchmark b, ClientSetup setup, Stack stack) {
    boolean want = "tls".equals(b.getTransport());
    if (want != !setup.getTlsCaPem().isEmpty()) {
      throw new IllegalArgumentException("RunClient: transport " + b.getTransport() + " with a TLS CA of "
          + setup.getTlsCaPem().size() + " bytes: the tls transport needs one, the others none");
    }
    if (!want) {
      return null;
    }
    requireTls(stack, false);
    return new Tls.Client(setup.getTlsCaPem().toByteArray(), setup.getTlsServerName());
  }

  /** Refuses TLS for a stack without it, naming the stack. */
  /**
   * Refuses a benchmark that asks for the original's trade (trade: original) of a stack
   * that does not carry it, naming the stack and the shape.
   */
  static void checkTradeShape(Benchmark b, Stack stack, boolean server) {
    String shape = b.getTrade();
    if (io.wirebench.contract.Contract.TRADE_ORIGINAL.equals(shape) && !stack.originalTrades()) {
      throw new IllegalArgumentException("the " + stack.name() + " " + (server ? "server" : "client") + " stack of "
          + stack.protocol() + " does not carry the original trade shape (trade: original)");
    }
  }

  static void requireTls(Stack stack, boolean server) {
    if (!stack.speaksTls(server)) {
      String side = server ? "server" : "client";
      throw new IllegalArgumentException("the " + stack.name() + " " + side + " stack of " + stack.protocol()
          + " does not speak TLS (transport tls); the JVM " + side + " stacks that do: " + Stacks.withTls(server));
    }
  }
}
