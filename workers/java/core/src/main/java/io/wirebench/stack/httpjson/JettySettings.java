package io.wirebench.stack.httpjson;

import io.wirebench.stack.Options;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The Jetty settings the REST vs gRPC original gave its server (AlexeyPirogov/RestVsGrpc,
 * src/main/java/com/benchmark/jetty/JettyServer.java), as server options of jetty-jackson:
 *
 * <ul>
 *   <li>max_threads, min_threads, thread_idle_timeout: the server's QueuedThreadPool,
 *       {@code new QueuedThreadPool(maxThreads, minThreads, idleTimeout)}, the
 *       constructor the original called as {@code QueuedThreadPool(100, 10, 120)}.
 *       Jetty reads its third argument in milliseconds (Jetty 9.4 as Jetty 12), so the
 *       original's pool let a thread above the ten kept go after 120 ms idle;
 *       thread_idle_timeout takes a duration as the Go side writes one (120ms, 60s).
 *   <li>output_buffer_size: {@code HttpConfiguration.setOutputBufferSize}, the bytes a
 *       response is buffered up to before Jetty writes them (the original's 8100;
 *       Jetty's default is 32768): a streamed answer goes out in chunks of at most that,
 *       as Jetty's buffer pool rounds it (8100 gives chunks of 8192 on Jetty 12.1).
 * </ul>
 *
 * An option left out keeps Jetty's default: a QueuedThreadPool of 8 to 200 threads with
 * a 60 s idle timeout, an output buffer of 32 KiB. Any pool option gives the server a pool
 * of its own, the others at those defaults.
 */
record JettySettings(Integer maxThreads, Integer minThreads, Integer idleTimeoutMs, Integer outputBufferSize) {
  static final String MAX_THREADS = "max_threads";
  static final String MIN_THREADS = "min_threads";
  static final String THREAD_IDLE_TIMEOUT = "thread_idle_timeout";
  static final String OUTPUT_BUFFER_SIZE = "output_buffer_size";
  static final List<String> NAMES = List.of(MAX_THREADS, MIN_THREADS, THREAD_IDLE_TIMEOUT, OUTPUT_BUFFER_SIZE);

  /** Jetty's defaults: QueuedThreadPool() and HttpConfiguration's. */
  static final int DEFAULT_MAX_THREADS = 200;
  static final int DEFAULT_MIN_THREADS = 8;
  static final int DEFAULT_IDLE_TIMEOUT_MS = 60_000;

  /** The most threads or buffer bytes an option may ask for: past them a typo, not a setting. */
  static final int MOST_THREADS = 10_000;
  static final long MOST_BUFFER = 64L << 20;

  static JettySettings parse(String stack, Map<String, String> opts) {
    Options.check(stack, opts, NAMES);
    Integer max = count(stack, MAX_THREADS, opts.get(MAX_THREADS), 1);
    Integer min = count(stack, MIN_THREADS, opts.get(MIN_THREADS), 0);
    int effMax = max != null ? max : DEFAULT_MAX_THREADS;
    int effMin = min != null ? min : DEFAULT_MIN_THREADS;
    if (effMin > effMax) {
      throw new IllegalArgumentException(stack + ": option " + MIN_THREADS + " (" + effMin + (min == null ? ", Jetty's default" : "")
          + ") is more than " + MAX_THREADS + " (" + effMax + (max == null ? ", Jetty's default" : "") + ")");
    }
    Integer idle = null;
    String t = opts.get(THREAD_IDLE_TIMEOUT);
    if (t != null) {
      long ns = Options.parseDuration(stack, THREAD_IDLE_TIMEOUT, t);
      if (ns < 1_000_000 || ns % 1_000_000 != 0 || ns / 1_000_000 > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(stack + ": option " + THREAD_IDLE_TIMEOUT
            + ": want a whole number of milliseconds from 1ms (Jetty's unit), such as 120ms or 60s, got \"" + t + "\"");
      }
      idle = (int) (ns / 1_000_000);
    }
    Integer buffer = null;
    String b = opts.get(OUTPUT_BUFFER_SIZE);
    if (b != null) {
      long n;
      try {
        n = Options.parseSize(b);
      } catch (IllegalArgumentException e) {
        n = -1;
      }
      if (n < 1 || n > MOST_BUFFER) {
        throw new IllegalArgumentException(stack + ": option " + OUTPUT_BUFFER_SIZE
            + ": want a size from 1B to 64MiB such as 8100 or 32KiB, got \"" + b + "\"");
      }
      buffer = (int) n;
    }
    return new JettySettings(max, min, idle, buffer);
  }

  /** A whole number of threads from least to MOST_THREADS; null when v is. */
  private static Integer count(String stack, String name, String v, int least) {
    if (v == null) {
      return null;
    }
    int n;
    try {
      n = Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < least || n > MOST_THREADS) {
      throw new IllegalArgumentException(stack + ": option " + name + ": want a whole number of threads from " + least
          + " to " + MOST_THREADS + ", got \"" + v + "\"");
    }
    return n;
  }

  /** A server on the pool these settings ask for, or on Jetty's default pool when they name none. */
  Server server() {
    if (maxThreads == null && minThreads == null && idleTimeoutMs == null) {
      return new Server();
    }
    return new Server(new QueuedThreadPool(maxThreads != null ? maxThreads : DEFAULT_MAX_THREADS,
        minThreads != null ? minThreads : DEFAULT_MIN_THREADS, idleTimeoutMs != null ? idleTimeoutMs : DEFAULT_IDLE_TIMEOUT_MS));
  }

  /** An HttpConfiguration with Jetty's defaults but for the output buffer, when set. */
  HttpConfiguration httpConfiguration() {
    HttpConfiguration http = new HttpConfiguration();
    if (outputBufferSize != null) {
      http.setOutputBufferSize(outputBufferSize);
    }
    return http;
  }
}
