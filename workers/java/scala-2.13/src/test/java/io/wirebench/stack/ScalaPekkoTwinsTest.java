package io.wirebench.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Pekko stacks are generated from the Akka ones by renaming (scala-2.13/pom.xml,
 * pekko-sources). Both runtimes are on one class path, so a name the renaming missed would
 * still compile and the "Pekko" stack would quietly run on Akka: this reads the compiled
 * classes' constant pools (every class, method and field they name, every string) and fails
 * when a Pekko class names Akka or an Akka class names Pekko.
 */
class ScalaPekkoTwinsTest {
  private static Path classesOf(String pkg) throws URISyntaxException {
    URL u = ScalaPekkoTwinsTest.class.getClassLoader().getResource("io/wirebench/stack/" + pkg);
    assertNotNull(u, pkg + " is not on the class path");
    return Path.of(u.toURI());
  }

  private static List<Path> classFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".class")).sorted().toList();
    }
  }

  /** The UTF-8 constants of a class file: the names it refers to, its descriptors and strings. */
  static List<String> utf8Constants(byte[] classFile) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor
    in.readUnsignedShort(); // major
    int count = in.readUnsignedShort();
    List<String> out = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> out.add(in.readUTF()); // Utf8
        case 7, 8, 16, 19, 20 -> in.skipNBytes(2); // Class, String, MethodType, Module, Package
        case 15 -> in.skipNBytes(3); // MethodHandle
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4); // Integer, Float, refs, NameAndType, Dynamic
        case 5, 6 -> { // Long, Double take two entries
          in.skipNBytes(8);
          i++;
        }
        default -> throw new IOException("constant pool tag " + tag + " at entry " + i);
      }
    }
    return out;
  }

  private static void namesNone(Path dir, String... forbidden) throws IOException {
    for (Path c : classFiles(dir)) {
      for (String k : utf8Constants(Files.readAllBytes(c))) {
        for (String f : forbidden) {
          assertFalse(k.contains(f), c.getFileName() + " names \"" + k + "\"");
        }
      }
    }
  }

  @Test
  void pekkoClassesNameNoAkka() throws Exception {
    namesNone(classesOf("pekkostack"), "akka/", "akka.", "akkastack", "Akka");
  }

  @Test
  void akkaClassesNameNoPekko() throws Exception {
    namesNone(classesOf("akkastack"), "pekko", "Pekko");
  }

  @Test
  void everyAkkaClassHasItsPekkoTwin() throws Exception {
    TreeSet<String> akka = new TreeSet<>();
    for (Path c : classFiles(classesOf("akkastack"))) {
      akka.add(c.getFileName().toString().replace("Akka", "Pekko"));
    }
    TreeSet<String> pekko = new TreeSet<>();
    for (Path c : classFiles(classesOf("pekkostack"))) {
      pekko.add(c.getFileName().toString());
    }
    assertEquals(akka, pekko);
  }
}
