package io.wirebench.stack;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * One benchmark's TLS, as the driver sends it to every worker (transport.TLS on the Go
 * side): the server's certificate chain and PKCS#8 key, and the CA clients trust, all
 * PEM. TLS 1.3 only, on both sides, as the Go stacks speak it. The material is checked
 * when it is read, so a bad certificate or key fails the setup, not the first call.
 */
public final class Tls {
  private Tls() {}

  /** The one protocol version spoken. */
  public static final String VERSION = "TLSv1.3";

  /** TLS 1.3's cipher suites, as the JDK names them, for libraries that ask for a list. */
  public static final List<String> CIPHER_SUITES = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256");

  /** A server's side: its certificate chain (leaf first) and private key. */
  public record Server(byte[] certPem, byte[] keyPem) {
    public Server {
      if (certPem == null || certPem.length == 0 || keyPem == null || keyPem.length == 0) {
        throw new IllegalArgumentException("TLS: a server needs a certificate and its key");
      }
    }

    public List<X509Certificate> chain() {
      return certificates(certPem, "server certificate");
    }

    public PrivateKey key() {
      return privateKey(keyPem);
    }

    /** A KeyManagerFactory holding the certificate and key, for libraries that take one. */
    public KeyManagerFactory keyManagers() {
      try {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("server", key(), new char[0], chain().toArray(new Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, new char[0]);
        return kmf;
      } catch (GeneralSecurityException | java.io.IOException e) {
        throw new IllegalArgumentException("TLS server certificate and key: " + e.getMessage(), e);
      }
    }

    /** A TLS 1.3 context serving this certificate (engines from it still need {@link #restrict}). */
    public SSLContext context() {
      try {
        SSLContext ctx = SSLContext.getInstance(VERSION);
        ctx.init(keyManagers().getKeyManagers(), null, null);
        return ctx;
      } catch (GeneralSecurityException e) {
        throw new IllegalArgumentException("TLS server context: " + e.getMessage(), e);
      }
    }
  }

  /**
   * A client's side: the CA certificates trusted (nothing else is), and the name the
   * server's certificate must carry, or "" for the host dialled.
   */
  public record Client(byte[] caPem, String serverName) {
    public Client {
      if (caPem == null || caPem.length == 0) {
        throw new IllegalArgumentException("TLS: a client needs the CA certificate it trusts");
      }
      serverName = serverName == null ? "" : serverName;
    }

    /** The name checked in the server's certificate when target is dialled. */
    public String nameFor(Address target) {
      return serverName.isEmpty() ? target.host() : serverName;
    }

    /** A TrustManagerFactory trusting the CA certificates alone. */
    public TrustManagerFactory trustManagers() {
      try {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        int i = 0;
        for (X509Certificate c : certificates(caPem, "CA")) {
          ks.setCertificateEntry("ca" + i++, c);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        return tmf;
      } catch (GeneralSecurityException | java.io.IOException e) {
        throw new IllegalArgumentException("TLS CA: " + e.getMessage(), e);
      }
    }

    /** A TLS 1.3 context trusting the CA alone. */
    public SSLContext context() {
      try {
        SSLContext ctx = SSLContext.getInstance(VERSION);
        ctx.init(null, trustManagers().getTrustManagers(), null);
        return ctx;
      } catch (GeneralSecurityException e) {
        throw new IllegalArgumentException("TLS client context: " + e.getMessage(), e);
      }
    }

    /**
     * Client parameters: TLS 1.3 only, the server's name checked as HTTPS checks it
     * (endpoint identification), alpn offered when given.
     */
    public SSLParameters parameters(String... alpn) {
      SSLParameters p = new SSLParameters();
      p.setProtocols(new String[] {VERSION});
      p.setEndpointIdentificationAlgorithm("HTTPS");
      if (alpn.length > 0) {
        p.setApplicationProtocols(alpn);
      }
      return p;
    }
  }

  /** Restricts an engine to TLS 1.3; returns it. */
  public static SSLEngine restrict(SSLEngine e) {
    e.setEnabledProtocols(new String[] {VERSION});
    return e;
  }

  /** The certificates in pem, or IllegalArgumentException naming what when there are none or one is bad. */
  public static List<X509Certificate> certificates(byte[] pem, String what) {
    try {
      List<X509Certificate> out = new ArrayList<>();
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
        out.add((X509Certificate) c);
      }
      if (out.isEmpty()) {
        throw new IllegalArgumentException("TLS " + what + ": no PEM certificate in it");
      }
      return out;
    } catch (CertificateException e) {
      throw new IllegalArgumentException("TLS " + what + ": " + e.getMessage(), e);
    }
  }

  private static final Pattern PEM_BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \\1-----");

  /**
   * The private key of a PEM "PRIVATE KEY" block (PKCS#8, what the driver makes and
   * `openssl genpkey` writes): EC, RSA or Ed25519.
   */
  public static PrivateKey privateKey(byte[] pem) {
    Matcher m = PEM_BLOCK.matcher(new String(pem, StandardCharsets.US_ASCII));
    while (m.find()) {
      String type = m.group(1);
      if (!type.equals("PRIVATE KEY")) {
        if (type.endsWith("PRIVATE KEY")) {
          throw new IllegalArgumentException("TLS key: a PEM \"" + type + "\" block; the JVM worker reads PKCS#8 (\"PRIVATE KEY\"): "
              + "convert it with openssl pkcs8 -topk8 -nocrypt");
        }
        continue;
      }
      byte[] der;
      try {
        der = Base64.getMimeDecoder().decode(m.group(2));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("TLS key: bad base64 in its PEM block", e);
      }
      for (String alg : List.of("EC", "RSA", "Ed25519")) {
        try {
          return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
          // not this algorithm's key: try the next
        }
      }
      throw new IllegalArgumentException("TLS key: not an EC, RSA or Ed25519 PKCS#8 key");
    }
    throw new IllegalArgumentException("TLS key: no PEM \"PRIVATE KEY\" block in it");
  }
}
