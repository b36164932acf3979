package io.wirebench.stack;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** Unix socket files, as transport.Listen treats them. */
public final class UnixSockets {
  private UnixSockets() {}

  /**
   * Removes a stale socket file left by a dead server; fails when a server still
   * listens there or the path is not a socket.
   */
  public static void removeStale(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!a.isOther()) {
      throw new IOException("listen on unix://" + path + ": the path exists and is not a socket; remove it or choose another");
    }
    try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      c.connect(UnixDomainSocketAddress.of(path));
      throw new IOException("listen on unix://" + path + ": a server already listens there");
    } catch (IOException e) {
      if (e.getMessage() != null && e.getMessage().contains("already listens")) {
        throw e;
      }
    }
    Files.deleteIfExists(path);
  }
}
