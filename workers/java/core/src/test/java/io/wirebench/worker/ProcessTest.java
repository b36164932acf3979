package io.wirebench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.wirebench.control.v1.InfoRequest;
import io.wirebench.control.v1.QuitRequest;
import io.wirebench.control.v1.WorkerGrpc;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker process as the driver starts it: one "listening on" line, gone on Quit or when stdin ends. */
class ProcessTest {
  @TempDir
  Path dir;

  private static Process start(String... args) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
        "io.wirebench.worker.Main"));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  private static String firstLine(Process p) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    return r.readLine();
  }

  @Test
  void exitsWhenStdinEnds() throws Exception {
    Path sock = dir.resolve("w.sock");
    Process p = start("worker", "--listen", "unix://" + sock);
    try {
      assertEquals("listening on unix://" + sock, firstLine(p));
      assertTrue(p.isAlive());
      p.getOutputStream().close(); // what a driver killed with -9 does to its end of the pipe
      assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the worker outlived its stdin");
      assertEquals(0, p.exitValue());
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void exitsOnQuit() throws Exception {
    Path sock = dir.resolve("q.sock");
    Process p = start("worker", "--listen", "unix://" + sock);
    EpollEventLoopGroup group = new EpollEventLoopGroup(1);
    ManagedChannel ch = null;
    try {
      assertEquals("listening on unix://" + sock, firstLine(p));
      ch = NettyChannelBuilder.forAddress(new DomainSocketAddress(sock.toString()))
          .eventLoopGroup(group).channelType(EpollDomainSocketChannel.class).usePlaintext().build();
      WorkerGrpc.WorkerBlockingStub w = WorkerGrpc.newBlockingStub(ch);
      assertTrue(w.info(InfoRequest.getDefaultInstance()).getStacksCount() >= 5);
      w.quit(QuitRequest.getDefaultInstance());
      assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the worker did not quit");
      assertEquals(0, p.exitValue());
    } finally {
      if (ch != null) {
        ch.shutdownNow();
      }
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      p.destroyForcibly();
    }
  }

  @Test
  void serveAndUsageErrors() throws Exception {
    Process p = start("serve", "--stack", "grpc-java-okhttp", "--protocol", "grpc-proto", "--listen", "unix://" + dir.resolve("x.sock"));
    assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    assertEquals(2, p.exitValue(), "a stack that cannot speak unix sockets is a usage error");
    p = start("serve", "--stack", "jetty-jackson", "--protocol", "http-json", "--listen", "tcp://127.0.0.1:0");
    try {
      String line = firstLine(p);
      assertTrue(line.startsWith("listening on tcp://127.0.0.1:"), line);
    } finally {
      p.destroy();
      p.waitFor(20, TimeUnit.SECONDS);
    }
  }
}
