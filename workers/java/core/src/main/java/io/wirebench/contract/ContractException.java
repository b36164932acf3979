package io.wirebench.contract;

/**
 * A call the service refused, with its contract code. Servers turn it into their
 * protocol's status; clients turn their protocol's status back into it, so a workload
 * sees the same code whatever the protocol.
 */
public final class ContractException extends RuntimeException {
  private final Code code;

  public ContractException(Code code, String message) {
    super(message, null, false, false); // a refusal is an answer: no stack trace to fill in
    this.code = code;
  }

  public Code code() {
    return code;
  }

  @Override
  public String toString() {
    return code.wire() + ": " + getMessage();
  }
}
