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
      Config c = sys.settings().config();
      assertEquals(1, c.getInt("akka.http.server.http2.min-collect-strict-entity-size"));
      assertEquals(CPUS, c.getInt("akka.actor.default-dispatcher.fork-join-executor.parallelism-max"));
    } finally {
      sys.terminate();
    }
  }

  @Test
  void pekkoGrpcServerIsSetUp() {
    org.apache.pekko.actor.ActorSystem sys = PekkoServerSystem.apply("pekko-grpc-settings", 1024L, true, PekkoGrpcStack.settings());
    try {
      Config c = sys.settings().config();
      assertEquals(1, c.getInt("pekko.http.server.http2.min-collect-strict-entity-size"));
      assertEquals(CPUS, c.getInt("pekko.actor.default-dispatcher.fork-join-executor.parallelism-max"));
    } finally {
      sys.terminate();
    }
  }

  @Test
  void httpServersKeepTheDefaults() {
    akka.actor.ActorSystem sys = AkkaServerSystem.apply("akka-http-settings", 1024L, false, "");
    try {
      Config c = sys.settings().config();
      assertEquals(0, c.getInt("akka.http.server.http2.min-collect-strict-entity-size"));
      assertEquals(64, c.getInt("akka.actor.default-dispatcher.fork-join-executor.parallelism-max"));
    } finally {
      sys.terminate();
    }
  }
}
