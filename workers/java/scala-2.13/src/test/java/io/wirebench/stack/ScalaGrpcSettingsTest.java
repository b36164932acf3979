package io.wirebench.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import io.wirebench.stack.akkastack.AkkaGrpcStack;
import io.wirebench.stack.akkastack.AkkaServerSystem;
import io.wirebench.stack.pekkostack.PekkoGrpcStack;
import io.wirebench.stack.pekkostack.PekkoServerSystem;
import org.junit.jupiter.api.Test;

/**
 * The Akka and Pekko gRPC servers' ActorSystems carry the settings Akka HTTP's
 * maintainers give a gRPC server (docs/java-worker.md, "How each stack is set up"), each
 * under its own runtime's keys (the Pekko twin's are renamed from the Akka source), and
 * the HTTP servers keep the runtimes' defaults.
 */
class ScalaGrpcSettingsTest {
  private static final int CPUS = Runtime.getRuntime().availableProcessors();

  @Test
  void akkaGrpcServerIsSetUp() {
    akka.actor.ActorSystem sys = AkkaServerSystem.apply("akka-grpc-settings", 1024L, true, AkkaGrpcStack.settings());
    try {
      assertSettings(sys.settings().config(), "akka", 1, CPUS);
    } finally {
      sys.terminate();
    }
  }

  @Test
  void pekkoGrpcServerIsSetUp() {
    org.apache.pekko.actor.ActorSystem sys = PekkoServerSystem.apply("pekko-grpc-settings", 1024L, true, PekkoGrpcStack.settings());
    try {
      assertSettings(sys.settings().config(), "pekko", 1, CPUS);
    } finally {
      sys.terminate();
    }
  }

  /** The strict-entity threshold and the default dispatcher's cap under the runtime's root key. */
  private static void assertSettings(Config c, String root, int strict, int parallelismMax) {
    assertEquals(strict, c.getInt(root + ".http.server.http2.min-collect-strict-entity-size"));
    assertEquals(parallelismMax, c.getInt(root + ".actor.default-dispatcher.fork-join-executor.parallelism-max"));
  }

  @Test
  void httpServersKeepTheDefaults() {
    akka.actor.ActorSystem sys = AkkaServerSystem.apply("akka-http-settings", 1024L, false, "");
    try {
      // Akka HTTP's and Akka's reference.conf: 0 and 64.
      assertSettings(sys.settings().config(), "akka", 0, 64);
    } finally {
      sys.terminate();
    }
  }
}
