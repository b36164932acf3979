package io.wirebench;

import java.nio.file.Path;

/** Where the repository's shared files are: surefire passes the root as wirebench.root. */
public final class TestPaths {
  private TestPaths() {}

  public static Path root() {
    String r = System.getProperty("wirebench.root");
    return (r == null ? Path.of("../..") : Path.of(r)).toAbsolutePath().normalize();
  }
}
