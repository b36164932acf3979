// The wirebench benchmark contract as Apache Thrift IDL (see DESIGN.md, "The contract").
// The thrift protocol serves the service Wirebench with the binary or the compact
// protocol over the framed transport; generate-thrift.sh generates its Go code into
// contract/thriftwire. Any Thrift compiler (0.17 or later) generates a client from
// this file alone: `thrift --gen py wirebench.thrift`.
//
// One service holds every operation: a Thrift connection carries one service unless
// both sides multiplex (TMultiplexedProtocol, which prefixes every method name with its
// service's), and a plain service is what any Thrift client calls as it is.

namespace go thriftwire
namespace py wirebench_thrift
namespace java wirebench.thrift

struct PersonName {
  1: string title
  2: string first
  3: string last
}

struct Location {
  1: string street
  2: string city
  3: string state
  4: string post_code
}

struct Picture {
  1: string large
  2: string medium
  3: string thumbnail
}

struct Person {
  1: i64 id
  2: PersonName name
  3: string gender
  4: Location location
  5: string email
  // Absent when the person has no picture.
  6: optional Picture picture
}

struct PersonLink {
  1: Person p1
  2: Person p2
}

struct Stats {
  // The number of echo calls the service has answered.
  1: i64 calls
  // The length in bytes of the latest echo payload.
  2: i64 last_payload_len
}

enum Side {
  BUY = 0
  SELL = 1
}

struct Trade {
  1: i64 id
  2: string symbol
  3: double price
  4: i64 quantity
  5: i64 timestamp_nanos
  6: Side side
}

// One page of a connection's trade stream.
struct TradePage {
  // The next trades of the stream, in order; empty only when the stream is empty.
  1: list<Trade> trades
  // True on the stream's last page: no nextTrades call follows it.
  2: bool last
}

// The REST vs gRPC original's trade (its ProtoTrade's fields, numbers and types).
struct OriginalTrade {
  1: string id
  2: string external_id
  3: string info
  4: string str1
  5: string str2
  6: string str3
  7: string str4
  8: string str5
  9: string str6
  10: string str7
  11: string str8
  12: string str9
  13: string str10
  14: i64 long1
  15: i64 long2
  16: i64 long3
  17: i64 long4
  18: i64 long5
  19: i64 long6
  20: i64 long7
  21: i64 long8
  22: i64 long9
  23: i64 long10
}

// One page of a connection's stream of the original's trades.
struct OriginalTradePage {
  1: list<OriginalTrade> trades
  2: bool last
}

// The contract's error codes.
enum ErrorCode {
  NOT_FOUND = 1
  INVALID_ARGUMENT = 2
  RESOURCE_EXHAUSTED = 3
  INTERNAL = 4
}

// The service refused the call; code says why.
exception ServiceError {
  1: ErrorCode code
  2: string message
}

service Wirebench {
  // The whole data set, in id order.
  list<Person> listPersons() throws (1: ServiceError error)
  // NOT_FOUND for an unknown id.
  Person getPerson(1: i64 id) throws (1: ServiceError error)
  // NOT_FOUND for an unknown id.
  list<PersonLink> getPersonLinks(1: i64 id) throws (1: ServiceError error)
  // The server assigns the id; INVALID_ARGUMENT without names or a valid email.
  Person createPerson(1: Person person) throws (1: ServiceError error)

  string echo(1: string payload) throws (1: ServiceError error)
  Stats stats() throws (1: ServiceError error)
  // Returns value + 1 (ping-pong).
  i64 increment(1: i64 value) throws (1: ServiceError error)

  // Thrift calls are request and response, so the contract's server stream of count
  // trades (trade i equal to the contract's TradeAt(i)) travels as pages pulled on
  // one connection: streamTrades starts the connection's stream (ending the one it
  // had) and returns its first page, then nextTrades returns each next page until
  // one has last set. A page holds at most page_size trades (0: 1000; at most
  // 10000); the server makes the next page while the client reads this one.
  // cancelTrades ends the connection's stream early; closing the connection ends it
  // too. nextTrades without a stream is INVALID_ARGUMENT.
  TradePage streamTrades(1: i64 count, 2: i32 page_size) throws (1: ServiceError error)
  TradePage nextTrades() throws (1: ServiceError error)
  void cancelTrades()
  // The same for the original's trades (trade i equal to the contract's
  // OriginalTradeAt(i)): streamOriginalTrades starts the connection's stream (ending the
  // one it had), nextOriginalTrades pulls its pages; cancelTrades ends either.
  OriginalTradePage streamOriginalTrades(1: i64 count, 2: i32 page_size) throws (1: ServiceError error)
  OriginalTradePage nextOriginalTrades() throws (1: ServiceError error)
}
