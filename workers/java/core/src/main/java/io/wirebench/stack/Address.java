package io.wirebench.stack;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * A wirebench address (transport/addr.go): tcp://HOST:PORT or unix:///PATH; for
 * convenience a bare HOST:PORT is tcp and a bare absolute path is unix.
 */
public record Address(String network, String host, int port, Path path) {
  public static Address tcp(String host, int port) {
    return new Address("tcp", host, port, null);
  }

  public static Address unix(Path path) {
    return new Address("unix", null, 0, path);
  }

  public boolean isUnix() {
    return "unix".equals(network);
  }

  /** Parses s, or throws IllegalArgumentException saying what is expected. */
  public static Address parse(String s) {
    if (s == null || s.isEmpty()) {
      throw new IllegalArgumentException("empty address: want tcp://host:port or unix:///path");
    }
    if (s.startsWith("/")) {
      return unix(Path.of(s));
    }
    if (!s.contains("://")) {
      return hostPort(s, s);
    }
    URI u;
    try {
      u = new URI(s);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("address \"" + s + "\": " + e.getMessage());
    }
    switch (u.getScheme()) {
      case "tcp" -> {
        if (u.getRawPath() != null && !u.getRawPath().isEmpty()) {
          throw new IllegalArgumentException("address \"" + s + "\": want tcp://host:port (port 0 picks a free one)");
        }
        return hostPort(u.getRawAuthority() == null ? "" : u.getRawAuthority(), s);
      }
      case "unix" -> {
        if (u.getRawAuthority() != null || u.getPath() == null || u.getPath().isEmpty()) {
          throw new IllegalArgumentException("address \"" + s + "\": want unix:///absolute/path (three slashes)");
        }
        return unix(Path.of(u.getPath()));
      }
      default -> throw new IllegalArgumentException("address \"" + s + "\": unknown scheme \"" + u.getScheme() + "\", want tcp or unix");
    }
  }

  private static Address hostPort(String hp, String original) {
    int colon = hp.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("address \"" + original + "\": want tcp://host:port or unix:///path");
    }
    String host = hp.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    try {
      int port = Integer.parseInt(hp.substring(colon + 1));
      if (port < 0 || port > 65535) {
        throw new NumberFormatException();
      }
      return tcp(host, port);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("address \"" + original + "\": want tcp://host:port with a port from 0 to 65535");
    }
  }

  /** The address of a bound TCP socket. */
  public static Address of(InetSocketAddress a) {
    return tcp(a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString(), a.getPort());
  }

  /** host:port, IPv6 hosts in brackets. */
  public String hostPort() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  public InetSocketAddress inet() {
    return new InetSocketAddress(host, port);
  }

  /** The URL form that parse reads. */
  @Override
  public String toString() {
    return isUnix() ? "unix://" + path : "tcp://" + hostPort();
  }
}
