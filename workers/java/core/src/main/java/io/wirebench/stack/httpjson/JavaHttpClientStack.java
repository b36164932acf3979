package io.wirebench.stack.httpjson;

import io.wirebench.stack.Stack;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Set;

/**
 * An http-json client on the JDK's java.net.http.HttpClient and Jackson, as the
 * original REST-vs-gRPC benchmark's client was built. HTTP/1.1 (the protocol's
 * version; the JDK's default, HTTP/2, would offer an h2c upgrade on each new
 * connection), otherwise the client's defaults: a pool of keep-alive connections, one
 * request at a time on each. TCP only: java.net.http cannot dial a Unix socket. It
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
  public boolean hasClient() {
    return true;
  }

  @Override
  public boolean countsBytes() {
    return false;
  }

  @Override
  public Client connect(ClientConfig cfg) {
    checkSetup(cfg.target(), cfg.options(), clientOptions());
    HttpClient http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .build();
    return new JavaHttpClient(http, "http://" + cfg.target().hostPort(), cfg.maxMessageSize());
  }
}
