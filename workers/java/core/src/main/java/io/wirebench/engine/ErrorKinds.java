package io.wirebench.engine;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.wirebench.contract.ContractException;
import io.wirebench.contract.WrongAnswerException;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;

/**
 * The error kinds of record/errors.go: the contract's codes (not_found, invalid_argument,
 * resource_exhausted, internal), wrong_answer, and the ways a call fails in transit
 * (timeout, canceled, refused, reset, other).
 */
public final class ErrorKinds {
  private ErrorKinds() {}

  public static final String WRONG_ANSWER = "wrong_answer";
  public static final String TIMEOUT = "timeout";
  public static final String CANCELED = "canceled";
  public static final String REFUSED = "refused";
  public static final String RESET = "reset";
  public static final String OTHER = "other";

  /** The kind of a failed call, looking through its causes. */
  public static String classify(Throwable err) {
    if (err instanceof ContractException ce) {
      return ce.code().wire();
    }
    if (err instanceof WrongAnswerException) {
      return WRONG_ANSWER;
    }
    for (Throwable t = err; t != null; t = t.getCause()) {
      if (t instanceof ConnectException) {
        return REFUSED;
      }
      if (t instanceof HttpTimeoutException) {
        return TIMEOUT;
      }
      if (t instanceof ClosedChannelException || t instanceof EOFException) {
        return RESET;
      }
      if (t instanceof IOException && t.getMessage() != null) {
        String m = t.getMessage().toLowerCase(Locale.ROOT);
        if (m.contains("connection refused") || m.contains("no such file")) {
          return REFUSED;
        }
        if (m.contains("reset") || m.contains("broken pipe") || m.contains("closed") || m.contains("eof")
            || m.contains("received no bytes")) {
          return RESET;
        }
      }
    }
    if (err instanceof StatusRuntimeException sre) {
      Status.Code c = sre.getStatus().getCode();
      if (c == Status.Code.DEADLINE_EXCEEDED) {
        return TIMEOUT;
      }
      if (c == Status.Code.CANCELLED) {
        return CANCELED;
      }
    }
    if (err instanceof InterruptedException) {
      return CANCELED;
    }
    return OTHER;
  }
}
