package io.wirebench.stack.httpjson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wirebench.contract.Dataset;
import io.wirebench.contract.Reference;
import io.wirebench.stack.Address;
import io.wirebench.stack.Options;
import io.wirebench.stack.Stack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

/**
 * jetty-jackson's server options (JettySettings): the REST vs gRPC original's
 * QueuedThreadPool(100, 10, 120) and output buffer of 8100 bytes reach the Jetty server
 * that serves, and bad values are refused naming the option and what it wants.
 */
class JettySettingsTest {
  /** The original's JettyServer.java: QueuedThreadPool(maxThreads 100, minThreads 10, idleTimeout 120 ms), output buffer 8100. */
  static final Map<String, String> ORIGINAL = Map.of("max_threads", "100", "min_threads", "10",
      "thread_idle_timeout", "120ms", "output_buffer_size", "8100");

  private static JettyJacksonStack.JettyServer start(Map<String, String> options) throws Exception {
    return new JettyJacksonStack().startServer(new Reference(Dataset.of(1, 20)),
        new Stack.ServerConfig(Address.tcp("127.0.0.1", 0), 1 << 20, options));
  }

  @Test
  void theOriginalsSettingsReachTheServer() throws Exception {
    try (JettyJacksonStack.JettyServer s = start(ORIGINAL)) {
      QueuedThreadPool pool = assertInstanceOf(QueuedThreadPool.class, s.jetty().getThreadPool());
      assertEquals(100, pool.getMaxThreads());
      assertEquals(10, pool.getMinThreads());
      assertEquals(120, pool.getIdleTimeout());
      HttpConnectionFactory http = s.jetty().getConnectors()[0].getConnectionFactory(HttpConnectionFactory.class);
      assertEquals(8100, http.getHttpConfiguration().getOutputBufferSize());
    }
  }

  @Test
  void leftOutTheyAreJettysDefaults() throws Exception {
    try (JettyJacksonStack.JettyServer s = start(Map.of())) {
      QueuedThreadPool pool = assertInstanceOf(QueuedThreadPool.class, s.jetty().getThreadPool());
      assertEquals(200, pool.getMaxThreads());
      assertEquals(8, pool.getMinThreads());
      assertEquals(60_000, pool.getIdleTimeout());
      HttpConnectionFactory http = s.jetty().getConnectors()[0].getConnectionFactory(HttpConnectionFactory.class);
      assertEquals(32768, http.getHttpConfiguration().getOutputBufferSize());
    }
    // One pool option alone: the others at Jetty's defaults.
    try (JettyJacksonStack.JettyServer s = start(Map.of("max_threads", "50"))) {
      QueuedThreadPool pool = assertInstanceOf(QueuedThreadPool.class, s.jetty().getThreadPool());
      assertEquals(50, pool.getMaxThreads());
      assertEquals(8, pool.getMinThreads());
      assertEquals(60_000, pool.getIdleTimeout());
    }
  }

  /**
   * The buffer's effect on the wire: GET /trades streams chunked NDJSON (flushed every
   * 256 trades, about 25 KB of wirebench's trade), so with Jetty's 32 KiB buffer a flush
   * goes out as one chunk of some 25 KB, and with the original's 8100 Jetty writes
   * whenever its buffer is full: chunks of 8192 bytes, the buffer as Jetty 12.1's buffer
   * pool hands it out (its buckets round 8100 up to 8192), never larger.
   */
  @Test
  void theOutputBufferBoundsTheChunksOnTheWire() throws Exception {
    try (JettyJacksonStack.JettyServer s = start(ORIGINAL)) {
      List<Integer> chunks = chunkSizes(s.address(), "/trades?count=2000");
      assertTrue(chunks.size() > 10, chunks.toString());
      assertTrue(chunks.stream().allMatch(n -> n <= 8192), chunks.toString());
      assertTrue(chunks.stream().filter(n -> n == 8192).count() > chunks.size() / 2, chunks.toString());
    }
    try (JettyJacksonStack.JettyServer s = start(Map.of())) {
      List<Integer> chunks = chunkSizes(s.address(), "/trades?count=2000");
      assertTrue(chunks.stream().anyMatch(n -> n > 8192), chunks.toString());
    }
  }

  @Test
  void badValuesAreRefusedNamingTheOption() {
    for (String[] c : new String[][] {
        {"max_threads", "0", "jetty-jackson: option max_threads: want a whole number of threads from 1 to 10000, got \"0\""},
        {"max_threads", "lots", "jetty-jackson: option max_threads: want a whole number of threads from 1 to 10000, got \"lots\""},
        {"min_threads", "-1", "jetty-jackson: option min_threads: want a whole number of threads from 0 to 10000, got \"-1\""},
        {"min_threads", "300", "jetty-jackson: option min_threads (300) is more than max_threads (200, Jetty's default)"},
        {"thread_idle_timeout", "120", "jetty-jackson: option thread_idle_timeout: want a duration such as 120ms, 60s or 1m30s, got \"120\""},
        {"thread_idle_timeout", "500us", "jetty-jackson: option thread_idle_timeout: want a whole number of milliseconds from 1ms"
            + " (Jetty's unit), such as 120ms or 60s, got \"500us\""},
        {"output_buffer_size", "0", "jetty-jackson: option output_buffer_size: want a size from 1B to 64MiB such as 8100 or 32KiB, got \"0\""},
        {"output_buffer_size", "1GiB", "jetty-jackson: option output_buffer_size: want a size from 1B to 64MiB such as 8100 or 32KiB, got \"1GiB\""},
        {"threads", "4", "jetty-jackson: unknown option \"threads\" (known: max_threads, min_threads, thread_idle_timeout, output_buffer_size)"},
    }) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> start(Map.of(c[0], c[1])), c[0] + "=" + c[1]);
      assertEquals(c[2], e.getMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> start(Map.of("max_threads", "20", "min_threads", "30")));
    assertEquals("jetty-jackson: option min_threads (30) is more than max_threads (20)", e.getMessage());
  }

  @Test
  void durationsParseAsTheGoSideWritesThem() {
    assertEquals(120_000_000L, Options.parseDuration("s", "o", "120ms"));
    assertEquals(60_000_000_000L, Options.parseDuration("s", "o", "60s"));
    assertEquals(90_000_000_000L, Options.parseDuration("s", "o", "1m30s"));
    assertEquals(1_500_000_000L, Options.parseDuration("s", "o", "1.5s"));
    assertEquals(2_000L, Options.parseDuration("s", "o", "2µs"));
    for (String bad : new String[] {"", "120", "ms", "-1s", "1d", "1s2"}) {
      assertThrows(IllegalArgumentException.class, () -> Options.parseDuration("s", "o", bad), bad);
    }
  }

  /** The sizes of the chunks of a chunked HTTP/1.1 answer to GET path, read off the socket up to its last chunk. */
  private static List<Integer> chunkSizes(Address addr, String path) throws IOException {
    try (Socket sock = new Socket(addr.inet().getAddress(), addr.inet().getPort())) {
      sock.setSoTimeout(10_000);
      OutputStream out = sock.getOutputStream();
      // Kept alive: a response on a connection that closes after it ends with the close, not in chunks.
      out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = sock.getInputStream();
      String head = "";
      while (!head.endsWith("\r\n\r\n")) {
        head += line(in) + "\r\n";
      }
      assertTrue(head.startsWith("HTTP/1.1 200"), head);
      assertTrue(head.toLowerCase().contains("transfer-encoding: chunked"), head);
      List<Integer> sizes = new ArrayList<>();
      for (;;) {
        int n = Integer.parseInt(line(in).split(";")[0].trim(), 16);
        if (n == 0) {
          return sizes;
        }
        sizes.add(n);
        assertEquals(n, in.readNBytes(n).length);
        assertEquals("", line(in));
      }
    }
  }

  /** One CRLF-ended line, without its end. */
  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c; (c = in.read()) != '\n';) {
      if (c < 0) {
        throw new IOException("the answer ended inside a line: " + b);
      }
      b.write(c);
    }
    String s = b.toString(StandardCharsets.US_ASCII);
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }
}
