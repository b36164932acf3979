package io.wirebench.contract;

/** An answer that differs from what the contract requires (error kind wrong_answer). */
public final class WrongAnswerException extends RuntimeException {
  public WrongAnswerException(String message) {
    super("wrong answer: " + message, null, false, false);
  }
}
