# The wirebench benchmark contract as Cap'n Proto (see DESIGN.md, "The contract").
# The capnp protocol serves the Wirebench interface below as the bootstrap capability of
# every connection (two-party Cap'n Proto RPC over a plain byte stream, unpacked framing).
#
# Errors: when the service refuses a call, the call fails with a Cap'n Proto exception
# of type `failed` whose reason reads
#
#     wirebench:<code>: <message>
#
# with <code> one of the contract codes: not_found (an unknown id), invalid_argument
# (a bad person, a trade count out of range), resource_exhausted, internal. Any other
# exception (disconnected, overloaded, a reason without the prefix) is a failure of the
# call itself, not an answer of the service. A message over the receiver's size limit
# makes the receiver abort the whole connection (the abort reason says "message too
# large"), as Cap'n Proto has no per-call way to refuse a frame it did not read.
#
# The schema imports nothing, so any Cap'n Proto implementation loads it as it is (e.g.
# pycapnp: capnp.load("contract/schema/wirebench.capnp")). Its Go annotations (package
# and import path) live in wirebench.capnp.go-annotations; regenerate the Go code with
# contract/schema/generate-capnp.sh, which adds them to a copy for capnpc-go.
@0x98763451efb5e90a;

struct PersonName {
  title @0 :Text;
  first @1 :Text;
  last @2 :Text;
}

struct Location {
  street @0 :Text;
  city @1 :Text;
  state @2 :Text;
  postCode @3 :Text;
}

struct Picture {
  large @0 :Text;
  medium @1 :Text;
  thumbnail @2 :Text;
}

struct Person {
  id @0 :Int64;
  name @1 :PersonName;
  gender @2 :Text;
  location @3 :Location;
  email @4 :Text;
  picture @5 :Picture;
  # A null pointer (hasPicture() false) means the person has no picture; a set pointer,
  # even to a picture of empty texts, means it has one. Writers leave it unset for
  # "absent" and readers test presence, never the default value.
}

struct PersonLink {
  p1 @0 :Person;
  p2 @1 :Person;
}

enum Side {
  buy @0;
  sell @1;
}

struct Trade {
  id @0 :Int64;
  symbol @1 :Text;
  price @2 :Float64;
  quantity @3 :Int64;
  timestampNanos @4 :Int64;
  side @5 :Side;
}

struct Stats {
  calls @0 :Int64;
  # Number of echo calls the service has answered.
  lastPayloadLen @1 :Int64;
  # Length in bytes of the payload of the latest echo call.
}

interface TradeSink {
  # Receives the trades of one streamTrades call, in order. The server sends the
  # trades in batches (pushes); the receiver processes pushes one at a time, in order.
  # A push that fails (the receiver wants no more trades) makes the server stop.

  push @0 (trades :List(Trade)) -> stream;
  # The next trades of the stream: trade i of the stream equals the contract's TradeAt(i).

  done @1 (count :Int64);
  # The stream ended after count trades. Called once, after every push; its return
  # means every push was processed.
}

struct OriginalTrade {
  # The REST vs gRPC original's trade (its ProtoTrade's fields, in its order).
  id @0 :Text;
  externalId @1 :Text;
  info @2 :Text;
  str1 @3 :Text;
  str2 @4 :Text;
  str3 @5 :Text;
  str4 @6 :Text;
  str5 @7 :Text;
  str6 @8 :Text;
  str7 @9 :Text;
  str8 @10 :Text;
  str9 @11 :Text;
  str10 @12 :Text;
  long1 @13 :Int64;
  long2 @14 :Int64;
  long3 @15 :Int64;
  long4 @16 :Int64;
  long5 @17 :Int64;
  long6 @18 :Int64;
  long7 @19 :Int64;
  long8 @20 :Int64;
  long9 @21 :Int64;
  long10 @22 :Int64;
}

interface OriginalTradeSink {
  # TradeSink for the original's trades: trade i of the stream equals the contract's
  # OriginalTradeAt(i).

  push @0 (trades :List(OriginalTrade)) -> stream;
  done @1 (count :Int64);
}

interface Wirebench {
  listPersons @0 () -> (persons :List(Person));
  # The whole data set, in id order.

  getPerson @1 (id :Int64) -> (person :Person);
  # not_found for an unknown id.

  getPersonLinks @2 (id :Int64) -> (links :List(PersonLink));
  # not_found for an unknown id.

  createPerson @3 (person :Person) -> (person :Person);
  # Returns the person with the id the server assigned; invalid_argument without a
  # first and last name or without an '@' in the email.

  echo @4 (payload :Text) -> (payload :Text);
  # Returns the payload unchanged.

  stats @5 () -> Stats;
  # The echo call count and the length of the latest echo payload.

  increment @6 (value :Int64) -> (value :Int64);
  # Returns value + 1 (ping-pong).

  streamTrades @7 (count :Int64, sink :TradeSink) -> ();
  # Pushes count trades, TradeAt(0) ... TradeAt(count-1), to sink, then calls
  # sink.done(count), then returns. invalid_argument for a count out of range.

  streamOriginalTrades @8 (count :Int64, sink :OriginalTradeSink) -> ();
  # streamTrades for the original's trades, OriginalTradeAt(0) ... OriginalTradeAt(count-1).
}
