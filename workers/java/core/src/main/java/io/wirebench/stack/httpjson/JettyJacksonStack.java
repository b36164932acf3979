package io.wirebench.stack.httpjson;

import io.wirebench.contract.Reference;
import io.wirebench.stack.Address;
import io.wirebench.stack.Stack;
import io.wirebench.stack.Tls;
import io.wirebench.stack.UnixSockets;
import java.util.List;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * http-json served by Jetty 12 with servlets (ee10) and Jackson databind, as a service's
 * developers write one: a servlet per resource, Jackson reading and writing the
 * contract's records, Jetty's default thread pool, connector and timeouts. A Unix
 * socket is served by Jetty's UnixDomainServerConnector; TLS 1.3 over TCP by an
 * SslConnectionFactory in front of HTTP/1.1. Server options max_threads, min_threads,
 * thread_idle_timeout and output_buffer_size set the thread pool and output buffer as the
 * REST vs gRPC original set them (JettySettings); left out, Jetty's defaults stand.
 */
public final class JettyJacksonStack extends Stack {
  @Override
  public String name() {
    return "jetty-jackson";
  }

  @Override
  public String protocol() {
    return "http-json";
  }

  @Override
  public Set<String> transports() {
    return Set.of("tcp", "unix");
  }

  @Override
  public String summary() {
    return "Jetty 12 servlets (ee10) with Jackson databind, stock settings; TLS through an SslConnectionFactory;"
        + " server options max_threads, min_threads, thread_idle_timeout (its QueuedThreadPool) and output_buffer_size"
        + " (HttpConfiguration), as the REST vs gRPC original set them";
  }

  @Override
  public List<String> libraries() {
    return List.of("org.eclipse.jetty:jetty-server", "org.eclipse.jetty.ee10:jetty-ee10-servlet",
        "org.eclipse.jetty:jetty-unixdomain-server", "com.fasterxml.jackson.core:jackson-databind",
        // JsonFormat, for a user's own message (MessageServlet)
        "com.google.protobuf:protobuf-java-util");
  }

  @Override
  public boolean speaksTls(boolean server) {
    return true;
  }

  /** It carries the original's trade (GET /trades?shape=original). */
  @Override
  public boolean originalTrades() {
    return true;
  }

  @Override
  public boolean hasServer() {
    return true;
  }

  /** The server echoes a user's message at /message/echo (MessageServlet). */
  @Override
  public boolean servesMessages() {
    return true;
  }

  @Override
  public List<String> serverOptions() {
    return JettySettings.NAMES;
  }

  @Override
  public JettyServer startServer(Reference svc, ServerConfig cfg) throws Exception {
    checkSetup(cfg.listen(), cfg.options(), serverOptions(), true, cfg.tls() != null);
    JettySettings settings = JettySettings.parse(name(), cfg.options());
    int limit = cfg.maxMessageSize();
    Server server = settings.server();
    Address listen = cfg.listen();
    if (listen.isUnix()) {
      UnixSockets.removeStale(listen.path());
      UnixDomainServerConnector c = new UnixDomainServerConnector(server, new HttpConnectionFactory(settings.httpConfiguration()));
      c.setUnixDomainPath(listen.path());
      server.addConnector(c);
    } else if (cfg.tls() != null) {
      // Jetty's TLS connector as its documentation builds one: an SslContextFactory
      // (here given the run's context, TLS 1.3 only) in front of HTTP/1.1.
      SslContextFactory.Server ssl = new SslContextFactory.Server();
      ssl.setSslContext(cfg.tls().context());
      ssl.setIncludeProtocols(Tls.VERSION);
      HttpConfiguration http = settings.httpConfiguration();
      SecureRequestCustomizer secure = new SecureRequestCustomizer();
      secure.setSniHostCheck(false); // the client checked the name; a Host of another name is not refused
      http.addCustomizer(secure);
      ServerConnector c = new ServerConnector(server, new SslConnectionFactory(ssl, HttpVersion.HTTP_1_1.asString()),
          new HttpConnectionFactory(http));
      c.setHost(listen.host());
      c.setPort(listen.port());
      server.addConnector(c);
    } else {
      ServerConnector c = new ServerConnector(server, new HttpConnectionFactory(settings.httpConfiguration()));
      c.setHost(listen.host());
      c.setPort(listen.port());
      server.addConnector(c);
    }
    ServletContextHandler ctx = new ServletContextHandler();
    ctx.setContextPath("/");
    ctx.addServlet(new ServletHolder(new Servlets.Persons(svc, limit)), "/persons/*");
    ctx.addServlet(new ServletHolder(new Servlets.Echo(svc, limit)), "/echo");
    ctx.addServlet(new ServletHolder(new Servlets.Increment(svc, limit)), "/increment");
    ctx.addServlet(new ServletHolder(new Servlets.Stats(svc, limit)), "/stats");
    ctx.addServlet(new ServletHolder(new Servlets.Trades(svc, limit)), "/trades");
    if (cfg.message() != null) {
      ctx.addServlet(new ServletHolder(new MessageServlet(svc, limit, cfg.message())), "/message/echo");
    }
    ctx.addServlet(new ServletHolder(new Servlets.NotFound(svc, limit)), "/");
    server.setHandler(ctx);
    server.setStopTimeout(0);
    server.start();
    Address bound = listen.isUnix() ? listen
        : Address.tcp(listen.host(), ((ServerConnector) server.getConnectors()[0]).getLocalPort());
    return new JettyServer(server, bound);
  }

  /** A running jetty-jackson server; jetty() is the Jetty Server, for tests to read its settings. */
  static final class JettyServer implements RunningServer {
    private final Server server;
    private final Address bound;

    JettyServer(Server server, Address bound) {
      this.server = server;
      this.bound = bound;
    }

    Server jetty() {
      return server;
    }

    @Override
    public Address address() {
      return bound;
    }

    @Override
    public void close() {
      try {
        server.stop();
      } catch (Exception e) {
        // stopping failed half-way: the connectors are closed first, which is what matters
      }
    }
  }
}
