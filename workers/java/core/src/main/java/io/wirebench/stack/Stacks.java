package io.wirebench.stack;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ServiceLoader;

/** The registry of the stacks this worker runs, found through ServiceLoader. */
public final class Stacks {
  private Stacks() {}

  private static final List<Stack> ALL;

  static {
    List<Stack> all = new ArrayList<>();
    for (Stack s : ServiceLoader.load(Stack.class)) {
      all.add(s);
    }
    ALL = Collections.unmodifiableList(all);
  }

  public static List<Stack> all() {
    return ALL;
  }

  /** The names of the stacks whose server (server true) or client speaks TLS, comma-separated, or "none". */
  public static String withTls(boolean server) {
    List<String> names = new ArrayList<>();
    for (Stack s : ALL) {
      if ((server ? s.hasServer() : s.hasClient()) && s.speaksTls(server)) {
        names.add(s.name());
      }
    }
    return names.isEmpty() ? "none" : String.join(", ", names);
  }

  /**
   * The stack of protocol called name with the side asked for; throws
   * IllegalArgumentException listing the valid names.
   */
  public static Stack lookup(String protocol, String name, boolean server) {
    List<String> valid = new ArrayList<>();
    for (Stack s : ALL) {
      if (!s.protocol().equals(protocol) || !(server ? s.hasServer() : s.hasClient())) {
        continue;
      }
      if (s.name().equals(name)) {
        return s;
      }
      valid.add(s.name());
    }
    String side = server ? "server" : "client";
    if (valid.isEmpty()) {
      List<String> protos = new ArrayList<>();
      for (Stack s : ALL) {
        if ((server ? s.hasServer() : s.hasClient()) && !protos.contains(s.protocol())) {
          protos.add(s.protocol());
        }
      }
      throw new IllegalArgumentException("the JVM worker has no " + side + " stack of protocol \"" + protocol
          + "\" (its protocols: " + String.join(", ", protos) + ")");
    }
    throw new IllegalArgumentException("unknown stack \"" + name + "\" for the " + side + " side of " + protocol
        + " in the JVM worker (known: " + String.join(", ", valid) + ")");
  }
}
