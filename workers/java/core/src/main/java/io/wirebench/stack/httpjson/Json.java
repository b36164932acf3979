package io.wirebench.stack.httpjson;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.wirebench.contract.Code;
import io.wirebench.contract.Model;
import java.util.List;

/**
 * The http-json bodies (docs/protocols.md) for Jackson databind: the contract's model
 * records as they are, with a snake_case naming strategy (post_code,
 * timestamp_nanos, last_payload_len) and absent values left out (a person without a
 * picture has no "picture"); small records for the wrappers. Jackson's other defaults
 * are kept.
 */
final class Json {
  private Json() {}

  /** One mapper for the stack: ObjectMapper is thread-safe once configured. */
  static final ObjectMapper MAPPER = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .serializationInclusion(JsonInclude.Include.NON_NULL)
      .build();

  record PersonList(List<Model.Person> persons) {}

  record LinkList(List<Model.PersonLink> links) {}

  /** {"payload": "..."}; a missing payload is null, and a bad request. */
  record EchoBody(String payload) {}

  /** {"value": N}; a missing value is null, and a bad request. */
  record ValueBody(Long value) {}

  /** Every refusal's body: {"code":"not_found","message":"..."}. */
  record ErrorBody(String code, String message) {}

  record EndCount(long count) {}

  /** The last line of a complete trade stream: {"end":{"count":N}}. */
  record EndLine(EndCount end) {}

  /** The last line of a stream the server failed after it started. */
  record ErrorLine(ErrorBody error) {}

  /**
   * The original's trades (GET /trades?shape=original) under the original's names,
   * camelCase as Jackson writes a bean by default: {"id":"0","externalId":...,"long10":...}.
   */
  static final ObjectMapper ORIGINAL_MAPPER = JsonMapper.builder()
      .serializationInclusion(JsonInclude.Include.NON_NULL)
      .build();

  /** A stream line as read: the end line, the error line, or a trade. */
  interface Line<T> {
    EndCount end();

    ErrorBody error();

    /** The trade of a line that is neither final line. */
    T trade();
  }

  /** Any line of a trade stream: a trade, or the end or error line. */
  record StreamLine(Long id, String symbol, Double price, Long quantity, Long timestampNanos, Model.Side side,
      EndCount end, ErrorBody error) implements Line<Model.Trade> {
    @Override
    public Model.Trade trade() {
      return new Model.Trade(id, symbol, price, quantity, timestampNanos, side);
    }
  }

  /** Any line of a stream of the original's trades (read with ORIGINAL_MAPPER). */
  record OriginalLine(String id, String externalId, String info,
      String str1, String str2, String str3, String str4, String str5, String str6, String str7, String str8, String str9, String str10,
      Long long1, Long long2, Long long3, Long long4, Long long5, Long long6, Long long7, Long long8, Long long9, Long long10,
      EndCount end, ErrorBody error) implements Line<Model.OriginalTrade> {
    @Override
    public Model.OriginalTrade trade() {
      return new Model.OriginalTrade(id, externalId, info, str1, str2, str3, str4, str5, str6, str7, str8, str9, str10, long1, long2, long3, long4, long5, long6, long7, long8, long9, long10);
    }
  }

  static int status(Code c) {
    return switch (c) {
      case NOT_FOUND -> 404;
      case INVALID_ARGUMENT -> 400;
      case RESOURCE_EXHAUSTED -> 413;
      case INTERNAL -> 500;
    };
  }

  /** The contract code a status stands for when the body says none (another server's). */
  static Code codeOfStatus(int status) {
    return switch (status) {
      case 404 -> Code.NOT_FOUND;
      case 400 -> Code.INVALID_ARGUMENT;
      case 413 -> Code.RESOURCE_EXHAUSTED;
      case 500 -> Code.INTERNAL;
      default -> null;
    };
  }
}
