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
import io.wirebench.stack.Tls;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The JVM worker's command line (picocli): worker, serve, check and list.
 *
 * <p>What the Go driver relies on (launch/java.go, stack/jvm): {@code worker --listen
 * unix:///PATH} prints exactly one line on stdout, "listening on ADDR", once it accepts
 * connections, and exits 0 on Quit or when its stdin ends; serve prints the same line. Everything
 * else goes to stderr. Exit status 0 is success, 1 a failure (a failed contract check, a server
 * that could not start), 2 a usage error (bad flags, an unknown stack, a setup the stack refuses).
 */
@Command(name = "wirebench-worker", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    synopsisSubcommandLabel = "COMMAND",
    description = "wirebench's JVM worker: the control API the Go driver drives, and each Java and Scala "
        + "stack of this jar served or checked on its own.",
    subcommands = {Main.Worker.class, Main.Serve.class, Main.Check.class, Main.ListStacks.class, HelpCommand.class},
    footer = {"", "ADDR is tcp://HOST:PORT (port 0 picks a free one) or unix:///PATH.",
        "Exit status: 0 success, 1 failure, 2 usage error. docs/java-worker.md has the details."})
public final class Main implements Callable<Integer> {
  static final String VERSION = versionOf();

  /** The exit status of a usage error; the other two are picocli's defaults (0 and 1). */
  static final int USAGE = 2;

  @Spec
  CommandSpec spec;

  private static String versionOf() {
    String v = Main.class.getPackage().getImplementationVersion();
    return "wirebench-worker-java " + (v == null ? "dev" : v);
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line with this worker's error handling; execute returns the exit status. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setParameterExceptionHandler(Main::usageError);
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("wirebench-worker: " + e);
      cmd.getErr().flush();
      return cmd.getCommandSpec().exitCodeOnExecutionException();
    });
    return cl;
  }

  /** One line saying what is wrong (and what was meant, for a misspelt name), then where help is. */
  private static int usageError(ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println("wirebench-worker: " + e.getMessage());
    UnmatchedArgumentException.printSuggestions(e, err);
    err.println("run '" + cmd.getCommandSpec().qualifiedName() + " --help' for usage");
    err.flush();
    return USAGE;
  }

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "a command is required: worker, serve, check or list");
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {VERSION};
    }
  }

  @Command(name = "worker", mixinStandardHelpOptions = true,
      description = {"Serve the control API (control/controlpb/control.proto) for a driver.",
          "Prints \"listening on ADDR\" on stdout once it accepts calls; exits on Quit or when stdin ends."})
  static final class Worker implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--listen", paramLabel = "ADDR", defaultValue = "tcp://127.0.0.1:0", converter = AddressConverter.class,
        description = "where to serve the control API (default: ${DEFAULT-VALUE})")
    Address listen;

    @Option(names = "--wirebench", paramLabel = "PATH",
        description = {"the wirebench executable: a client behind a link (ClientSetup.link) connects through its "
            + "`link` command, started as a child process. Without it the worker does not implement links."})
    Path wirebench;

    @Override
    public Integer call() throws Exception {
      if (wirebench != null && !Files.isExecutable(wirebench)) {
        throw new ParameterException(spec.commandLine(), "--wirebench " + wirebench + ": not an executable file");
      }
      WorkerService svc = new WorkerService(VERSION, wirebench);
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
      return 0;
    }
  }

  /** The flags serve and check share: the stack, its data set, its message limit and its options. */
  static final class StackFlags {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--stack", required = true, paramLabel = "NAME", description = "the stack (list shows them)")
    String stack;

    @Option(names = "--protocol", required = true, paramLabel = "P", description = "its protocol, e.g. http-json, grpc-proto")
    String protocol;

    @Option(names = "--data-size", paramLabel = "N", description = "persons in the data set (default: ${DEFAULT-VALUE})")
    int dataSize = Contract.DEFAULT_SIZE;

    @Option(names = "--data-seed", paramLabel = "S", converter = SeedConverter.class,
        description = "the data set's seed, 0 to 2^64-1 (default: ${DEFAULT-VALUE})")
    long dataSeed = Contract.DEFAULT_SEED;

    @Option(names = "--max-message-size", paramLabel = "SIZE", converter = LimitConverter.class,
        description = "the largest message, in bytes or as 4MiB, 100KiB (default: ${DEFAULT-VALUE} bytes)")
    int maxMessageSize = Contract.DEFAULT_MAX_MESSAGE_SIZE;

    @Option(names = "--option", paramLabel = "KEY=VALUE",
        description = "a stack option (may repeat); a stack refuses names it does not know")
    Map<String, String> options = new TreeMap<>();

    Stack lookup(boolean server) {
      try {
        return Stacks.lookup(protocol, stack, server);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(mixee.commandLine(), e.getMessage(), e, null, stack);
      }
    }

    Dataset dataset() {
      try {
        return Dataset.of(dataSeed, dataSize);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(mixee.commandLine(), "--data-size: " + e.getMessage(), e, null, Integer.toString(dataSize));
      }
    }

    /** The options, each KEY=VALUE with a key. */
    Map<String, String> options() {
      for (Map.Entry<String, String> kv : options.entrySet()) {
        if (kv.getKey().isEmpty()) {
          throw new ParameterException(mixee.commandLine(), "--option =" + kv.getValue() + ": want KEY=VALUE, with a key");
        }
      }
      return options;
    }

    /** e, a stack refusing this setup, as the usage error it is. */
    ParameterException refused(IllegalArgumentException e) {
      return new ParameterException(mixee.commandLine(), e.getMessage(), e, null, stack);
    }
  }

  @Command(name = "serve", mixinStandardHelpOptions = true,
      description = {"Serve one server stack of this jar until SIGINT or SIGTERM.",
          "Prints \"listening on ADDR\" on stdout once it accepts connections."})
  static final class Serve implements Callable<Integer> {
    @Mixin
    StackFlags flags;

    @Option(names = "--listen", paramLabel = "ADDR", defaultValue = "tcp://127.0.0.1:8080", converter = AddressConverter.class,
        description = "where to serve (default: ${DEFAULT-VALUE})")
    Address listen;

    @Option(names = "--tls-cert", paramLabel = "FILE",
        description = "serve TLS 1.3 with this PEM certificate chain (leaf first); needs --tls-key")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "the PEM PKCS#8 private key of --tls-cert")
    Path tlsKey;

    @Override
    public Integer call() throws Exception {
      Stack stack = flags.lookup(true);
      Dataset ds = flags.dataset();
      Stack.RunningServer server;
      try {
        Tls.Server tls = null;
        if (tlsCert != null || tlsKey != null) {
          if (tlsCert == null || tlsKey == null) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together");
          }
          tls = new Tls.Server(readFile(tlsCert, "--tls-cert"), readFile(tlsKey, "--tls-key"));
          tls.context(); // a bad certificate or key is a usage error, before the stack starts
          Setups.requireTls(stack, true);
        }
        server = stack.startServer(new Reference(ds), new Stack.ServerConfig(listen, flags.maxMessageSize, flags.options(), tls));
      } catch (IllegalArgumentException e) {
        throw flags.refused(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(server::close));
      System.out.println("listening on " + server.address());
      System.out.flush();
      new CountDownLatch(1).await(); // until SIGINT or SIGTERM
      return 0;
    }
  }

  @Command(name = "check", mixinStandardHelpOptions = true,
      description = {"Check a server against the contract with one client stack of this jar.",
          "Runs every workload, the refusals, echoes up to 4 MiB and streams; exits 1 when a check fails."})
  static final class Check implements Callable<Integer> {
    @Mixin
    StackFlags flags;

    // --target is its former name (before 2026-11-29), still taken: the driver of an
    // older wirebench passes it.
    @Option(names = {"--address", "--target"}, required = true, paramLabel = "ADDR", converter = AddressConverter.class,
        description = "the server's address (--target: the same, its former name)")
    Address address;

    @Option(names = "--tls-ca", paramLabel = "FILE",
        description = "speak TLS 1.3 to the server, trusting the PEM CA certificates of this file alone")
    Path tlsCA;

    @Option(names = "--original-trades",
        description = "also check the original's 23-field trade (StreamOriginalTrades), for a server that carries it")
    boolean originalTrades;

    @Option(names = "--tls-server-name", paramLabel = "NAME",
        description = "the name the server's certificate must carry (default: the address's host); needs --tls-ca")
    String tlsServerName;

    @Override
    public Integer call() throws Exception {
      Stack stack = flags.lookup(false);
      Dataset ds = flags.dataset();
      Stack.Client client;
      try {
        Tls.Client tls = null;
        if (tlsServerName != null && tlsCA == null) {
          throw new IllegalArgumentException("--tls-server-name needs --tls-ca");
        }
        if (tlsCA != null) {
          tls = new Tls.Client(readFile(tlsCA, "--tls-ca"), tlsServerName);
          tls.trustManagers();
          Setups.requireTls(stack, false);
        }
        client = stack.connect(new Stack.ClientConfig(address, flags.maxMessageSize, flags.options(), new ByteCounter(), tls));
      } catch (IllegalArgumentException e) {
        throw flags.refused(e);
      }
      try (client) {
        List<String> failures = Conformance.run(client, ds, originalTrades, System.err::println);
        System.err.println(failures.isEmpty() ? "check: " + stack.protocol() + "/" + stack.name() + " against " + address + ": conforms"
            : "check: " + failures.size() + " checks failed");
        return failures.isEmpty() ? 0 : 1;
      }
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = {"The stacks of this jar, a line each: PROTOCOL/NAME, sides, transports, options.",
          "With --json, this jar's family and every stack's metadata with its libraries' versions, as JSON "
              + "(what `make jvm-stacks` writes into stack/jvm/stacks.json)."})
  static final class ListStacks implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "print the stacks' metadata as JSON")
    boolean json;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Announcement.json(Stacks.all(), Announcement.build()));
        out.flush();
        return 0;
      }
      for (Stack s : Stacks.all()) {
        String sides = s.hasServer() && s.hasClient() ? "server, client" : s.hasServer() ? "server" : "client";
        out.println(s.protocol() + "/" + s.name() + "\t" + sides + "\t" + String.join(", ", transports(s))
            + optionNames(s));
      }
      out.flush();
      return 0;
    }
  }

  /** A stack's option names for the human list: each side's, once each; "" when it takes none. */
  static String optionNames(Stack s) {
    java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>(s.serverOptions());
    names.addAll(s.clientOptions());
    return names.isEmpty() ? "" : "\toptions: " + String.join(", ", names);
  }

  /** The bytes of a file named by flag, or IllegalArgumentException saying why not. */
  static byte[] readFile(Path p, String flag) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new IllegalArgumentException(flag + " " + p + ": " + e.getMessage(), e);
    }
  }

  /**
   * The transports a stack speaks as the list shows them: tls beside tcp when its sides
   * speak TLS, "tls (server)" or "tls (client)" when one of two sides does.
   */
  static TreeSet<String> transports(Stack s) {
    TreeSet<String> t = new TreeSet<>(s.transports());
    boolean server = s.hasServer() && s.speaksTls(true);
    boolean client = s.hasClient() && s.speaksTls(false);
    if (t.contains("tcp") && (server || client)) {
      boolean both = server == s.hasServer() && client == s.hasClient();
      t.add(both ? "tls" : server ? "tls (server)" : "tls (client)");
    }
    return t;
  }

  static final class AddressConverter implements ITypeConverter<Address> {
    @Override
    public Address convert(String s) {
      try {
        return Address.parse(s);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A seed is a uint64, as in Go: seeds above 2^63-1 are given unsigned. */
  static final class SeedConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String s) {
      try {
        return Long.parseUnsignedLong(s);
      } catch (NumberFormatException e) {
        throw new TypeConversionException("seed \"" + s + "\": want a whole number from 0 to 18446744073709551615");
      }
    }
  }

  /** A message limit: a size (Options.parseSize) from 1 byte to 2 GiB less the room of a frame's header. */
  static final class LimitConverter implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String s) {
      long n;
      try {
        n = Options.parseSize(s);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
      if (n < 1 || n > Integer.MAX_VALUE - 16) {
        throw new TypeConversionException("size \"" + s + "\": want 1 byte to 2GiB");
      }
      return (int) n;
    }
  }
}
