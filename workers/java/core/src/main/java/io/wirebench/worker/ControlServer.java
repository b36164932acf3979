package io.wirebench.worker;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.wirebench.stack.Address;
import io.wirebench.stack.UnixSockets;
import java.io.IOException;
import java.net.InetSocketAddress;

/** The gRPC server of the control API, on TCP or a Unix socket (epoll). */
final class ControlServer {
  private ControlServer() {}

  static Server start(Address listen, WorkerService svc) throws IOException {
    NettyServerBuilder b;
    if (listen.isUnix()) {
      if (!Epoll.isAvailable()) {
        throw new IOException("a unix control socket needs Netty's epoll transport: " + Epoll.unavailabilityCause());
      }
      UnixSockets.removeStale(listen.path());
      b = NettyServerBuilder.forAddress(new DomainSocketAddress(listen.path().toString()))
          .channelType(EpollServerDomainSocketChannel.class)
          .bossEventLoopGroup(new EpollEventLoopGroup(1, new DefaultThreadFactory("wirebench-control-boss", true)))
          .workerEventLoopGroup(new EpollEventLoopGroup(1, new DefaultThreadFactory("wirebench-control", true)));
    } else {
      b = NettyServerBuilder.forAddress(listen.inet());
    }
    // Intervals carry three encoded histograms: well under gRPC's 4 MiB default.
    return b.addService(svc).build().start();
  }

  static Address bound(Server s, Address listen) {
    return listen.isUnix() ? listen : Address.of((InetSocketAddress) s.getListenSockets().get(0));
  }
}
