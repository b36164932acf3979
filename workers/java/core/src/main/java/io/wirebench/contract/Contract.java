package io.wirebench.contract;

import io.wirebench.contract.Model.OriginalTrade;
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

  /** The trade shapes of the stream workload's trade parameter. */
  public static final String TRADE_COMPACT = "compact";
  public static final String TRADE_ORIGINAL = "original";

  /** The recipe of OriginalTradeAt (contract/originaltrade.go). */
  public static final int ORIGINAL_TRADE_STRING_LEN = 10;
  public static final int ORIGINAL_TRADE_POOL = 10_000;
  public static final long ORIGINAL_TRADE_SEED = 0x5452414445L;
  public static final long ORIGINAL_TRADE_NANO_BASE = 259_200_000_000_000L;
  public static final long ORIGINAL_TRADE_NANO_STEP = 250;
  /** Podam's NICE_ASCII_CHARACTERS. */
  public static final String ORIGINAL_TRADE_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
  private static final int ORIGINAL_TRADE_STRINGS = 12;

  /** The pool of random strings, drawn once, on first use, as the Go worker draws it. */
  private static final class OriginalStrings {
    static final String[] POOL = draw();

    private static String[] draw() {
      Pcg r = new Pcg(ORIGINAL_TRADE_SEED, 0x9e3779b97f4a7c15L);
      String[] pool = new String[ORIGINAL_TRADE_POOL * ORIGINAL_TRADE_STRINGS];
      char[] b = new char[ORIGINAL_TRADE_STRING_LEN];
      for (int s = 0; s < pool.length; s++) {
        for (int k = 0; k < b.length; k++) {
          b[k] = ORIGINAL_TRADE_ALPHABET.charAt(r.intN(ORIGINAL_TRADE_ALPHABET.length()));
        }
        pool[s] = new String(b);
      }
      return pool;
    }
  }

  /**
   * Trade i of a StreamOriginalTrades stream (contract.OriginalTradeAt): id is i in
   * decimal, externalId, info and str1 ... str10 are set i % ORIGINAL_TRADE_POOL of
   * the random strings, and long k is NANO_BASE + (10 i + k - 1) NANO_STEP.
   */
  public static OriginalTrade originalTradeAt(long i) {
    String[] p = OriginalStrings.POOL;
    int o = (int) (i % ORIGINAL_TRADE_POOL) * ORIGINAL_TRADE_STRINGS;
    long l = ORIGINAL_TRADE_NANO_BASE + 10 * i * ORIGINAL_TRADE_NANO_STEP;
    long d = ORIGINAL_TRADE_NANO_STEP;
    return new OriginalTrade(Long.toString(i), p[o], p[o + 1],
        p[o + 2], p[o + 3], p[o + 4], p[o + 5], p[o + 6], p[o + 7], p[o + 8], p[o + 9], p[o + 10], p[o + 11],
        l, l + d, l + 2 * d, l + 3 * d, l + 4 * d, l + 5 * d, l + 6 * d, l + 7 * d, l + 8 * d, l + 9 * d);
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
