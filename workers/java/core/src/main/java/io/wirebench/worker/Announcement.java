package io.wirebench.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.wirebench.stack.Stack;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@code list --json} prints: this jar's family and its stacks with everything the Go
 * side registers of them (stack/jvm/stacks.json is made from it by {@code make
 * jvm-stacks}), each library with the version this jar carries.
 *
 * <p>The module that makes a jar (scala-2.13, originals-2.12) writes two resources into
 * it at build time: {@value #CLASS_PATH}, the class path its build resolved
 * (maven-dependency-plugin's list goal), from which the versions come, so a version is
 * the one actually in the jar whatever the poms' alignments did; and {@value
 * #PROPERTIES}, its family ("" for the main jar) and the Java release it is compiled for.
 */
final class Announcement {
  static final String CLASS_PATH = "META-INF/wirebench/classpath.txt";
  static final String PROPERTIES = "META-INF/wirebench/worker.properties";

  private Announcement() {}

  /** What the build of a jar says of it: its family, Java release and artifacts' versions. */
  record Build(String family, String javaRelease, Map<String, String> versions) {}

  /**
   * The build of the jar this class is loaded from; IllegalStateException when its
   * resources are missing (classes not packaged by a family module, e.g. core's own).
   */
  static Build build() {
    ClassLoader cl = Announcement.class.getClassLoader();
    try (InputStream props = cl.getResourceAsStream(PROPERTIES); InputStream classPath = cl.getResourceAsStream(CLASS_PATH)) {
      if (props == null || classPath == null) {
        throw new IllegalStateException("this worker carries no " + (props == null ? PROPERTIES : CLASS_PATH)
            + ": only a jar made by a stack family's module (make java) can announce its stacks");
      }
      Properties p = new Properties();
      p.load(new InputStreamReader(props, StandardCharsets.UTF_8));
      String release = p.getProperty("java.release", "");
      if (release.isEmpty() || !p.containsKey("family")) {
        throw new IllegalStateException(PROPERTIES + " lacks family or java.release");
      }
      List<String> lines = new BufferedReader(new InputStreamReader(classPath, StandardCharsets.UTF_8)).lines().toList();
      return new Build(p.getProperty("family"), release, parseClassPath(lines));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The versions of the artifacts listed by maven-dependency-plugin's list goal, by
   * "groupId:artifactId". Its lines are "groupId:artifactId:type[:classifier]:version:scope",
   * indented, maybe followed by " -- module NAME"; other lines (its heading, blank ones)
   * are skipped. An artifact listed with two versions is an error: a class path has one.
   */
  static Map<String, String> parseClassPath(List<String> lines) {
    Map<String, String> versions = new TreeMap<>();
    for (String line : lines) {
      String trimmed = line.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      String[] parts = trimmed.split("\\s+", 2)[0].split(":");
      if (parts.length != 5 && parts.length != 6) {
        continue;
      }
      String key = parts[0] + ":" + parts[1];
      String version = parts[parts.length - 2];
      String before = versions.put(key, version);
      if (before != null && !before.equals(version)) {
        throw new IllegalStateException(CLASS_PATH + " lists " + key + " at " + before + " and " + version);
      }
    }
    return versions;
  }

  /**
   * The announcement of stacks as JSON: the family, then each stack's name, protocol,
   * language, tier, sides, the sides that speak TLS, transports, summary and libraries
   * with their versions ("java" is the release compiled for). IllegalStateException names
   * a library that is not on the build's class path.
   */
  static String json(List<Stack> stacks, Build build) {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = mapper.createObjectNode();
    root.put("family", build.family());
    ArrayNode list = root.putArray("stacks");
    for (Stack s : stacks) {
      ObjectNode o = list.addObject();
      o.put("name", s.name());
      o.put("protocol", s.protocol());
      o.put("language", s.language());
      o.put("tier", s.tier());
      ArrayNode sides = o.putArray("sides");
      ArrayNode tls = o.putArray("tls");
      if (s.hasServer()) {
        sides.add("server");
        if (s.speaksTls(true)) {
          tls.add("server");
        }
      }
      if (s.hasClient()) {
        sides.add("client");
        if (s.speaksTls(false)) {
          tls.add("client");
        }
      }
      if (s.originalTrades()) {
        o.put("original_trades", true);
      }
      if (s.hasServer() && s.servesMessages()) {
        o.putArray("messages").add("server");
      }
      ArrayNode transports = o.putArray("transports");
      new TreeSet<>(s.transports()).forEach(transports::add);
      o.put("summary", s.summary());
      Map<String, String> libs = new TreeMap<>();
      for (String lib : s.libraries()) {
        String v = build.versions().get(lib);
        if (v == null) {
          throw new IllegalStateException("stack " + s.name() + " names library " + lib + ", which is not on this jar's class path ("
              + CLASS_PATH + "): add it to its module's pom, or correct the coordinates");
        }
        libs.put(lib, v);
      }
      libs.put("java", build.javaRelease());
      ObjectNode l = o.putObject("libraries");
      libs.forEach(l::put);
    }
    try {
      return mapper.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
