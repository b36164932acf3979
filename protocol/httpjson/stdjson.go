package httpjson

// The bodies as Go types for encoding/json, which the production stack marshals and
// unmarshals with the standard library's defaults: the contract's model types as they
// are (contract/model.go carries their json tags), and small wire types for the
// envelopes around them. errorBody and streamEnd (codec.go) serve both codecs.

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wirebench/wirebench/contract"
)

type (
	// personList is the answer of GET /persons.
	personList struct {
		Persons []contract.Person `json:"persons"`
	}
	// linkList is the answer of GET /persons/{id}/links.
	linkList struct {
		Links []contract.PersonLink `json:"links"`
	}
	// echoBody is the echo request and answer as written.
	echoBody struct {
		Payload string `json:"payload"`
	}
	// echoRead is an echo body as read: a missing or null payload stays nil, so it is
	// told from an empty one.
	echoRead struct {
		Payload *string `json:"payload"`
	}
	// valueBody is the increment request and answer as written.
	valueBody struct {
		Value int64 `json:"value"`
	}
	// valueRead is an increment body as read; a missing or null value stays nil.
	valueRead struct {
		Value *int64 `json:"value"`
	}
	// endLine is the final line of a stream that completed.
	endLine struct {
		End streamEnd `json:"end"`
	}
	// errorLine is the final line of a stream the server failed.
	errorLine struct {
		Error errorBody `json:"error"`
	}
	// anyLine is a stream line as read: a trade, or one of the final lines.
	anyLine struct {
		wireTrade
		End   *streamEnd `json:"end"`
		Error *errorBody `json:"error"`
	}
)

// wireSide is a trade's side on the wire: "BUY" or "SELL", where contract.Side is a
// number.
type wireSide contract.Side

func (s wireSide) MarshalText() ([]byte, error) {
	switch contract.Side(s) {
	case contract.Buy:
		return []byte("BUY"), nil
	case contract.Sell:
		return []byte("SELL"), nil
	}
	return nil, fmt.Errorf("trade side %d is neither BUY nor SELL", s)
}

func (s *wireSide) UnmarshalText(b []byte) error {
	switch string(b) {
	case "BUY":
		*s = wireSide(contract.Buy)
	case "SELL":
		*s = wireSide(contract.Sell)
	default:
		return fmt.Errorf("trade side %q is neither BUY nor SELL", b)
	}
	return nil
}

// wireTrade is a trade line of the stream.
type wireTrade struct {
	ID             int64    `json:"id"`
	Symbol         string   `json:"symbol"`
	Price          float64  `json:"price"`
	Quantity       int64    `json:"quantity"`
	TimestampNanos int64    `json:"timestamp_nanos"`
	Side           wireSide `json:"side"`
}

func toWireTrade(t *contract.Trade) wireTrade {
	return wireTrade{ID: t.ID, Symbol: t.Symbol, Price: t.Price, Quantity: t.Quantity,
		TimestampNanos: t.TimestampNanos, Side: wireSide(t.Side)}
}

func (w *wireTrade) trade() contract.Trade {
	return contract.Trade{ID: w.ID, Symbol: w.Symbol, Price: w.Price, Quantity: w.Quantity,
		TimestampNanos: w.TimestampNanos, Side: contract.Side(w.Side)}
}

// jsonError names what was being decoded in an encoding/json error, and says where a
// syntax error is.
func jsonError(what string, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s: malformed JSON at byte %d: %w", what, se.Offset, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// validator is a body as read that can tell whether it holds what it must.
type validator interface{ validate() error }

func (b *echoRead) validate() error {
	if b.Payload == nil {
		return errors.New(`echo body: missing "payload"`)
	}
	return nil
}

func (b *valueRead) validate() error {
	if b.Value == nil {
		return errors.New(`increment body: missing "value"`)
	}
	return nil
}

// jsonDecodeError returns the contract error an error body carries, or nil when the
// body is not an error body of ours (another server's page, a code we do not know).
func jsonDecodeError(body []byte) *contract.Error {
	var b errorBody
	if json.Unmarshal(body, &b) != nil || !b.Code.Valid() {
		return nil
	}
	return &contract.Error{Code: b.Code, Message: b.Message}
}
