package io.wirebench.stack;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Stack options, by name (snake_case), in the Go side's style: sizes read like 64KiB
 * or 1MiB (internal/units), booleans as Go's strconv.ParseBool reads them; a stack
 * refuses names it does not know, naming those it does.
 */
public final class Options {
  private Options() {}

  /** Throws IllegalArgumentException for the first name of opts not in known. */
  public static void check(String stack, Map<String, String> opts, List<String> known) {
    for (String k : new TreeSet<>(opts.keySet())) {
      if (!known.contains(k)) {
        throw new IllegalArgumentException(stack + ": unknown option \"" + k + "\" (known: "
            + (known.isEmpty() ? "none: " + stack + " takes no options" : String.join(", ", known)) + ")");
      }
    }
  }

  /** Go's strconv.ParseBool. */
  public static boolean parseBool(String stack, String name, String v) {
    switch (v) {
      case "1", "t", "T", "TRUE", "true", "True":
        return true;
      case "0", "f", "F", "FALSE", "false", "False":
        return false;
      default:
        throw new IllegalArgumentException(stack + ": option " + name + ": want true or false, got \"" + v + "\"");
    }
  }

  private static final java.util.regex.Pattern DURATION_PART =
      java.util.regex.Pattern.compile("([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h)");

  /**
   * A duration as Go's time.ParseDuration reads one without a sign ("120ms", "60s",
   * "1m30s", "1.5s"), in nanoseconds; IllegalArgumentException naming the stack and
   * option otherwise (a bare number has no unit, and is refused as Go refuses it).
   */
  public static long parseDuration(String stack, String name, String v) {
    String t = v.trim();
    java.util.regex.Matcher m = DURATION_PART.matcher(t);
    double ns = 0;
    int at = 0;
    while (at < t.length() && m.find(at) && m.start() == at) {
      double unit = switch (m.group(2)) {
        case "ns" -> 1;
        case "us", "µs", "μs" -> 1e3;
        case "ms" -> 1e6;
        case "s" -> 1e9;
        case "m" -> 60e9;
        default -> 3600e9;
      };
      ns += Double.parseDouble(m.group(1)) * unit;
      at = m.end();
    }
    if (t.isEmpty() || at != t.length() || ns > (double) Long.MAX_VALUE) {
      throw new IllegalArgumentException(stack + ": option " + name + ": want a duration such as 120ms, 60s or 1m30s, got \"" + v + "\"");
    }
    return Math.round(ns);
  }

  private static final String[] SUFFIXES = {"GiB", "MiB", "KiB", "GB", "MB", "KB", "G", "M", "K", "B"};
  private static final long[] MULTS = {1L << 30, 1L << 20, 1L << 10, 1L << 30, 1L << 20, 1L << 10, 1L << 30, 1L << 20, 1L << 10, 1};

  /** A size as internal/units.ParseSize reads it: "11", "1KiB", "1.5MiB", "4 MiB" (KB is read as KiB). */
  public static long parseSize(String s) {
    String t = s.trim();
    long mult = 1;
    for (int i = 0; i < SUFFIXES.length; i++) {
      String suf = SUFFIXES[i];
      if (t.length() > suf.length() && t.substring(t.length() - suf.length()).toLowerCase(Locale.ROOT)
          .equals(suf.toLowerCase(Locale.ROOT))) {
        t = t.substring(0, t.length() - suf.length()).trim();
        mult = MULTS[i];
        break;
      }
    }
    double f;
    try {
      f = Double.parseDouble(t);
    } catch (NumberFormatException e) {
      f = -1;
    }
    if (!(f >= 0) || t.isEmpty() || !Character.isDigit(t.charAt(t.length() - 1)) || f * mult > (double) (1L << 50)) {
      throw new IllegalArgumentException("size \"" + s + "\": want a number of bytes such as 11, 1KiB, 100KiB or 4MiB");
    }
    double n = f * mult;
    if (n != Math.floor(n)) {
      throw new IllegalArgumentException("size \"" + s + "\" is not a whole number of bytes");
    }
    return (long) n;
  }
}
