package io.wirebench.engine;

import io.wirebench.contract.Service;
import io.wirebench.contract.Workload;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a workload against clients under a load model, one phase at a time as its
 * owner asks (engine/engine.go's Session): the closed model keeps concurrency callers
 * calling back to back, caller i taking sequence numbers i, i+n, i+2n, ...; the open
 * model dispatches arrivals at their scheduled times to idle callers, at most
 * concurrency in flight, an arrival that finds every caller busy waiting for one (and
 * counted in overflow), its response time and lag counted from its scheduled time.
 *
 * <p>Each caller is a platform thread that lives as long as the session and blocks in
 * its calls. A call that outlives the call timeout is cut by interrupting its thread,
 * which every client stack turns into cancelling the call; {@link #stop} interrupts
 * every caller the same way.
 *
 * <p>Threads: {@link #phase} and {@link #close} belong to the owner's thread; {@link
 * #stop} may be called from any thread.
 */
public final class Session implements AutoCloseable {
  /** What a session runs. seqOffset and seqStride place its sequence numbers among other workers' (0 and 1 alone). */
  public record Config(Workload op, List<? extends Service> clients, LoadModel model, long callTimeoutNanos,
      long arrivalSeed, long seqOffset, long seqStride) {}

  /** Thrown by {@link #phase} when the session was stopped while the phase ran. */
  public static final class StoppedException extends Exception {
    public StoppedException() {
      super("the run was stopped", null, false, false);
    }
  }

  private static final long IDLE = Long.MIN_VALUE;
  private static final long CLAIMED = Long.MIN_VALUE + 1;
  /** Arrivals are woken on a grid of this step, so one wake-up starts every arrival due in it. */
  private static final long QUANTUM = 100_000;

  private final Config cfg;
  private final boolean open;
  private final Recorder[] recs;
  private final Caller[] callers;
  private final SynchronousQueue<Job> jobs = new SynchronousQueue<>();
  private final Thread watchdog;
  private volatile boolean stopping;
  private volatile Thread owner;

  // Open-model schedule, the owner's alone.
  private Pacer pacer;
  private double rate;
  private long begin;
  private boolean scheduled;
  private long pending = Long.MIN_VALUE; // an arrival drawn past a phase's end, for the next one
  private long nextSeq;

  public Session(Config cfg) {
    if (cfg.clients().size() != cfg.model().connections() || cfg.clients().isEmpty()) {
      throw new IllegalArgumentException(cfg.clients().size() + " clients for " + cfg.model().connections() + " connections");
    }
    this.cfg = cfg;
    this.open = cfg.model().open();
    this.rate = cfg.model().rate();
    int n = cfg.model().concurrency();
    recs = new Recorder[shards(n)];
    for (int i = 0; i < recs.length; i++) {
      recs[i] = new Recorder(open);
    }
    callers = new Caller[n];
    for (int i = 0; i < n; i++) {
      callers[i] = new Caller(i, cfg.clients().get(i % cfg.clients().size()), recs[i % recs.length]);
      callers[i].thread.start();
    }
    if (cfg.callTimeoutNanos() > 0) {
      watchdog = new Thread(this::watch, "wirebench-watchdog");
      watchdog.setDaemon(true);
      watchdog.start();
    } else {
      watchdog = null;
    }
  }

  /**
   * Shards of recorders: enough that the callers running at one moment (about one per
   * CPU) rarely meet on a lock, few enough that merging them at a phase end stays short.
   */
  static int shards(int callers) {
    return Math.max(1, Math.min(callers, Math.min(2 * Runtime.getRuntime().availableProcessors(), 32)));
  }

  /** Runs one phase and returns what it measured. */
  public Interval phase(PhaseSpec ph) throws StoppedException {
    if ((ph.durationNanos() > 0) == (ph.ops() > 0)) {
      throw new IllegalArgumentException("a phase needs exactly one of a duration and an op count");
    }
    if (ph.rate() < 0 || Double.isNaN(ph.rate()) || Double.isInfinite(ph.rate())) {
      throw new IllegalArgumentException("phase rate " + ph.rate() + ", want a positive rate (or 0 to keep the model's)");
    }
    if (ph.rate() > 0 && !open) {
      throw new IllegalArgumentException("a phase rate needs the open model");
    }
    owner = Thread.currentThread();
    if (stopping) {
      throw new StoppedException();
    }
    long start = System.nanoTime();
    if (open && (ph.restartSchedule() || ph.rate() > 0 || !scheduled)) {
      if (ph.rate() > 0) {
        rate = ph.rate();
      }
      pacer = Pacer.of(cfg.model().arrival(), rate, cfg.arrivalSeed());
      begin = start;
      pending = Long.MIN_VALUE;
      scheduled = true;
    }
    PhaseRun pr = new PhaseRun(ph, start, callers.length);
    for (Caller c : callers) {
      try {
        c.mailbox.put(pr); // callers are idle between phases: each takes it at once
      } catch (InterruptedException e) {
        throw new StoppedException();
      }
    }
    long overflow = 0;
    if (open) {
      overflow = dispatch(pr);
      for (int i = 0; i < callers.length && !stopping; i++) {
        try {
          jobs.put(Job.END); // each caller takes one once its call in flight is done
        } catch (InterruptedException e) {
          break;
        }
      }
    }
    try {
      pr.done.await();
    } catch (InterruptedException e) {
      // stop() interrupted the owner: fall through to the stopping check
    }
    Thread.interrupted();
    if (stopping) {
      throw new StoppedException();
    }
    long end = System.nanoTime(); // the last call's end: merging is not part of the phase
    Interval iv = new Interval(open);
    for (Recorder r : recs) {
      r.drainTo(iv);
    }
    iv.startUnixNanos = Clock.unixNanos(start);
    iv.endUnixNanos = Clock.unixNanos(end);
    iv.overflow = overflow;
    iv.firstErrors.putAll(pr.firstErrors);
    return iv;
  }

  /** Stops the session from any thread: calls in flight are cancelled, a running phase throws StoppedException. */
  public void stop() {
    stopping = true;
    for (Caller c : callers) {
      c.thread.interrupt();
    }
    Thread o = owner;
    if (o != null) {
      o.interrupt();
    }
    if (watchdog != null) {
      watchdog.interrupt();
    }
  }

  /** Stops the session and waits (briefly) for its threads; the clients stay open. */
  @Override
  public void close() {
    stop();
    for (Caller c : callers) {
      try {
        c.thread.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Hands arrivals to idle callers on schedule; returns the count that found every caller busy. */
  private long dispatch(PhaseRun pr) {
    long deadline = pr.spec.durationNanos() > 0 ? pr.start + pr.spec.durationNanos() : 0;
    long ops = pr.spec.ops();
    long overflow = 0;
    for (long n = 0; ops == 0 || n < ops; n++) {
      long at = nextArrival();
      if (deadline != 0 && at - deadline >= 0) {
        pending = at; // it belongs to the next phase
        return overflow;
      }
      if (!sleepUntil(at)) {
        return overflow;
      }
      Job j = new Job(cfg.seqOffset() + cfg.seqStride() * nextSeq++, at);
      if (jobs.offer(j)) {
        continue;
      }
      overflow++;
      try {
        jobs.put(j);
      } catch (InterruptedException e) {
        return overflow;
      }
    }
    return overflow;
  }

  private long nextArrival() {
    if (pending != Long.MIN_VALUE) {
      long p = pending;
      pending = Long.MIN_VALUE;
      return p;
    }
    return begin + pacer.next();
  }

  /** Sleeps until at, rounded up to the schedule's QUANTUM grid; false when stopping. */
  private boolean sleepUntil(long at) {
    long off = Math.floorMod(at - begin, QUANTUM);
    if (off > 0) {
      at += QUANTUM - off;
    }
    long wait;
    while ((wait = at - System.nanoTime()) > 0) {
      if (stopping) {
        return false;
      }
      LockSupport.parkNanos(wait);
    }
    return !stopping;
  }

  private void watch() {
    long limit = cfg.callTimeoutNanos();
    long tick = Math.max(limit / 20, 1_000_000);
    while (!stopping) {
      LockSupport.parkNanos(tick);
      long now = System.nanoTime();
      for (Caller c : callers) {
        long s = c.started.get();
        if (s == IDLE || s == CLAIMED || now - s <= limit) {
          continue;
        }
        if (c.started.compareAndSet(s, CLAIMED)) {
          c.thread.interrupt();
          c.delivered = true;
        }
      }
    }
  }

  /** One phase's shared state. */
  private static final class PhaseRun {
    final PhaseSpec spec;
    final long start;
    final long deadline;
    final AtomicLong budget;
    final CountDownLatch done;
    final Map<String, String> firstErrors = new ConcurrentHashMap<>();

    PhaseRun(PhaseSpec spec, long start, int callers) {
      this.spec = spec;
      this.start = start;
      this.deadline = spec.durationNanos() > 0 ? start + spec.durationNanos() : 0;
      this.budget = spec.ops() > 0 ? new AtomicLong(spec.ops()) : null;
      this.done = new CountDownLatch(callers);
    }
  }

  private record Job(long seq, long intended) {
    static final Job END = new Job(0, 0);
  }

  /** One caller: its thread, client, recorder shard and timeout state. */
  private final class Caller {
    final int index;
    final Service client;
    final Recorder rec;
    final Thread thread;
    final SynchronousQueue<PhaseRun> mailbox = new SynchronousQueue<>();
    /** The start of the call in flight (nanoTime), IDLE, or CLAIMED by the watchdog. */
    final AtomicLong started = new AtomicLong(IDLE);
    /** Set by the watchdog once its interrupt of a claimed call is delivered. */
    volatile boolean delivered;
    long next; // the closed model's next k: this caller's next seq is offset + stride*(index + k*n)

    Caller(int index, Service client, Recorder rec) {
      this.index = index;
      this.client = client;
      this.rec = rec;
      this.next = index;
      this.thread = new Thread(this::loop, "wirebench-caller-" + index);
      this.thread.setDaemon(true);
    }

    private void loop() {
      while (!stopping) {
        PhaseRun pr;
        try {
          pr = mailbox.take();
        } catch (InterruptedException e) {
          continue; // stopping, or a late timeout interrupt: the loop condition decides
        }
        try {
          if (open) {
            serveJobs(pr);
          } else {
            closedLoop(pr);
          }
        } finally {
          pr.done.countDown();
        }
      }
    }

    private void closedLoop(PhaseRun pr) {
      long n = callers.length;
      long now = System.nanoTime();
      while (!stopping) {
        if (pr.deadline != 0 && now - pr.deadline >= 0) {
          return;
        }
        if (pr.budget != null && pr.budget.decrementAndGet() < 0) {
          return;
        }
        now = call(pr, cfg.seqOffset() + cfg.seqStride() * next, Long.MIN_VALUE);
        next += n;
      }
    }

    private void serveJobs(PhaseRun pr) {
      while (!stopping) {
        Job j;
        try {
          j = jobs.take();
        } catch (InterruptedException e) {
          continue;
        }
        if (j == Job.END) {
          return;
        }
        call(pr, j.seq(), j.intended());
      }
    }

    /** Makes one call intended at intended (MIN_VALUE: at its start), records it, returns its end. */
    private long call(PhaseRun pr, long seq, long intended) {
      boolean timed = watchdog != null;
      long start = System.nanoTime();
      if (timed) {
        started.set(start);
      }
      Throwable err = null;
      try {
        cfg.op().run(client, seq);
      } catch (Throwable t) {
        err = t;
      }
      long end = System.nanoTime();
      boolean timedOut = timed && !started.compareAndSet(start, IDLE);
      if (timedOut) {
        while (!delivered) {
          Thread.onSpinWait(); // the watchdog claimed the call and is about to interrupt
        }
        delivered = false;
        started.set(IDLE);
      }
      Thread.interrupted(); // a timeout's interrupt must not reach the next call
      if (intended == Long.MIN_VALUE) {
        intended = start; // closed model: a call is due when it starts
      }
      if (err == null && !timedOut) {
        rec.record(intended, start, end);
        return end;
      }
      if (stopping) {
        return end; // the phase is discarded anyway
      }
      String kind;
      String text;
      if (timedOut) {
        kind = ErrorKinds.TIMEOUT;
        text = err == null ? "call timeout: answered after " + (end - start) / 1000 + "µs" : "call timeout: " + err;
      } else {
        kind = ErrorKinds.classify(err);
        text = err.toString();
      }
      rec.error(kind);
      pr.firstErrors.putIfAbsent(kind, text);
      return end;
    }
  }
}
