package httpjson

// The bodies as Go types: the contract's model types as they are (contract/model.go
// carries their json tags), and small wire types for the envelopes around them. The
// production stack marshals and unmarshals them with encoding/json's defaults; the
// codec benchmarks run them through the JSON libraries too. Each type marked
// easyjson:json also has the easyjson-generated methods of stdjson_easyjson.go
// (MarshalEasyJSON, UnmarshalEasyJSON; `make generate`), generated with
// -no_std_marshalers so that encoding/json never calls them.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wirebench/wirebench/contract"
)

type (
	// PersonBody is a person as a body of its own (GET /persons/{id}, POST /persons):
	// the contract's type, named here to carry the generated methods.
	//
	//easyjson:json
	PersonBody contract.Person
	// StatsBody is the answer of GET /stats.
	//
	//easyjson:json
	StatsBody contract.Stats
	// ErrorBody is an error body, and the error line of a trade stream:
	// {"code":"<contract code>","message":"..."}.
	//
	//easyjson:json
	ErrorBody struct {
		Code    contract.Code `json:"code"`
		Message string        `json:"message"`
	}
	// StreamEnd is the final line of a stream that completed: {"end":{"count":N}}.
	StreamEnd struct {
		Count int64 `json:"count"`
	}
	// PersonList is the answer of GET /persons.
	//
	//easyjson:json
	PersonList struct {
		Persons []contract.Person `json:"persons"`
	}
	// LinkList is the answer of GET /persons/{id}/links.
	//
	//easyjson:json
	LinkList struct {
		Links []contract.PersonLink `json:"links"`
	}
	// EchoBody is the echo request and answer as written.
	//
	//easyjson:json
	EchoBody struct {
		Payload string `json:"payload"`
	}
	// EchoRead is an echo body as read: a missing or null payload stays nil, so it is
	// told from an empty one.
	//
	//easyjson:json
	EchoRead struct {
		Payload *string `json:"payload"`
	}
	// ValueBody is the increment request and answer as written.
	//
	//easyjson:json
	ValueBody struct {
		Value int64 `json:"value"`
	}
	// ValueRead is an increment body as read; a missing or null value stays nil.
	//
	//easyjson:json
	ValueRead struct {
		Value *int64 `json:"value"`
	}
	// EndLine is the final line of a stream that completed.
	//
	//easyjson:json
	EndLine struct {
		End StreamEnd `json:"end"`
	}
	// ErrorLine is the final line of a stream the server failed.
	//
	//easyjson:json
	ErrorLine struct {
		Error ErrorBody `json:"error"`
	}
	// AnyLine is a stream line as read: a trade, or one of the final lines.
	//
	//easyjson:json
	AnyLine struct {
		WireTrade
		End   *StreamEnd `json:"end"`
		Error *ErrorBody `json:"error"`
	}
)

// OriginalLine is a line of a stream of the original's trades (shape=original) as
// read: a trade, its fields under the original's names (contract.OriginalTrade's
// JSON), or one of the final lines.
type OriginalLine struct {
	contract.OriginalTrade
	End   *StreamEnd `json:"end"`
	Error *ErrorBody `json:"error"`
}

// WireSide is a trade's side on the wire: "BUY" or "SELL", where contract.Side is a
// number.
type WireSide contract.Side

func (s WireSide) MarshalText() ([]byte, error) {
	switch contract.Side(s) {
	case contract.Buy:
		return []byte("BUY"), nil
	case contract.Sell:
		return []byte("SELL"), nil
	}
	return nil, fmt.Errorf("trade side %d is neither BUY nor SELL", s)
}

func (s *WireSide) UnmarshalText(b []byte) error {
	switch string(b) {
	case "BUY":
		*s = WireSide(contract.Buy)
	case "SELL":
		*s = WireSide(contract.Sell)
	default:
		return fmt.Errorf("trade side %q is neither BUY nor SELL", b)
	}
	return nil
}

// WireTrade is a trade line of the stream.
//
//easyjson:json
type WireTrade struct {
	ID             int64    `json:"id"`
	Symbol         string   `json:"symbol"`
	Price          float64  `json:"price"`
	Quantity       int64    `json:"quantity"`
	TimestampNanos int64    `json:"timestamp_nanos"`
	Side           WireSide `json:"side"`
}

func ToWireTrade(t *contract.Trade) WireTrade {
	return WireTrade{ID: t.ID, Symbol: t.Symbol, Price: t.Price, Quantity: t.Quantity,
		TimestampNanos: t.TimestampNanos, Side: WireSide(t.Side)}
}

func (w *WireTrade) Trade() contract.Trade {
	return contract.Trade{ID: w.ID, Symbol: w.Symbol, Price: w.Price, Quantity: w.Quantity,
		TimestampNanos: w.TimestampNanos, Side: contract.Side(w.Side)}
}

// EncodeJSON is an answer's body as encoding/json writes it: what json.Encoder writes
// for v, json.Marshal's bytes and a newline. The production server answers with it,
// and the codec benchmarks measure it.
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := json.NewEncoder(&buf).Encode(v)
	return buf.Bytes(), err
}

// JSONError names what was being decoded in an encoding/json error, and says where a
// syntax error is.
func JSONError(what string, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s: malformed JSON at byte %d: %w", what, se.Offset, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Validator is a body as read that can tell whether it holds what it must.
type Validator interface{ Validate() error }

func (b *EchoRead) Validate() error {
	if b.Payload == nil {
		return errors.New(`echo body: missing "payload"`)
	}
	return nil
}

func (b *ValueRead) Validate() error {
	if b.Value == nil {
		return errors.New(`increment body: missing "value"`)
	}
	return nil
}

// JSONDecodeError returns the contract error an error body carries, or nil when the
// body is not an error body of ours (another server's page, a code we do not know).
func JSONDecodeError(body []byte) *contract.Error {
	var b ErrorBody
	if json.Unmarshal(body, &b) != nil || !b.Code.Valid() {
		return nil
	}
	return &contract.Error{Code: b.Code, Message: b.Message}
}
