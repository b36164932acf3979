package io.wirebench.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wirebench.contract.Code;
import io.wirebench.contract.Contract;
import io.wirebench.contract.ContractException;
import io.wirebench.contract.Dataset;
import io.wirebench.contract.Reference;
import io.wirebench.worker.Conformance;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every server stack answers every contract check correctly when called by every client
 * stack of its protocol, over every transport both speak.
 */
class StackPairsTest {
  @TempDir
  static Path dir;

  /**
   * Pairs a module declares it cannot run ("server/client,..." in the system property
   * wirebench.knownBadPairs, set in that module's pom with the reason beside it): skipped,
   * and so reported, rather than left out.
   */
  static final List<String> KNOWN_BAD = List.of(System.getProperty("wirebench.knownBadPairs", "").split(","));

  static void assumeRunnable(String serverName, String clientName) {
    org.junit.jupiter.api.Assumptions.assumeFalse(KNOWN_BAD.contains(serverName + "/" + clientName),
        serverName + " with " + clientName + ": a known bad pair of this module (its pom says why)");
  }

  static Stream<Arguments> pairs() {
    List<Arguments> out = new ArrayList<>();
    for (Stack server : Stacks.all()) {
      if (!server.hasServer()) {
        continue;
      }
      for (Stack client : Stacks.all()) {
        if (!client.hasClient() || !client.protocol().equals(server.protocol())) {
          continue;
        }
        for (String net : List.of("tcp", "unix")) {
          if (server.transports().contains(net) && client.transports().contains(net)) {
            out.add(Arguments.of(server.protocol(), server.name(), client.name(), net));
          }
        }
        if (speakTls(server, client)) {
          out.add(Arguments.of(server.protocol(), server.name(), client.name(), "tls"));
        }
      }
    }
    return out.stream();
  }

  /** Whether a pair can speak TLS: both sides do, over TCP. */
  static boolean speakTls(Stack server, Stack client) {
    return server.speaksTls(true) && client.speaksTls(false) && server.transports().contains("tcp") && client.transports().contains("tcp");
  }

  static Address listenAddress(String net, String name) {
    return net.equals("unix") ? Address.unix(dir.resolve(name + ".sock")) : Address.tcp("127.0.0.1", 0);
  }

  @ParameterizedTest(name = "{0}: {1} server, {2} client, {3}")
  @MethodSource("pairs")
  void conforms(String protocol, String serverName, String clientName, String net) throws Exception {
    assumeRunnable(serverName, clientName);
    Dataset ds = Dataset.of(Contract.DEFAULT_SEED, Contract.DEFAULT_SIZE);
    Stack server = Stacks.lookup(protocol, serverName, true);
    Stack client = Stacks.lookup(protocol, clientName, false);
    ByteCounter counter = new ByteCounter();
    boolean tls = net.equals("tls");
    try (Stack.RunningServer srv = server.startServer(new Reference(ds),
            new Stack.ServerConfig(listenAddress(net, serverName + "-" + clientName), Contract.DEFAULT_MAX_MESSAGE_SIZE, Map.of(),
                tls ? TestCerts.server() : null));
         Stack.Client c = client.connect(new Stack.ClientConfig(srv.address(), Contract.DEFAULT_MAX_MESSAGE_SIZE, Map.of(), counter,
             tls ? TestCerts.trusting() : null))) {
      List<String> failures = Conformance.run(c, ds, server.originalTrades() && client.originalTrades(), s -> {});
      assertEquals(List.of(), failures);
      if (client.countsBytes()) {
        // The checks echo 4 MiB: a counter that saw less missed a connection. Akka gRPC and
        // Pekko gRPC gzip their answers to grpc-java's clients, which accept gzip, so only
        // what was sent to them is that large ("Hello World " repeated compresses well).
        boolean gzips = serverName.equals("akka-grpc") || serverName.equals("pekko-grpc");
        assertTrue(counter.sent() > 4 << 20 && (gzips || counter.received() > 4 << 20),
            "counted " + counter.sent() + " bytes sent, " + counter.received() + " received");
      }
    }
  }

  static Stream<Arguments> tlsPairs() {
    return pairs().filter(a -> a.get()[3].equals("tls"));
  }

  /**
   * A client that does not trust the server's certificate fails with an error that says
   * so, at its connection or at its first call, rather than hanging or speaking plain text.
   */
  @ParameterizedTest(name = "{0}: {1} server, {2} client")
  @MethodSource("tlsPairs")
  @Timeout(120) // a guard against a hang, not a measurement
  void untrustedCertificateFails(String protocol, String serverName, String clientName, String net) throws Exception {
    String chain = messages(tlsFailure(protocol, serverName, clientName, TestCerts.notTrusting()));
    assertTrue(chain.contains("certification path") || chain.contains("PKIX") || chain.contains("certificate"),
        "want a certificate error, got: " + chain);
  }

  /** The server's name is checked: a client that wants another name than the certificate's is refused. */
  @ParameterizedTest(name = "{0}: {1} server, {2} client")
  @MethodSource("tlsPairs")
  @Timeout(120)
  void wrongServerNameFails(String protocol, String serverName, String clientName, String net) throws Exception {
    tlsFailure(protocol, serverName, clientName, new Tls.Client(TestCerts.read("trusted-ca.pem"), "not-the-server.example"));
  }

  /** Serves with the tests' certificate and asserts that a client with tls fails to connect or call; returns its error. */
  private static Exception tlsFailure(String protocol, String serverName, String clientName, Tls.Client tls) throws Exception {
    assumeRunnable(serverName, clientName);
    Stack server = Stacks.lookup(protocol, serverName, true);
    Stack client = Stacks.lookup(protocol, clientName, false);
    try (Stack.RunningServer srv = server.startServer(new Reference(Dataset.of(1, 20)),
        new Stack.ServerConfig(Address.tcp("127.0.0.1", 0), 1 << 20, Map.of(), TestCerts.server()))) {
      return assertThrows(Exception.class, () -> {
        try (Stack.Client c = client.connect(new Stack.ClientConfig(srv.address(), 1 << 20, Map.of(), null, tls))) {
          c.getPerson(1);
        }
      });
    }
  }

  private static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = e; c != null; c = c.getCause()) {
      b.append(c).append(" / ");
    }
    return b.toString();
  }

  /** The sweep's settings work on both sides: a 16 KiB window still carries a 10000-trade stream and 4 MiB echoes. */
  @ParameterizedTest(name = "{0} with {1}")
  @MethodSource("grpcSettings")
  void grpcOptions(String stackName, Map<String, String> opts) throws Exception {
    Dataset ds = Dataset.of(1, 20);
    Stack s = Stacks.all().stream().filter(x -> x.name().equals(stackName)).findFirst().orElseThrow();
    try (Stack.RunningServer srv = s.startServer(new Reference(ds),
            new Stack.ServerConfig(Address.tcp("127.0.0.1", 0), Contract.DEFAULT_MAX_MESSAGE_SIZE, opts));
         Stack.Client c = s.connect(new Stack.ClientConfig(srv.address(), Contract.DEFAULT_MAX_MESSAGE_SIZE, opts, null))) {
      assertEquals(List.of(), Conformance.run(c, ds, x -> {}));
    }
  }

  /**
   * The REST-vs-gRPC original's pairing: its server is always Netty with DEFAULT_PARAMS
   * (131070-byte window, direct executor, empty compressor registry), and its useHttpOk
   * switch changes only the client, to OkHttp (with the same settings, or the sweep's
   * pool executor).
   */
  @ParameterizedTest(name = "netty server, {0} client with {1}")
  @MethodSource("originalClients")
  void nettyServerOfTheOriginal(String clientName, Map<String, String> clientOpts) throws Exception {
    Dataset ds = Dataset.of(1, 20);
    Map<String, String> serverOpts = Map.of("direct_executor", "true", "flow_window", "SIMILAR_TO_REST", "compressors", "none");
    try (Stack.RunningServer srv = Stacks.lookup("grpc-proto", "grpc-java-netty", true).startServer(new Reference(ds),
            new Stack.ServerConfig(Address.tcp("127.0.0.1", 0), Contract.DEFAULT_MAX_MESSAGE_SIZE, serverOpts));
         Stack.Client c = Stacks.lookup("grpc-proto", clientName, false).connect(
             new Stack.ClientConfig(srv.address(), Contract.DEFAULT_MAX_MESSAGE_SIZE, clientOpts, null))) {
      assertEquals(List.of(), Conformance.run(c, ds, x -> {}));
    }
  }

  static Stream<Arguments> originalClients() {
    return Stream.of(
        Arguments.of("grpc-java-okhttp", Map.of("direct_executor", "true", "flow_window", "SIMILAR_TO_REST", "compressors", "none")),
        Arguments.of("grpc-java-okhttp", Map.of("direct_executor", "false", "flow_window", "SIMILAR_TO_REST", "compressors", "none")),
        Arguments.of("grpc-java-netty", Map.of("direct_executor", "true", "flow_window", "SIMILAR_TO_REST", "compressors", "none")));
  }

  static Stream<Arguments> grpcSettings() {
    return Stream.of(
        Arguments.of("grpc-java-netty", Map.of("direct_executor", "true", "flow_window", "SMALL")),
        // The REST-vs-gRPC original's DEFAULT_PARAMS on its Netty server: a 131070-byte
        // window, direct executor, an empty compressor registry.
        Arguments.of("grpc-java-netty", Map.of("direct_executor", "true", "flow_window", "SIMILAR_TO_REST", "compressors", "none")),
        Arguments.of("grpc-java-okhttp", Map.of("direct_executor", "true", "flow_window", "similar_to_rest")),
        Arguments.of("grpc-java-avro", Map.of("direct_executor", "false", "flow_window", "64KiB")));
  }

  /**
   * A request over the server's limit is refused, and the client works on. Every server
   * says resource_exhausted except grpc-java's OkHttp server, which resets the stream
   * (HTTP/2 INTERNAL_ERROR, so its clients see internal): grpc-java's behaviour,
   * documented in docs/java-worker.md. Akka HTTP's and Pekko HTTP's HTTP/2 servers, when
   * the size limit cancels a request entity still arriving, sometimes abort the stream
   * (RST_STREAM CANCEL) before their trailers go out (akka/akka-http#3458; about 1 call
   * in 100 here): the client sees CANCELLED, so for their gRPC servers that is allowed too.
   */
  @ParameterizedTest(name = "{0}: {1} server, {2} client, {3}")
  @MethodSource("pairs")
  void overLimit(String protocol, String serverName, String clientName, String net) throws Exception {
    assumeRunnable(serverName, clientName);
    Dataset ds = Dataset.of(1, 20);
    Stack server = Stacks.lookup(protocol, serverName, true);
    Stack client = Stacks.lookup(protocol, clientName, false);
    try (Stack.RunningServer srv = server.startServer(new Reference(ds),
            new Stack.ServerConfig(listenAddress(net, "limit-" + serverName + "-" + clientName), 1024, Map.of()));
         Stack.Client c = client.connect(new Stack.ClientConfig(srv.address(), 1 << 20, Map.of(), null))) {
      String pair = serverName + " server, " + clientName + " client, " + net;
      Exception e = assertThrows(Exception.class, () -> c.echo(Contract.payload(4096)), pair);
      if (abortsOverLimitStreams(serverName) && e instanceof io.grpc.StatusRuntimeException sre
          && sre.getStatus().getCode() == io.grpc.Status.Code.CANCELLED) {
        assertEquals(ds.person(1), c.getPerson(1), pair);
        return;
      }
      ContractException ce = assertInstanceOf(ContractException.class, e, pair + ": " + e);
      Code want = serverName.equals("grpc-java-okhttp") ? Code.INTERNAL : Code.RESOURCE_EXHAUSTED;
      assertEquals(want, ce.code(), pair + ": " + ce);
      assertEquals(ds.person(1), c.getPerson(1), pair);
    }
  }

  /** The gRPC servers on Akka HTTP's or Pekko HTTP's HTTP/2 layer (akka/akka-http#3458). */
  static boolean abortsOverLimitStreams(String serverName) {
    return serverName.startsWith("akka-grpc") || serverName.startsWith("pekko-grpc");
  }

  /** An answer over the client's limit is refused by the client with resource_exhausted. */
  @ParameterizedTest(name = "{0}: {1} server, {2} client, {3}")
  @MethodSource("pairs")
  void answerOverClientLimit(String protocol, String serverName, String clientName, String net) throws Exception {
    assumeRunnable(serverName, clientName);
    Dataset ds = Dataset.of(1, 20);
    Stack server = Stacks.lookup(protocol, serverName, true);
    Stack client = Stacks.lookup(protocol, clientName, false);
    try (Stack.RunningServer srv = server.startServer(new Reference(ds),
            new Stack.ServerConfig(listenAddress(net, "climit-" + serverName + "-" + clientName), 1 << 20, Map.of()));
         Stack.Client c = client.connect(new Stack.ClientConfig(srv.address(), 2048, Map.of(), null))) {
      ContractException e = assertThrows(ContractException.class, () -> c.listPersons());
      assertEquals(Code.RESOURCE_EXHAUSTED, e.code(), e.toString());
      assertEquals(ds.person(1), c.getPerson(1));
    }
  }
}
