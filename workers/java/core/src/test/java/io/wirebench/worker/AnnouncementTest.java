package io.wirebench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wirebench.stack.Stack;
import io.wirebench.stack.Stacks;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** list --json's parts: the build's class path read, and the stacks written with their versions. */
class AnnouncementTest {
  @Test
  void classPathVersionsByArtifact() {
    // Lines as maven-dependency-plugin 3.8.1's list goal writes them.
    List<String> lines = List.of(
        "",
        "The following files have been resolved:",
        "   io.grpc:grpc-okhttp:jar:1.82.2:compile -- module io.grpc.okhttp",
        "   com.google.protobuf:protoc:exe:linux-x86_64:4.36.2:compile",
        "   org.scala-lang:scala-library:jar:2.13.17:compile -- module scala.library [auto]",
        "");
    assertEquals(Map.of("io.grpc:grpc-okhttp", "1.82.2", "com.google.protobuf:protoc", "4.36.2",
        "org.scala-lang:scala-library", "2.13.17"), Announcement.parseClassPath(lines));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> Announcement.parseClassPath(List.of("   a:b:jar:1:compile", "   a:b:jar:2:runtime")));
    assertTrue(e.getMessage().contains("a:b at 1 and 2"), e.getMessage());
  }

  /** A build whose class path holds every library core's stacks name, at version "v" + its length. */
  private static Announcement.Build coreBuild(String family) {
    Map<String, String> versions = new TreeMap<>();
    for (Stack s : Stacks.all()) {
      s.libraries().forEach(lib -> versions.put(lib, "v" + lib.length()));
    }
    return new Announcement.Build(family, "17", versions);
  }

  @Test
  void stacksWithSidesTlsAndVersions() throws Exception {
    JsonNode root = new ObjectMapper().readTree(Announcement.json(Stacks.all(), coreBuild("fam")));
    assertEquals("fam", root.get("family").asText());
    JsonNode okhttp = null;
    for (JsonNode s : root.get("stacks")) {
      if (s.get("name").asText().equals("grpc-java-okhttp")) {
        okhttp = s;
      }
    }
    assertTrue(okhttp != null, root.toString());
    assertEquals("grpc-proto", okhttp.get("protocol").asText());
    assertEquals("java", okhttp.get("language").asText());
    assertEquals("production", okhttp.get("tier").asText());
    assertEquals("[\"server\",\"client\"]", okhttp.get("sides").toString());
    // Its server offers TLS 1.2 alone on the JVM: only the client speaks TLS.
    assertEquals("[\"client\"]", okhttp.get("tls").toString());
    assertEquals("[\"tcp\"]", okhttp.get("transports").toString());
    assertTrue(okhttp.get("summary").asText().startsWith("grpc-java on OkHttp"), okhttp.toString());
    JsonNode libs = okhttp.get("libraries");
    assertEquals("v" + "io.grpc:grpc-okhttp".length(), libs.get("io.grpc:grpc-okhttp").asText());
    assertEquals("17", libs.get("java").asText());
    assertEquals(6, libs.size(), libs.toString());
  }

  @Test
  void aLibraryNotOnTheClassPathIsNamed() {
    Announcement.Build b = coreBuild("");
    Map<String, String> versions = new TreeMap<>(b.versions());
    versions.remove("io.grpc:grpc-okhttp");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> Announcement.json(Stacks.all(), new Announcement.Build("", "17", versions)));
    assertTrue(e.getMessage().contains("stack grpc-java-okhttp names library io.grpc:grpc-okhttp"), e.getMessage());
  }
}
