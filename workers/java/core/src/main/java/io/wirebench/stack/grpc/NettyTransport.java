package io.wirebench.stack.grpc;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NegotiationType;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.buffer.ByteBuf;
import io.grpc.netty.shaded.io.netty.buffer.ByteBufHolder;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelDuplexHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelPromise;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.wirebench.stack.Address;
import io.wirebench.stack.ByteCounter;
import io.wirebench.stack.Tls;
import io.wirebench.stack.UnixSockets;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLException;

/**
 * grpc-java's Netty transport (grpc-netty-shaded, epoll where available, as its default
 * is). Over TCP the servers keep grpc-java's default event loops; Unix sockets need
 * epoll's domain socket channels and event loops of that kind. Clients get a channel
 * factory that puts a byte counter at the head of each connection's pipeline (with the
 * event loops it requires, sized as grpc-java's default: Netty's 2 × CPUs), so the
 * bytes counted are the bytes the socket carried.
 */
final class NettyTransport {
  private NettyTransport() {}

  private static EventLoopGroup clientGroup;
  private static EventLoopGroup bossGroup;
  private static EventLoopGroup domainGroup;

  private static synchronized EventLoopGroup clientGroup() {
    if (clientGroup == null) {
      DefaultThreadFactory tf = new DefaultThreadFactory("wirebench-grpc-client-elg", true);
      clientGroup = Epoll.isAvailable() ? new EpollEventLoopGroup(0, tf) : new NioEventLoopGroup(0, tf);
    }
    return clientGroup;
  }

  private static synchronized EventLoopGroup domainGroup() {
    if (!Epoll.isAvailable()) {
      throw new IllegalArgumentException("grpc-java over unix sockets needs Netty's epoll transport, which is not available here: "
          + Epoll.unavailabilityCause());
    }
    if (domainGroup == null) {
      domainGroup = new EpollEventLoopGroup(0, new DefaultThreadFactory("wirebench-grpc-unix-elg", true));
    }
    return domainGroup;
  }

  private static synchronized EventLoopGroup bossGroup() {
    domainGroup();
    if (bossGroup == null) {
      bossGroup = new EpollEventLoopGroup(1, new DefaultThreadFactory("wirebench-grpc-unix-boss", true));
    }
    return bossGroup;
  }

  static Server server(Address listen, int limit, GrpcSettings s, List<BindableService> bindable,
      List<ServerServiceDefinition> defs, boolean reflection, Tls.Server tls, Executor executor) throws IOException {
    NettyServerBuilder b;
    if (listen.isUnix()) {
      UnixSockets.removeStale(listen.path());
      b = NettyServerBuilder.forAddress(new DomainSocketAddress(listen.path().toString()))
          .channelType(EpollServerDomainSocketChannel.class)
          .bossEventLoopGroup(bossGroup())
          .workerEventLoopGroup(domainGroup());
    } else {
      b = NettyServerBuilder.forAddress(listen.inet());
    }
    if (tls != null) {
      // grpc-java's own TLS for Netty: GrpcSslContexts sets ALPN h2 and HTTP/2's ciphers.
      b.sslContext(GrpcSslContexts.configure(SslContextBuilder.forServer(tls.keyManagers())).protocols(Tls.VERSION).build());
    }
    b.maxInboundMessageSize(limit);
    bindable.forEach(b::addService);
    defs.forEach(b::addService);
    if (reflection) {
      b.addService(ProtoReflectionServiceV1.newInstance());
      b.addService(ProtoReflectionService.newInstance()); // v1alpha, for older grpcurl
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

  /** The bound address of a started server. */
  static Address boundAddress(Server server, Address listen) {
    if (listen.isUnix()) {
      return listen;
    }
    SocketAddress a = server.getListenSockets().get(0);
    return Address.of((InetSocketAddress) a);
  }

  static ManagedChannel channel(Address target, int limit, GrpcSettings s, ByteCounter counter, Tls.Client tls) throws SSLException {
    NettyChannelBuilder b;
    if (target.isUnix()) {
      EventLoopGroup group = domainGroup();
      b = NettyChannelBuilder.forAddress(new DomainSocketAddress(target.path().toString()))
          .eventLoopGroup(group)
          .channelFactory(() -> counted(new EpollDomainSocketChannel(), counter), DomainSocketAddress.class);
    } else {
      EventLoopGroup group = clientGroup();
      boolean epoll = group instanceof EpollEventLoopGroup;
      b = NettyChannelBuilder.forAddress(target.inet())
          .eventLoopGroup(group)
          .channelFactory(() -> counted(epoll ? new EpollSocketChannel() : new NioSocketChannel(), counter),
              InetSocketAddress.class);
    }
    if (tls == null) {
      b.usePlaintext();
    } else {
      // The channel checks the server's certificate against its authority (the target's
      // host, or the server name given) and makes the handshake when it connects.
      b.sslContext(GrpcSslContexts.configure(SslContextBuilder.forClient().trustManager(tls.trustManagers())).protocols(Tls.VERSION).build())
          .negotiationType(NegotiationType.TLS);
      if (!tls.serverName().isEmpty()) {
        b.overrideAuthority(tls.serverName());
      }
    }
    b.maxInboundMessageSize(limit);
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

  private static Channel counted(Channel ch, ByteCounter counter) {
    if (counter != null) {
      ch.pipeline().addFirst("wirebench-byte-counter", new Counting(counter));
    }
    return ch;
  }

  /** Counts the bytes read from and written to the socket: it sits next to it, below HTTP/2. */
  @ChannelHandler.Sharable
  private static final class Counting extends ChannelDuplexHandler {
    private final ByteCounter counter;

    Counting(ByteCounter counter) {
      this.counter = counter;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
      counter.received(size(msg));
      ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
      counter.sent(size(msg));
      ctx.write(msg, promise);
    }

    private static long size(Object msg) {
      if (msg instanceof ByteBuf b) {
        return b.readableBytes();
      }
      if (msg instanceof ByteBufHolder h) {
        return h.content().readableBytes();
      }
      return 0;
    }
  }
}
