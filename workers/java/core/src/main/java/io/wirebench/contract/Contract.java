package io.wirebench.contract;

import io.wirebench.contract.Model.Side;
import io.wirebench.contract.Model.Trade;

/** The contract's constants and the pure functions of contract/dataset.go. */
public final class Contract {
  private Contract() {}

  /** The default data set (contract.DefaultSeed, DefaultSize). */
  public static final long DEFAULT_SEED = 1;
  public static final int DEFAULT_SIZE = 20;
  /** Links each person is the first member of (fewer in a smaller data set). */
  public static final int LINKS_PER_PERSON = 3;
  /** StreamTrades refuses counts above this. */
  public static final long MAX_TRADES = 10_000_000;
  /** Workload parameter limits (contract.MaxPayload, MaxIncrements). */
  public static final int MAX_PAYLOAD = 64 << 20;
  public static final int MAX_INCREMENTS = 1_000_000;
  /** The default limit on one message, on servers and clients alike (16 MiB). */
  public static final int DEFAULT_MAX_MESSAGE_SIZE = 16 << 20;

  private static final String[] SYMBOLS = {"AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "ASML", "SAP", "TSM"};
  /** 2026-01-01T00:00:00Z in Unix nanoseconds. */
  private static final long TRADE_EPOCH = 1767225600_000_000_000L;

  /**
   * Trade i of a StreamTrades stream. Every field depends on i only, so a client checks
   * each trade it receives without the server's help.
   */
  public static Trade tradeAt(long i) {
    return new Trade(i, SYMBOLS[(int) (i % SYMBOLS.length)], (double) (10000 + i % 90000) / 100,
        1 + i % 500, TRADE_EPOCH + i * 1_000_000, i % 2 == 1 ? Side.SELL : Side.BUY);
  }

  /** A deterministic payload of size bytes: "Hello World " repeated and cut to size. */
  public static String payload(int size) {
    if (size <= 0) {
      return "";
    }
    String unit = "Hello World ";
    return unit.repeat(size / unit.length() + 1).substring(0, size);
  }
}
