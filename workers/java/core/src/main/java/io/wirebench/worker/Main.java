package io.wirebench.worker;

import io.grpc.Server;
import io.wirebench.contract.Contract;
import io.wirebench.contract.Dataset;
import io.wirebench.contract.Reference;
import io.wirebench.stack.Address;
import io.wirebench.stack.ByteCounter;
import io.wirebench.stack.Options;
import io.wirebench.stack.Stack;
import io.wirebench.stack.Stacks;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The JVM worker's command line:
 *
 * <pre>
 * worker --listen ADDR        serve the control API (exits on Quit, or when stdin ends)
 * serve  --stack NAME --protocol P --listen ADDR [--data-size N] [--data-seed S]
 *        [--max-message-size B] [--option K=V ...]
 * check  --stack NAME --protocol P --target ADDR [--data-size N] [--data-seed S]
 *        [--max-message-size B] [--option K=V ...]
 * list                        the stacks, their sides and transports
 * </pre>
 *
 * worker and serve print exactly one line on stdout, "listening on ADDR", once they
 * accept connections; everything else goes to stderr. Exit status 2 is a usage error.
 */
public final class Main {
  private Main() {}

  static final String VERSION = versionOf();

  private static String versionOf() {
    String v = Main.class.getPackage().getImplementationVersion();
    return "wirebench-worker-java " + (v == null ? "dev" : v);
  }

  public static void main(String[] args) {
    if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
      usage(System.out);
      System.exit(args.length == 0 ? 2 : 0);
    }
    try {
      Flags f = Flags.parse(args);
      switch (args[0]) {
        case "worker" -> worker(f);
        case "serve" -> serve(f);
        case "check" -> System.exit(check(f));
        case "list" -> list();
        default -> throw new UsageException("unknown command \"" + args[0] + "\"");
      }
    } catch (UsageException e) {
      System.err.println("wirebench-worker: " + e.getMessage());
      System.err.println("run with --help for usage");
      System.exit(2);
    } catch (Exception e) {
      System.err.println("wirebench-worker: " + e);
      System.exit(1);
    }
  }

  private static void usage(PrintStream out) {
    out.println("usage: java -jar wirebench-worker.jar COMMAND [flags]");
    out.println("  worker --listen ADDR        serve the control API; exits on Quit or when stdin ends");
    out.println("  serve  --stack NAME --protocol P --listen ADDR [--data-size N] [--data-seed S]");
    out.println("         [--max-message-size B] [--option K=V ...]      serve one stack");
    out.println("  check  --stack NAME --protocol P --target ADDR [same data flags] [--option K=V ...]");
    out.println("                              run the contract checks with a client stack against a server");
    out.println("  list                        the stacks of this worker");
    out.println("ADDR is tcp://HOST:PORT (port 0 picks a free one) or unix:///PATH");
  }

  private static void worker(Flags f) throws Exception {
    Address listen = f.address("listen", "tcp://127.0.0.1:0");
    f.done();
    WorkerService svc = new WorkerService(VERSION);
    Server server = ControlServer.start(listen, svc);
    CountDownLatch quit = svc.quitLatch();
    // The driver holds a pipe on stdin: when it dies, even by SIGKILL, the pipe ends and so does the worker.
    Thread stdin = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // keep reading until EOF
        }
      } catch (IOException e) {
        // a broken stdin is an ended one
      }
      quit.countDown();
    }, "wirebench-stdin");
    stdin.setDaemon(true);
    stdin.start();
    System.out.println("listening on " + ControlServer.bound(server, listen));
    System.out.flush();
    quit.await();
    server.shutdown(); // lets the Quit answer go out
    if (!server.awaitTermination(1, TimeUnit.SECONDS)) {
      server.shutdownNow();
    }
    System.exit(0);
  }

  private static void serve(Flags f) throws Exception {
    Stack stack = Stacks.lookup(f.required("protocol"), f.required("stack"), true);
    Address listen = f.address("listen", "tcp://127.0.0.1:8080");
    Dataset ds = f.dataset();
    int limit = f.messageLimit();
    Map<String, String> opts = f.options();
    f.done();
    Stack.RunningServer server;
    try {
      server = stack.startServer(new Reference(ds), new Stack.ServerConfig(listen, limit, opts));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    System.out.println("listening on " + server.address());
    System.out.flush();
    new CountDownLatch(1).await(); // until SIGINT or SIGTERM
  }

  private static int check(Flags f) throws Exception {
    Stack stack = Stacks.lookup(f.required("protocol"), f.required("stack"), false);
    Address target = Address.parse(f.required("target"));
    Dataset ds = f.dataset();
    int limit = f.messageLimit();
    Map<String, String> opts = f.options();
    f.done();
    Stack.Client client;
    try {
      client = stack.connect(new Stack.ClientConfig(target, limit, opts, new ByteCounter()));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    try (client) {
      List<String> failures = Conformance.run(client, ds, System.err::println);
      System.err.println(failures.isEmpty() ? "check: " + stack.protocol() + "/" + stack.name() + " against " + target + ": conforms"
          : "check: " + failures.size() + " checks failed");
      return failures.isEmpty() ? 0 : 1;
    }
  }

  private static void list() {
    for (Stack s : Stacks.all()) {
      String sides = s.hasServer() && s.hasClient() ? "server, client" : s.hasServer() ? "server" : "client";
      System.out.println(s.protocol() + "/" + s.name() + "\t" + sides + "\t" + String.join(", ", new java.util.TreeSet<>(s.transports()))
          + (s.serverOptions().isEmpty() && s.clientOptions().isEmpty() ? "" : "\toptions: " + String.join(", ", s.clientOptions())));
    }
  }

  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  /** --name value and --name=value flags after the command; --option may repeat. */
  static final class Flags {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<String> options = new ArrayList<>();

    static Flags parse(String[] args) throws UsageException {
      Flags f = new Flags();
      for (int i = 1; i < args.length; i++) {
        String a = args[i];
        if (!a.startsWith("--")) {
          throw new UsageException("unexpected argument \"" + a + "\"");
        }
        String name = a.substring(2);
        String value;
        int eq = name.indexOf('=');
        if (eq >= 0) {
          value = name.substring(eq + 1);
          name = name.substring(0, eq);
        } else if (i + 1 < args.length) {
          value = args[++i];
        } else {
          throw new UsageException("flag --" + name + " needs a value");
        }
        if (name.equals("option")) {
          f.options.add(value);
        } else if (f.values.put(name, value) != null) {
          throw new UsageException("flag --" + name + " given twice");
        }
      }
      return f;
    }

    String required(String name) throws UsageException {
      String v = values.remove(name);
      if (v == null) {
        throw new UsageException("flag --" + name + " is required");
      }
      return v;
    }

    Address address(String name, String def) throws UsageException {
      String v = values.remove(name);
      try {
        return Address.parse(v == null ? def : v);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--" + name + ": " + e.getMessage());
      }
    }

    Dataset dataset() throws UsageException {
      try {
        String size = values.remove("data-size");
        String seed = values.remove("data-seed");
        return Dataset.of(seed == null ? Contract.DEFAULT_SEED : Long.parseUnsignedLong(seed),
            size == null ? Contract.DEFAULT_SIZE : Integer.parseInt(size));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--data-size/--data-seed: " + e.getMessage());
      }
    }

    int messageLimit() throws UsageException {
      String v = values.remove("max-message-size");
      if (v == null) {
        return Contract.DEFAULT_MAX_MESSAGE_SIZE;
      }
      try {
        long n = Options.parseSize(v);
        if (n < 1 || n > Integer.MAX_VALUE - 16) {
          throw new IllegalArgumentException("want 1 byte to 2GiB");
        }
        return (int) n;
      } catch (IllegalArgumentException e) {
        throw new UsageException("--max-message-size: " + e.getMessage());
      }
    }

    Map<String, String> options() throws UsageException {
      Map<String, String> m = new TreeMap<>();
      for (String kv : options) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new UsageException("--option " + kv + ": want KEY=VALUE");
        }
        m.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
      return m;
    }

    void done() throws UsageException {
      if (!values.isEmpty()) {
        throw new UsageException("unknown flag --" + values.keySet().iterator().next());
      }
    }
  }
}
