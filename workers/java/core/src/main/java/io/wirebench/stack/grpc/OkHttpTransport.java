package io.wirebench.stack.grpc;

import io.grpc.BindableService;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.okhttp.OkHttpChannelBuilder;
import io.grpc.okhttp.OkHttpServerBuilder;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.wirebench.stack.Address;
import io.wirebench.stack.ByteCounter;
import io.wirebench.stack.Tls;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.Executor;
import javax.net.SocketFactory;

/**
 * grpc-java's OkHttp transport (grpc-okhttp: the client, and the server it has had
 * since 1.49). It speaks TCP only: OkHttp opens java.net.Sockets, which cannot reach a
 * Unix socket. Clients open their socket through a SocketFactory that counts its bytes
 * (over TLS too: TLS runs over the counted socket). Only the client speaks TLS 1.3
 * (GrpcJavaStack.speaksTls says why).
 */
final class OkHttpTransport {
  private OkHttpTransport() {}

  static Server server(Address listen, int limit, GrpcSettings s, List<BindableService> bindable,
      List<ServerServiceDefinition> defs, boolean reflection, Executor executor) throws IOException {
    OkHttpServerBuilder b = OkHttpServerBuilder.forPort(listen.inet(), InsecureServerCredentials.create());
    b.maxInboundMessageSize(limit);
    bindable.forEach(b::addService);
    defs.forEach(b::addService);
    if (reflection) {
      b.addService(ProtoReflectionServiceV1.newInstance());
      b.addService(ProtoReflectionService.newInstance());
    }
    if (s.directExecutor()) {
      b.directExecutor();
    } else if (executor != null) {
      b.executor(executor);
    }
    if (s.flowWindow() != null) {
      b.flowControlWindow(s.flowWindow());
    }
    if (s.noCompressors()) {
      b.compressorRegistry(io.grpc.CompressorRegistry.newEmptyInstance());
    }
    return b.build().start();
  }

  static Address boundAddress(Server server) {
    return Address.of((InetSocketAddress) server.getListenSockets().get(0));
  }

  static ManagedChannel channel(Address target, int limit, GrpcSettings s, ByteCounter counter, Tls.Client tls) {
    OkHttpChannelBuilder b = OkHttpChannelBuilder.forAddress(target.host(), target.port()).maxInboundMessageSize(limit);
    if (tls == null) {
      b.usePlaintext();
    } else {
      // OkHttp's TLS with the run's trust and TLS 1.3 named: on the JVM its default
      // connection spec offers TLS 1.2 alone (TlsChannelCredentials cannot change that).
      // The certificate is checked against the authority, ALPN offers h2.
      b.sslSocketFactory(tls.context().getSocketFactory())
          .tlsConnectionSpec(new String[] {Tls.VERSION}, Tls.CIPHER_SUITES.toArray(new String[0]));
      if (!tls.serverName().isEmpty()) {
        b.overrideAuthority(tls.serverName());
      }
    }
    if (counter != null) {
      b.socketFactory(new CountingSocketFactory(counter));
    }
    if (s.directExecutor()) {
      b.directExecutor();
    }
    if (s.flowWindow() != null) {
      b.flowControlWindow(s.flowWindow());
    }
    if (s.noCompressors()) {
      b.compressorRegistry(io.grpc.CompressorRegistry.newEmptyInstance());
    }
    return b.build();
  }

  /** Opens plain sockets whose streams count the bytes they carry. */
  static final class CountingSocketFactory extends SocketFactory {
    private final ByteCounter counter;

    CountingSocketFactory(ByteCounter counter) {
      this.counter = counter;
    }

    @Override
    public Socket createSocket() {
      return new CountingSocket(counter);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      return connect(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
      Socket s = new CountingSocket(counter);
      s.bind(new InetSocketAddress(localHost, localPort));
      s.connect(new InetSocketAddress(host, port));
      return s;
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
      return connect(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
      Socket s = new CountingSocket(counter);
      s.bind(new InetSocketAddress(localAddress, localPort));
      s.connect(new InetSocketAddress(address, port));
      return s;
    }

    private Socket connect(InetSocketAddress a) throws IOException {
      Socket s = new CountingSocket(counter);
      s.connect(a);
      return s;
    }
  }

  private static final class CountingSocket extends Socket {
    private final ByteCounter counter;
    private InputStream countedIn;
    private OutputStream countedOut;

    CountingSocket(ByteCounter counter) {
      this.counter = counter;
    }

    @Override
    public synchronized InputStream getInputStream() throws IOException {
      if (countedIn == null) {
        InputStream raw = super.getInputStream();
        countedIn = new FilterInputStream(raw) {
          @Override
          public int read() throws IOException {
            int b = raw.read();
            if (b >= 0) {
              counter.received(1);
            }
            return b;
          }

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            int n = raw.read(b, off, len);
            if (n > 0) {
              counter.received(n);
            }
            return n;
          }
        };
      }
      return countedIn;
    }

    @Override
    public synchronized OutputStream getOutputStream() throws IOException {
      if (countedOut == null) {
        OutputStream raw = super.getOutputStream();
        countedOut = new FilterOutputStream(raw) {
          @Override
          public void write(int b) throws IOException {
            raw.write(b);
            counter.sent(1);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            raw.write(b, off, len);
            counter.sent(len);
          }
        };
      }
      return countedOut;
    }
  }
}
