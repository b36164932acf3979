package websocketproto

// The messages of the wire mapping as Go types for encoding/json. The contract's model
// types go as they are (contract/model.go carries their JSON names); the envelopes and
// the small bodies are here.

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/wirebench/wirebench/contract"
)

// The operations, as the op of a request.
const (
	opListPersons    = "listPersons"
	opGetPerson      = "getPerson"
	opGetPersonLinks = "getPersonLinks"
	opCreatePerson   = "createPerson"
	opEcho           = "echo"
	opStats          = "stats"
	opIncrement      = "increment"
	opStreamTrades   = "streamTrades"
	// opCancel cancels the call of the same id; it has no answer of its own.
	opCancel = "cancel"
)

// messageTimeout bounds, on both sides, the writing of one message and, on the
// server, the arrival of a request once its first frame came (http-json's body
// timeout): a peer that stops reading, or trickles a message, loses the connection
// instead of holding a goroutine and a buffer for ever. Idle connections have no
// timeout: a WebSocket is meant to stay open.
const messageTimeout = 60 * time.Second

type (
	// request is a request as the server reads it: a missing id stays nil.
	request struct {
		ID   *uint64         `json:"id"`
		Op   string          `json:"op"`
		Body json.RawMessage `json:"body"`
	}
	// outRequest is a request as the client writes it.
	outRequest struct {
		ID   uint64 `json:"id"`
		Op   string `json:"op"`
		Body any    `json:"body,omitempty"`
	}
	// answer is a message of the server: a unary answer or stream item (Body), the
	// end of a stream (End), or a refusal (Error).
	answer struct {
		ID    uint64     `json:"id"`
		Body  any        `json:"body,omitempty"`
		Error *wireError `json:"error,omitempty"`
		End   *streamEnd `json:"end,omitempty"`
	}
	// inAnswer is an answer as the client reads it: the body is decoded by the call.
	inAnswer struct {
		ID    uint64          `json:"id"`
		Body  json.RawMessage `json:"body"`
		Error *wireError      `json:"error"`
		End   *streamEnd      `json:"end"`
	}
	wireError struct {
		Code    contract.Code `json:"code"`
		Message string        `json:"message"`
	}
	streamEnd struct {
		Count int64 `json:"count"`
	}
)

// The bodies of requests as the server reads them (a missing field stays nil, so it
// is told from a zero one) and as the client writes them.
type (
	idBody struct {
		ID *int64 `json:"id"`
	}
	echoBody struct {
		Payload *string `json:"payload"`
	}
	valueBody struct {
		Value *int64 `json:"value"`
	}
	countBody struct {
		Count *int64 `json:"count"`
	}
	personList struct {
		Persons []contract.Person `json:"persons"`
	}
	linkList struct {
		Links []contract.PersonLink `json:"links"`
	}
	echoAnswer struct {
		Payload string `json:"payload"`
	}
	valueAnswer struct {
		Value int64 `json:"value"`
	}
)

// wireTrade is a trade as the stream carries it: side "BUY" or "SELL", as http-json
// writes it.
type wireTrade struct {
	ID             int64   `json:"id"`
	Symbol         string  `json:"symbol"`
	Price          float64 `json:"price"`
	Quantity       int64   `json:"quantity"`
	TimestampNanos int64   `json:"timestamp_nanos"`
	Side           string  `json:"side"`
}

func (w *wireTrade) set(t *contract.Trade) {
	*w = wireTrade{ID: t.ID, Symbol: t.Symbol, Price: t.Price, Quantity: t.Quantity,
		TimestampNanos: t.TimestampNanos, Side: t.Side.String()}
}

func (w *wireTrade) trade(t *contract.Trade) error {
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
