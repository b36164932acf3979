package io.wirebench.worker;

import io.wirebench.control.v1.LinkProfile;
import io.wirebench.stack.Address;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The link proxy a client run puts between itself and its target, as the Go worker does
 * (worker/linkproc.go): {@code wirebench link} as a child process, on the worker's CPUs
 * (a child inherits the affinity), so that its CPU is read apart from the load
 * generator's. The JVM cannot ask the kernel to kill a child when the parent dies, so
 * the proxy runs with {@code --exit-with-stdin} and this process holds its stdin: when
 * the JVM ends, however it ends, the pipe closes and the proxy exits. Owned by one
 * thread.
 */
final class LinkProc implements AutoCloseable {
  /** How long the proxy may take to print its address. */
  static final long START_TIMEOUT_SECONDS = 10;

  private final Process proc;
  private final Tail stderr;
  private final Address addr;
  /** The last CPU reading; phaseCpuNanos returns the difference from it. */
  private long cpu;

  private LinkProc(Process proc, Tail stderr, Address addr) {
    this.proc = proc;
    this.stderr = stderr;
    this.addr = addr;
  }

  /** The address the client dials instead of the target. */
  Address address() {
    return addr;
  }

  /**
   * Starts {@code binary link} forwarding to target (a tcp address) with the profile's delay,
   * jitter and rate. IllegalArgumentException: a target that is not tcp; IOException: the
   * proxy could not start or did not report its address.
   */
  static LinkProc start(Path binary, Address target, LinkProfile lp) throws IOException, InterruptedException {
    if (target.isUnix()) {
      throw new IllegalArgumentException("a link needs a tcp target, not " + target);
    }
    List<String> argv = List.of(binary.toString(), "link", "--exit-with-stdin", "--listen", "tcp://127.0.0.1:0",
        "--upstream", target.toString(), "--link", profile(lp));
    Process p = new ProcessBuilder(argv).start();
    Tail err = new Tail(p.getErrorStream());
    CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> firstLine(p.getInputStream()), LinkProc::daemon);
    String line;
    try {
      line = first.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      p.destroyForcibly();
      throw new IOException("link proxy: it did not report its address within " + START_TIMEOUT_SECONDS + " s" + err.said());
    } catch (ExecutionException e) {
      p.destroyForcibly();
      throw new IOException("link proxy: " + e.getCause() + err.said());
    } catch (InterruptedException e) {
      p.destroyForcibly();
      throw e;
    }
    String prefix = "listening on ";
    if (line == null || !line.startsWith(prefix)) {
      p.destroyForcibly();
      waitQuietly(p);
      throw new IOException("link proxy " + argv + ": it printed " + (line == null ? "nothing" : "\"" + line + "\"")
          + " instead of its address" + err.said());
    }
    Address a;
    try {
      a = Address.parse(line.substring(prefix.length()).trim());
    } catch (IllegalArgumentException e) {
      p.destroyForcibly();
      throw new IOException("link proxy: " + e.getMessage());
    }
    LinkProc l = new LinkProc(p, err, a);
    l.cpu = l.cpuNanos();
    return l;
  }

  /**
   * The profile in the form {@code wirebench link --link} reads (link.Parse): durations in
   * nanoseconds and the rate in bits, exact, "none" when all are 0.
   */
  static String profile(LinkProfile lp) {
    List<String> parts = new ArrayList<>();
    if (lp.getDelayNanos() > 0) {
      parts.add("delay=" + lp.getDelayNanos() + "ns");
    }
    if (lp.getJitterNanos() > 0) {
      parts.add("jitter=" + lp.getJitterNanos() + "ns");
    }
    if (lp.getRateBitsPerSecond() > 0) {
      parts.add("rate=" + lp.getRateBitsPerSecond() + "bit");
    }
    return parts.isEmpty() ? "none" : String.join(",", parts);
  }

  /**
   * The proxy's CPU (user + system, all its threads) since the last call, from the
   * kernel's accounting of the child (/proc/PID/stat, in clock ticks, through
   * ProcessHandle). IOException when the proxy has died.
   */
  long phaseCpuNanos() throws IOException {
    long now = cpuNanos();
    long d = now - cpu;
    cpu = now;
    return d;
  }

  private long cpuNanos() throws IOException {
    if (!proc.isAlive()) {
      throw new IOException("link proxy exited with status " + proc.exitValue() + stderr.said());
    }
    Duration d = proc.toHandle().info().totalCpuDuration()
        .orElseThrow(() -> new IOException("link proxy: its CPU time cannot be read (/proc/" + proc.pid() + "/stat)"));
    return d.toNanos();
  }

  /** Stops the proxy and waits for it to exit. */
  @Override
  public void close() {
    proc.destroyForcibly();
    waitQuietly(proc);
  }

  private static void waitQuietly(Process p) {
    try {
      p.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String firstLine(InputStream in) {
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String line;
    try {
      line = r.readLine();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    // Keep the pipe drained, so the proxy never blocks writing to it.
    Thread t = new Thread(() -> drain(r), "wirebench-link-stdout");
    t.setDaemon(true);
    t.start();
    return line;
  }

  private static void drain(BufferedReader r) {
    try {
      while (r.readLine() != null) {
        // discarded
      }
    } catch (IOException e) {
      // the proxy has gone
    }
  }

  private static void daemon(Runnable r) {
    Thread t = new Thread(r, "wirebench-link-start");
    t.setDaemon(true);
    t.start();
  }

  /** The last few KiB the proxy wrote on stderr, kept to explain its failures. */
  private static final class Tail {
    private static final int KEEP = 8 << 10;
    private final StringBuilder buf = new StringBuilder();

    Tail(InputStream in) {
      Thread t = new Thread(() -> {
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        try {
          String line;
          while ((line = r.readLine()) != null) {
            synchronized (buf) {
              buf.append(line).append('\n');
              if (buf.length() > KEEP) {
                buf.delete(0, buf.length() - KEEP);
              }
            }
          }
        } catch (IOException e) {
          // the proxy has gone
        }
      }, "wirebench-link-stderr");
      t.setDaemon(true);
      t.start();
    }

    /** ": " and what the proxy said on stderr, or "" when it said nothing. */
    String said() {
      synchronized (buf) {
        String s = buf.toString().strip();
        return s.isEmpty() ? "" : ": " + s;
      }
    }
  }
}
