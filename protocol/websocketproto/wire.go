package websocketproto

// The messages of the wire mapping as Go types for encoding/json. The contract's model
// types go as they are (contract/model.go carries their JSON names); the envelopes and
// the small bodies are here.

import (
	"encoding/json"
	"fmt"

	"github.com/wirebench/wirebench/contract"
)

// The operations, as the op of a request.
const (
	OpListPersons    = "listPersons"
	OpGetPerson      = "getPerson"
	OpGetPersonLinks = "getPersonLinks"
	OpCreatePerson   = "createPerson"
	OpEcho           = "echo"
	OpStats          = "stats"
	OpIncrement      = "increment"
	OpStreamTrades   = "streamTrades"
	// OpEchoMessage echoes a user's own message (the message workload): its body and
	// its answer's are the message in the protobuf JSON mapping (protojson).
	OpEchoMessage = "echoMessage"
	// opCancel cancels the call of the same id; it has no answer of its own.
	OpCancel = "cancel"
)

type (
	// request is a request as the server reads it: a missing id stays nil.
	Request struct {
		ID   *uint64         `json:"id"`
		Op   string          `json:"op"`
		Body json.RawMessage `json:"body"`
	}
	// outRequest is a request as the client writes it.
	OutRequest struct {
		ID   uint64 `json:"id"`
		Op   string `json:"op"`
		Body any    `json:"body,omitempty"`
	}
	// answer is a message of the server: a unary answer or stream item (Body), the
	// end of a stream (End), or a refusal (Error).
	Answer struct {
		ID    uint64     `json:"id"`
		Body  any        `json:"body,omitempty"`
		Error *WireError `json:"error,omitempty"`
		End   *StreamEnd `json:"end,omitempty"`
	}
	// inAnswer is an answer as the client reads it: the body is decoded by the call.
	InAnswer struct {
		ID    uint64          `json:"id"`
		Body  json.RawMessage `json:"body"`
		Error *WireError      `json:"error"`
		End   *StreamEnd      `json:"end"`
	}
	WireError struct {
		Code    contract.Code `json:"code"`
		Message string        `json:"message"`
	}
	StreamEnd struct {
		Count int64 `json:"count"`
	}
)

// The bodies of requests as the server reads them (a missing field stays nil, so it
// is told from a zero one) and as the client writes them.
type (
	IDBody struct {
		ID *int64 `json:"id"`
	}
	EchoBody struct {
		Payload *string `json:"payload"`
	}
	ValueBody struct {
		Value *int64 `json:"value"`
	}
	CountBody struct {
		Count *int64 `json:"count"`
	}
	PersonList struct {
		Persons []contract.Person `json:"persons"`
	}
	LinkList struct {
		Links []contract.PersonLink `json:"links"`
	}
	EchoAnswer struct {
		Payload string `json:"payload"`
	}
	ValueAnswer struct {
		Value int64 `json:"value"`
	}
)

// wireTrade is a trade as the stream carries it: side "BUY" or "SELL", as http-json
// writes it.
type WireTrade struct {
	ID             int64   `json:"id"`
	Symbol         string  `json:"symbol"`
	Price          float64 `json:"price"`
	Quantity       int64   `json:"quantity"`
	TimestampNanos int64   `json:"timestamp_nanos"`
	Side           string  `json:"side"`
}

func (w *WireTrade) Set(t *contract.Trade) {
	*w = WireTrade{ID: t.ID, Symbol: t.Symbol, Price: t.Price, Quantity: t.Quantity,
		TimestampNanos: t.TimestampNanos, Side: t.Side.String()}
}

func (w *WireTrade) Trade(t *contract.Trade) error {
	var side contract.Side
	switch w.Side {
	case "BUY":
		side = contract.Buy
	case "SELL":
		side = contract.Sell
	default:
		return fmt.Errorf("trade side %q is neither BUY nor SELL", w.Side)
	}
	*t = contract.Trade{ID: w.ID, Symbol: w.Symbol, Price: w.Price, Quantity: w.Quantity,
		TimestampNanos: w.TimestampNanos, Side: side}
	return nil
}
