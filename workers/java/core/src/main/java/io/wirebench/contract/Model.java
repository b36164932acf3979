package io.wirebench.contract;

/**
 * The contract's model types (contract/model.go), as immutable records: equality is by
 * value, Picture included, which is what the workloads' checks compare. The JSON names
 * of the http-json mapping follow from them with a snake_case naming strategy
 * (postCode is post_code).
 */
public final class Model {
  private Model() {}

  /** The name of a Person. */
  public record PersonName(String title, String first, String last) {}

  /** The postal address of a Person. */
  public record Location(String street, String city, String state, String postCode) {}

  /** The URLs of a Person's pictures. */
  public record Picture(String large, String medium, String thumbnail) {}

  /** A record of the person store; picture is null when the person has none. */
  public record Person(long id, PersonName name, String gender, Location location, String email,
      Picture picture) {
    /** This person with another id. */
    public Person withId(long newId) {
      return new Person(newId, name, gender, location, email, picture);
    }
  }

  /** Two related persons. */
  public record PersonLink(Person p1, Person p2) {}

  /** The side of a trade. */
  public enum Side { BUY, SELL }

  /** One element of the StreamTrades stream. */
  public record Trade(long id, String symbol, double price, long quantity, long timestampNanos,
      Side side) {}

  /**
   * The REST vs gRPC original's trade (contract.OriginalTrade): 13 strings and 10
   * longs under the original's names, which are also its JSON names.
   */
  public record OriginalTrade(String id, String externalId, String info,
      String str1, String str2, String str3, String str4, String str5, String str6, String str7, String str8, String str9, String str10,
      long long1, long long2, long long3, long long4, long long5, long long6, long long7, long long8, long long9, long long10) {}

  /** The answer of Stats: Echo calls answered, and the length of the latest payload. */
  public record Stats(long calls, long lastPayloadLen) {}
}
