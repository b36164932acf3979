package io.wirebench.contract;

/** The contract's error codes (contract/errors.go); every protocol carries them. */
public enum Code {
  /** The id names no person. */
  NOT_FOUND("not_found"),
  /** The request is malformed or a value is invalid. */
  INVALID_ARGUMENT("invalid_argument"),
  /** The request or the response is over the size limit. */
  RESOURCE_EXHAUSTED("resource_exhausted"),
  /** The server failed for a reason of its own. */
  INTERNAL("internal");

  private final String wire;

  Code(String wire) {
    this.wire = wire;
  }

  /** The code as every protocol writes it: "not_found", ... */
  public String wire() {
    return wire;
  }

  /** The code written as {@code wire}, or null when it is none of them. */
  public static Code fromWire(String wire) {
    for (Code c : values()) {
      if (c.wire.equals(wire)) {
        return c;
      }
    }
    return null;
  }
}
