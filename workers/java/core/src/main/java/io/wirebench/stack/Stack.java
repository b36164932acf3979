package io.wirebench.stack;

import io.wirebench.contract.Reference;
import io.wirebench.contract.Service;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A named implementation of one or both sides of a protocol: a server of the reference
 * service, a client that is a {@link Service}, or both. Adding a stack is one class:
 * extend this, and list it in META-INF/services/io.wirebench.stack.Stack (a module of
 * another JVM language adds its own file; the worker finds them all through
 * ServiceLoader).
 *
 * <p>Implementations must be safe for concurrent use; the servers and clients they
 * make are used by many threads.
 */
public abstract class Stack {
  /** What users type, e.g. "grpc-java-netty". */
  public abstract String name();

  /** The wire mapping spoken: "http-json", "grpc-proto", "grpc-avro". */
  public abstract String protocol();

  /** The transports it can speak: "tcp", "unix". */
  public abstract Set<String> transports();

  /**
   * Whether the stack's server side (server true) or client side speaks TLS 1.3 when its
   * config carries a {@link Tls} (the "tls" transport); the worker refuses TLS for a
   * side that does not.
   */
  public boolean speaksTls(boolean server) {
    return false;
  }

  public boolean hasServer() {
    return false;
  }

  public boolean hasClient() {
    return false;
  }

  /** The option names the server side knows. */
  public List<String> serverOptions() {
    return List.of();
  }

  /** The option names the client side knows. */
  public List<String> clientOptions() {
    return List.of();
  }

  /**
   * Starts serving svc; the returned server is listening. Throws
   * IllegalArgumentException for a bad setting (unknown option, unsupported transport)
   * and IOException when it cannot listen.
   */
  public RunningServer startServer(Reference svc, ServerConfig cfg) throws Exception {
    throw new UnsupportedOperationException(name() + " has no server");
  }

  /**
   * Returns a client of cfg.target(), connected, whose connections count their bytes in
   * cfg.counter() when the stack can count them. Throws IllegalArgumentException for a
   * bad setting and an IOException (or a gRPC UNAVAILABLE status) when it cannot
   * connect.
   */
  public Client connect(ClientConfig cfg) throws Exception {
    throw new UnsupportedOperationException(name() + " has no client");
  }

  /**
   * Whether the client counts the bytes on its connections; a client that cannot (its
   * library gives no access to its sockets) reports -1.
   */
  public boolean countsBytes() {
    return true;
  }

  /** Checks the settings common to every stack: options known, transport spoken. */
  protected final void checkSetup(Address addr, Map<String, String> options, List<String> known) {
    checkSetup(addr, options, known, false, false);
  }

  /**
   * checkSetup for a server (server true) or client, and TLS (tls says it is asked for)
   * spoken by that side, over TCP only.
   */
  protected final void checkSetup(Address addr, Map<String, String> options, List<String> known, boolean server, boolean tls) {
    if (tls && !speaksTls(server)) {
      throw new IllegalArgumentException("the " + name() + " " + (server ? "server" : "client") + " does not speak TLS");
    }
    if (tls && addr.isUnix()) {
      throw new IllegalArgumentException("TLS is for TCP, not unix sockets");
    }
    Options.check(name(), options, known);
    if (!transports().contains(addr.network())) {
      throw new IllegalArgumentException(name() + " does not support " + (addr.isUnix() ? "unix sockets" : addr.network())
          + " (it speaks " + String.join(", ", transports()) + ")");
    }
  }

  /** A server of the reference service. */
  public interface RunningServer extends AutoCloseable {
    /** The bound address (a port 0 replaced by the one chosen). */
    Address address();

    /** Stops at once: listeners and connections close, calls in flight fail. */
    @Override
    void close();
  }

  /** A client: a Service over one connection (or pool), closed when done. */
  public interface Client extends Service, AutoCloseable {
    @Override
    void close();
  }

  /** A server's settings; tls is null for plain text. */
  public record ServerConfig(Address listen, int maxMessageSize, Map<String, String> options, Tls.Server tls) {
    public ServerConfig(Address listen, int maxMessageSize, Map<String, String> options) {
      this(listen, maxMessageSize, options, null);
    }
  }

  /** A client's settings; tls is null for plain text. */
  public record ClientConfig(Address target, int maxMessageSize, Map<String, String> options, ByteCounter counter, Tls.Client tls) {
    public ClientConfig(Address target, int maxMessageSize, Map<String, String> options, ByteCounter counter) {
      this(target, maxMessageSize, options, counter, null);
    }
  }
}
