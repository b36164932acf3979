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

/** The Scala 2.13 stacks refuse setups they cannot serve (core's StackPairsTest runs them against every client). */
class ScalaSetupErrorsTest {
  @TempDir
  Path dir;

  private static Stack stack(String name) {
    return Stacks.all().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  /** Akka HTTP and Pekko HTTP bind TCP only, so their four stacks refuse a Unix socket; options are refused too. */
  @Test
  void scalaStacksRefuseWhatTheyCannotDo() {
    Reference ref = new Reference(Dataset.of(1, 20));
    for (String name : java.util.List.of("akka-http", "akka-grpc", "pekko-http", "pekko-grpc")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> stack(name).startServer(ref,
          new Stack.ServerConfig(Address.unix(dir.resolve(name + ".sock")), 1 << 20, Map.of())));
      assertEquals(name + " does not support unix sockets (it speaks tcp)", e.getMessage());
    }
    for (String name : java.util.List.of("akka-grpc", "http4s-circe")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> stack(name).startServer(ref,
          new Stack.ServerConfig(Address.tcp("127.0.0.1", 0), 1 << 20, Map.of("flow_window", "SMALL"))));
      assertTrue(e.getMessage().contains("takes no options"), e.getMessage());
    }
  }

}
