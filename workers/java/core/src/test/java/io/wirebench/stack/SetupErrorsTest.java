package io.wirebench.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wirebench.contract.Dataset;
import io.wirebench.contract.Reference;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad setups are refused with a message that says what would be right. */
class SetupErrorsTest {
  @TempDir
  Path dir;

  private static Stack stack(String name) {
    return Stacks.all().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void unknownStackListsValidNames() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Stacks.lookup("grpc-proto", "grpc-go", false));
    assertTrue(e.getMessage().contains("grpc-java-netty") && e.getMessage().contains("grpc-java-okhttp"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Stacks.lookup("http-json", "java-httpclient", true));
    assertTrue(e.getMessage().contains("jetty-jackson"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Stacks.lookup("capnp", "x", true));
    assertTrue(e.getMessage().contains("no server stack of protocol \"capnp\""), e.getMessage());
  }

  @Test
  void unknownOptionListsKnownNames() {
    Reference ref = new Reference(Dataset.of(1, 20));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> stack("grpc-java-netty").startServer(ref,
        new Stack.ServerConfig(Address.tcp("127.0.0.1", 0), 1 << 20, Map.of("initial_window_size", "1MiB"))));
    assertEquals("grpc-java-netty: unknown option \"initial_window_size\" (known: direct_executor, flow_window, compressors)", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> stack("jetty-jackson").startServer(ref,
        new Stack.ServerConfig(Address.tcp("127.0.0.1", 0), 1 << 20, Map.of("threads", "4"))));
    assertEquals("jetty-jackson: unknown option \"threads\" (known: max_threads, min_threads, thread_idle_timeout,"
        + " output_buffer_size)", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> stack("grpc-java-okhttp").connect(
        new Stack.ClientConfig(Address.tcp("127.0.0.1", 1), 1 << 20, Map.of("flow_window", "HUGE"), null)));
    assertTrue(e.getMessage().contains("SIMILAR_TO_REST"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> stack("grpc-java-avro").connect(
        new Stack.ClientConfig(Address.tcp("127.0.0.1", 1), 1 << 20, Map.of("direct_executor", "yes"), null)));
    assertTrue(e.getMessage().contains("want true or false"), e.getMessage());
  }

  @Test
  void transportsAStackCannotSpeak() {
    Reference ref = new Reference(Dataset.of(1, 20));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> stack("grpc-java-okhttp").startServer(ref,
        new Stack.ServerConfig(Address.unix(dir.resolve("s.sock")), 1 << 20, Map.of())));
    assertTrue(e.getMessage().startsWith("grpc-java-okhttp does not support unix sockets"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> stack("java-httpclient").connect(
        new Stack.ClientConfig(Address.unix(dir.resolve("s.sock")), 1 << 20, Map.of(), null)));
    assertTrue(e.getMessage().startsWith("java-httpclient does not support unix sockets"), e.getMessage());
  }

  @Test
  void sizesParseAsTheGoSideReadsThem() {
    assertEquals(11, Options.parseSize("11"));
    assertEquals(1024, Options.parseSize("1KiB"));
    assertEquals(1024, Options.parseSize("1kib"));
    assertEquals(10240, Options.parseSize("10KB")); // KB is KiB, as in internal/units
    assertEquals(1572864, Options.parseSize("1.5MiB"));
    assertEquals(4 << 20, Options.parseSize("4 MiB"));
    assertThrows(IllegalArgumentException.class, () -> Options.parseSize("0.5B"));
    assertThrows(IllegalArgumentException.class, () -> Options.parseSize("-1"));
    assertThrows(IllegalArgumentException.class, () -> Options.parseSize("5d"));
    assertThrows(IllegalArgumentException.class, () -> Options.parseSize("lots"));
  }

  @Test
  void addressesParseAsTheGoSideReadsThem() {
    assertEquals(Address.tcp("127.0.0.1", 0), Address.parse("tcp://127.0.0.1:0"));
    assertEquals(Address.tcp("::1", 80), Address.parse("tcp://[::1]:80"));
    assertEquals("tcp://[::1]:80", Address.parse("tcp://[::1]:80").toString());
    assertEquals(Address.unix(Path.of("/tmp/x.sock")), Address.parse("unix:///tmp/x.sock"));
    assertEquals(Address.unix(Path.of("/tmp/x.sock")), Address.parse("/tmp/x.sock"));
    assertEquals(Address.tcp("localhost", 8080), Address.parse("localhost:8080"));
    assertThrows(IllegalArgumentException.class, () -> Address.parse("unix://tmp/x.sock"));
    assertThrows(IllegalArgumentException.class, () -> Address.parse("http://x:1"));
    assertThrows(IllegalArgumentException.class, () -> Address.parse("tcp://x:99999"));
    assertThrows(IllegalArgumentException.class, () -> Address.parse(""));
  }
}
