package io.wirebench.engine;

/**
 * A normalized load model (load.Model): closed (concurrency calls in flight) or open
 * (arrivals at rate per second, constant or poisson, at most concurrency in flight),
 * the calls dealt round-robin over connections clients.
 */
public record LoadModel(String kind, int concurrency, int connections, double rate, String arrival) {
  /** The cap on an open model's calls in flight when none is set. */
  public static final int DEFAULT_MAX_IN_FLIGHT = 1000;

  public boolean open() {
    return "open".equals(kind);
  }

  /** Fills in defaults, or throws IllegalArgumentException naming the wrong setting. */
  public static LoadModel normalize(String kind, int concurrency, int connections, double rate, String arrival) {
    switch (kind) {
      case "closed" -> {
        if (concurrency < 1) {
          throw new IllegalArgumentException("closed model: concurrency " + concurrency + ", want at least 1");
        }
        if (rate != 0) {
          throw new IllegalArgumentException("closed model: a rate needs the open model");
        }
        arrival = "";
      }
      case "open" -> {
        if (!(rate > 0) || Double.isInfinite(rate)) {
          throw new IllegalArgumentException("open model: rate " + rate + ", want a positive number of ops per second");
        }
        if (arrival.isEmpty()) {
          arrival = "constant";
        }
        if (!arrival.equals("constant") && !arrival.equals("poisson")) {
          throw new IllegalArgumentException("open model: arrival \"" + arrival + "\", want constant or poisson");
        }
        if (concurrency == 0) {
          concurrency = DEFAULT_MAX_IN_FLIGHT;
        }
        if (concurrency < 1) {
          throw new IllegalArgumentException("open model: max in flight " + concurrency + ", want at least 1");
        }
      }
      default -> throw new IllegalArgumentException("load model \"" + kind + "\", want closed or open");
    }
    if (connections == 0) {
      connections = 1;
    }
    if (connections < 1 || connections > concurrency) {
      throw new IllegalArgumentException("connections " + connections + ", want 1 to " + concurrency
          + " (the calls in flight): a connection needs a caller");
    }
    return new LoadModel(kind, concurrency, connections, rate, arrival);
  }

  /**
   * This worker's part of a model shared by count client workers (ClientSetup
   * share_index of share_count): a closed model's calls in flight and connections, and
   * an open model's rate, are dealt between them, the remainders to the first shares.
   */
  public LoadModel share(int index, int count) {
    if (count <= 1) {
      return this;
    }
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException("share " + index + " of " + count + ": want an index from 0 to " + (count - 1));
    }
    if (open()) {
      return new LoadModel(kind, concurrency, connections, rate / count, arrival);
    }
    int c = deal(concurrency, index, count);
    if (c < 1) {
      throw new IllegalArgumentException("share " + index + " of " + count + " gets none of the "
          + concurrency + " calls in flight: use fewer client workers");
    }
    int conns = Math.max(1, Math.min(deal(connections, index, count), c));
    return new LoadModel(kind, c, conns, rate, arrival);
  }

  static int deal(int n, int index, int count) {
    return n / count + (index < n % count ? 1 : 0);
  }
}
