package io.wirebench.stack.grpc;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.wirebench.contract.Reference;
import io.wirebench.stack.Stack;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * The grpc-java stacks: a transport (Netty or OkHttp) and an encoding (protobuf with
 * generated stubs and server reflection, or Avro with hand-written descriptors), both
 * sides, options direct_executor, flow_window and compressors (GrpcSettings); a server's
 * handlers run on a work-stealing pool of one thread per CPU unless direct_executor is
 * given (ServerExecutors). Over TLS, grpc-java's
 * own TLS setup of each transport: ALPN h2, TLS 1.3, the run's certificate and CA.
 */
public abstract class GrpcJavaStack extends Stack {
  private final String name;
  private final boolean okhttp;
  private final boolean avro;

  GrpcJavaStack(String name, boolean okhttp, boolean avro) {
    this.name = name;
    this.okhttp = okhttp;
    this.avro = avro;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String protocol() {
    return avro ? "grpc-avro" : "grpc-proto";
  }

  @Override
  public Set<String> transports() {
    return okhttp ? Set.of("tcp") : Set.of("tcp", "unix");
  }

  @Override
  public String summary() {
    if (avro) {
      return "grpc-java on Netty with Avro marshallers (generated Avro classes), as mu-rpc carried Avro; " + SETUP;
    }
    if (okhttp) {
      return "grpc-java on OkHttp, generated stubs, server reflection; TCP only; TLS on the client side only "
          + "(its server offers TLS 1.2 alone on the JVM); " + SETUP;
    }
    return "grpc-java on Netty (epoll, default event loops), generated stubs, server reflection; " + SETUP;
  }

  /** How every grpc-java stack is set up, and its options (GrpcSettings.NAMES), as the summaries say it. */
  private static final String SETUP = "server handlers on a work-stealing ForkJoinPool of one thread per CPU, as grpc-java's"
      + " performance guide and benchmark server set it (direct_executor=true: the transport threads; false: grpc-java's"
      + " default cached pool), blocking-stub clients; options " + String.join(", ", GrpcSettings.NAMES);

  @Override
  public List<String> libraries() {
    if (avro) {
      return List.of("io.grpc:grpc-netty-shaded", "io.grpc:grpc-stub", "org.apache.avro:avro");
    }
    return List.of(okhttp ? "io.grpc:grpc-okhttp" : "io.grpc:grpc-netty-shaded", "io.grpc:grpc-stub", "io.grpc:grpc-protobuf",
        "io.grpc:grpc-services", "com.google.protobuf:protobuf-java");
  }

  /**
   * Both sides on Netty; OkHttp's client only: grpc-okhttp's server on the JVM offers TLS
   * 1.2 alone (its ConnectionSpec for non-Android platforms), and its API has no way to
   * name TLS 1.3's cipher suites, so it cannot meet a TLS 1.3 client.
   */
  @Override
  public boolean speaksTls(boolean server) {
    return !(okhttp && server);
  }

  @Override
  public boolean hasServer() {
    return true;
  }

  /** grpc-proto's servers echo a user's message (MessageEcho); the Avro ones do not. */
  @Override
  public boolean servesMessages() {
    return !avro;
  }

  @Override
  public boolean hasClient() {
    return true;
  }

  @Override
  public List<String> serverOptions() {
    return GrpcSettings.NAMES;
  }

  @Override
  public List<String> clientOptions() {
    return GrpcSettings.NAMES;
  }

  @Override
  public RunningServer startServer(Reference svc, ServerConfig cfg) throws Exception {
    checkSetup(cfg.listen(), cfg.options(), serverOptions(), true, cfg.tls() != null);
    GrpcSettings s = GrpcSettings.parse(name, cfg.options());
    List<io.grpc.BindableService> bindable = avro ? List.of() : ProtoServices.of(svc);
    List<io.grpc.ServerServiceDefinition> defs = avro ? AvroServices.of(svc)
        : cfg.message() != null ? List.of(MessageEcho.of(cfg.message())) : List.of();
    // The server's handlers run on the production pool unless direct_executor says
    // otherwise; the server does not own it, so close() shuts it down.
    ForkJoinPool pool = s.productionServerExecutor() ? ServerExecutors.production() : null;
    Server server;
    io.wirebench.stack.Address bound;
    try {
      if (okhttp) {
        server = OkHttpTransport.server(cfg.listen(), cfg.maxMessageSize(), s, bindable, defs, !avro, pool);
        bound = OkHttpTransport.boundAddress(server);
      } else {
        server = NettyTransport.server(cfg.listen(), cfg.maxMessageSize(), s, bindable, defs, !avro, cfg.tls(), pool);
        bound = NettyTransport.boundAddress(server, cfg.listen());
      }
    } catch (Exception e) {
      if (pool != null) {
        pool.shutdownNow();
      }
      throw e;
    }
    return new RunningServer() {
      @Override
      public io.wirebench.stack.Address address() {
        return bound;
      }

      @Override
      public void close() {
        server.shutdownNow();
        try {
          server.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          if (pool != null) {
            pool.shutdownNow();
          }
        }
      }
    };
  }

  @Override
  public Client connect(ClientConfig cfg) throws Exception {
    checkSetup(cfg.target(), cfg.options(), clientOptions(), false, cfg.tls() != null);
    GrpcSettings s = GrpcSettings.parse(name, cfg.options());
    ManagedChannel ch = okhttp
        ? OkHttpTransport.channel(cfg.target(), cfg.maxMessageSize(), s, cfg.counter(), cfg.tls())
        : NettyTransport.channel(cfg.target(), cfg.maxMessageSize(), s, cfg.counter(), cfg.tls());
    try {
      Channels.awaitReady(ch, cfg.target().toString());
    } catch (Exception e) {
      Channels.close(ch);
      throw e;
    }
    return avro ? new AvroClient(ch) : new ProtoClient(ch);
  }

  /** grpc-proto over grpc-java's Netty transport. */
  /** The grpc-proto stacks carry the original's trade (StreamOriginalTrades); grpc-java-avro does not. */
  @Override
  public boolean originalTrades() {
    return !avro;
  }

  public static final class Netty extends GrpcJavaStack {
    public Netty() {
      super("grpc-java-netty", false, false);
    }
  }

  /** grpc-proto over grpc-java's OkHttp transport (TCP only). */
  public static final class OkHttp extends GrpcJavaStack {
    public OkHttp() {
      super("grpc-java-okhttp", true, false);
    }
  }

  /** grpc-avro: grpc-java's Netty transport with Avro marshallers. */
  public static final class Avro extends GrpcJavaStack {
    public Avro() {
      super("grpc-java-avro", false, true);
    }
  }
}
