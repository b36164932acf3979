package io.wirebench.stack.httpjson;

import io.wirebench.stack.Stack;
import io.wirebench.stack.Tls;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * An http-json client on the JDK's java.net.http.HttpClient and Jackson, as the
 * original REST-vs-gRPC benchmark's client was built. HTTP/1.1 (the protocol's
 * version; the JDK's default, HTTP/2, would offer an h2c upgrade on each new
 * connection), otherwise the client's defaults: a pool of keep-alive connections, one
 * request at a time on each; over TLS, its https client (TLS 1.3, ALPN http/1.1, the
 * certificate checked against the target's host). TCP only: java.net.http cannot dial a Unix socket. It
 * cannot count bytes either: the JDK client gives no access to its sockets, so its
 * intervals report -1. No options.
 */
public final class JavaHttpClientStack extends Stack {
  @Override
  public String name() {
    return "java-httpclient";
  }

  @Override
  public String protocol() {
    return "http-json";
  }

  @Override
  public Set<String> transports() {
    return Set.of("tcp");
  }

  @Override
  public String summary() {
    return "the JDK's java.net.http.HttpClient (HTTP/1.1) with Jackson databind; TCP (and TLS) only, bytes not counted";
  }

  @Override
  public List<String> libraries() {
    return List.of("com.fasterxml.jackson.core:jackson-databind");
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
  public boolean hasClient() {
    return true;
  }

  @Override
  public boolean countsBytes() {
    return false;
  }

  @Override
  public Client connect(ClientConfig cfg) {
    checkSetup(cfg.target(), cfg.options(), clientOptions(), false, cfg.tls() != null);
    HttpClient.Builder b = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10));
    Tls.Client tls = cfg.tls();
    if (tls != null) {
      // The client checks the certificate against the URI's host and cannot be told
      // another name: a server name other than the target's host is refused.
      if (!tls.serverName().isEmpty() && !tls.serverName().equalsIgnoreCase(cfg.target().host())) {
        throw new IllegalArgumentException(name() + " checks the server's certificate against the target's host, "
            + cfg.target().host() + ", and cannot check another name (" + tls.serverName() + "): dial the server by that name");
      }
      b.sslContext(tls.context()).sslParameters(tls.parameters("http/1.1"));
    }
    return new JavaHttpClient(b.build(), (tls == null ? "http://" : "https://") + cfg.target().hostPort(), cfg.maxMessageSize());
  }
}
