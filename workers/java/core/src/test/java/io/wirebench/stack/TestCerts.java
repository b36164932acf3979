package io.wirebench.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The tests' TLS material (src/test/resources/tls), made once with openssl, valid for a
 * century: an ECDSA P-256 server certificate for localhost, 127.0.0.1 and ::1 with its
 * PKCS#8 key, the CA that signed it (trusted-ca.pem), and another CA that signed nothing
 * here (other-ca.pem), which a client must refuse the server's certificate under.
 */
public final class TestCerts {
  private TestCerts() {}

  public static byte[] read(String name) {
    try (InputStream in = TestCerts.class.getResourceAsStream("/tls/" + name)) {
      if (in == null) {
        throw new IllegalStateException("test resource /tls/" + name + " is missing");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Tls.Server server() {
    return new Tls.Server(read("server.pem"), read("server.key"));
  }

  /** A client trusting the CA that signed server(). */
  public static Tls.Client trusting() {
    return new Tls.Client(read("trusted-ca.pem"), "");
  }

  /** A client trusting a CA that did not sign server(). */
  public static Tls.Client notTrusting() {
    return new Tls.Client(read("other-ca.pem"), "");
  }
}
