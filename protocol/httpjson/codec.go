package httpjson

// Every JSON encoding and decoding of the adapter is here, so that a hand-written codec
// can replace encoding/json without touching the server or the client. Encoders append
// one JSON value and a newline (which keeps curl's output tidy) to a pooled buffer;
// decoders read one value from a byte slice and copy what they keep, so the slice may
// be reused as soon as they return.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/wirebench/wirebench/contract"
)

// maxPooledBuffer is the largest buffer put back in a pool: bigger ones (a huge echo
// or person list) are left to the garbage collector rather than pinned.
const maxPooledBuffer = 4 << 20

// encoder is a reusable output buffer with a json.Encoder writing into it. HTML
// escaping is off: bodies are not embedded in HTML, and escaping <, > and & would
// only cost time and bytes.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// getEncoder returns an empty encoder from the pool.
func getEncoder() *encoder {
	e := encoders.Get().(*encoder)
	e.buf.Reset()
	return e
}

// putEncoder returns e to the pool; its bytes must no longer be used.
func putEncoder(e *encoder) {
	if e.buf.Cap() <= maxPooledBuffer {
		encoders.Put(e)
	}
}

// Bytes returns what was encoded since getEncoder.
func (e *encoder) Bytes() []byte { return e.buf.Bytes() }

// Wire shapes of the bodies that are not contract types themselves.
type (
	personList struct {
		Persons []contract.Person `json:"persons"`
	}
	linkList struct {
		Links []contract.PersonLink `json:"links"`
	}
	// echoBody is the body of an echo request and of its answer. The pointer makes a
	// missing payload an error rather than an empty payload.
	echoBody struct {
		Payload *string `json:"payload"`
	}
	echoOut struct {
		Payload string `json:"payload"`
	}
	valueBody struct {
		Value *int64 `json:"value"`
	}
	valueOut struct {
		Value int64 `json:"value"`
	}
	errorBody struct {
		Code    contract.Code `json:"code"`
		Message string        `json:"message"`
	}
)

func encodePerson(e *encoder, p *contract.Person) error { return e.enc.Encode(p) }

// decodePerson decodes into *p, which should be the zero Person.
func decodePerson(data []byte, p *contract.Person) error {
	return wrapSyntax(json.Unmarshal(data, p), "person")
}

func encodePersonList(e *encoder, ps []contract.Person) error {
	return e.enc.Encode(personList{Persons: ps})
}

func decodePersonList(data []byte) ([]contract.Person, error) {
	var l personList
	err := json.Unmarshal(data, &l)
	return l.Persons, wrapSyntax(err, "person list")
}

func encodeLinks(e *encoder, links []contract.PersonLink) error {
	return e.enc.Encode(linkList{Links: links})
}

func decodeLinks(data []byte) ([]contract.PersonLink, error) {
	var l linkList
	err := json.Unmarshal(data, &l)
	return l.Links, wrapSyntax(err, "link list")
}

func encodeEcho(e *encoder, payload string) error {
	return e.enc.Encode(echoOut{Payload: payload})
}

// decodeEcho decodes an echo body; a body without a payload is an error.
func decodeEcho(data []byte) (string, error) {
	var b echoBody
	if err := json.Unmarshal(data, &b); err != nil {
		return "", wrapSyntax(err, "echo body")
	}
	if b.Payload == nil {
		return "", errors.New(`echo body: missing "payload"`)
	}
	return *b.Payload, nil
}

func encodeValue(e *encoder, n int64) error { return e.enc.Encode(valueOut{Value: n}) }

// decodeValue decodes an increment body; a body without a value is an error.
func decodeValue(data []byte) (int64, error) {
	var b valueBody
	if err := json.Unmarshal(data, &b); err != nil {
		return 0, wrapSyntax(err, "increment body")
	}
	if b.Value == nil {
		return 0, errors.New(`increment body: missing "value"`)
	}
	return *b.Value, nil
}

func encodeStats(e *encoder, s contract.Stats) error { return e.enc.Encode(s) }

func decodeStats(data []byte) (contract.Stats, error) {
	var s contract.Stats
	err := json.Unmarshal(data, &s)
	return s, wrapSyntax(err, "stats")
}

func encodeError(e *encoder, ce *contract.Error) error {
	return e.enc.Encode(errorBody{Code: ce.Code, Message: ce.Message})
}

// decodeError returns the contract error an error body carries, or nil when the body
// is not an error body of ours (another server's page, a code we do not know).
func decodeError(data []byte) *contract.Error {
	var b errorBody
	if json.Unmarshal(data, &b) != nil || !b.Code.Valid() {
		return nil
	}
	return &contract.Error{Code: b.Code, Message: b.Message}
}

// wireSide is a trade's side on the wire: "BUY" or "SELL", as the enum's names read
// in the contract (and in the protobuf JSON mapping), so a curl user reads them.
type wireSide contract.Side

var (
	buyText  = []byte("BUY")
	sellText = []byte("SELL")
)

func (s wireSide) MarshalText() ([]byte, error) {
	switch contract.Side(s) {
	case contract.Buy:
		return buyText, nil
	case contract.Sell:
		return sellText, nil
	}
	return nil, fmt.Errorf("trade side %d is neither BUY nor SELL", s)
}

func (s *wireSide) UnmarshalText(b []byte) error {
	switch string(b) { // compiled to a comparison, no allocation
	case "BUY":
		*s = wireSide(contract.Buy)
	case "SELL":
		*s = wireSide(contract.Sell)
	default:
		return fmt.Errorf("trade side %q is neither BUY nor SELL", b)
	}
	return nil
}

// wireTrade is one trade line of the stream.
type wireTrade struct {
	ID             int64    `json:"id"`
	Symbol         string   `json:"symbol"`
	Price          float64  `json:"price"`
	Quantity       int64    `json:"quantity"`
	TimestampNanos int64    `json:"timestamp_nanos"`
	Side           wireSide `json:"side"`
}

// streamEnd is the final line of a stream that completed: {"end":{"count":N}}.
type streamEnd struct {
	End struct {
		Count int64 `json:"count"`
	} `json:"end"`
}

// streamError is the final line of a stream that failed after it had started.
type streamError struct {
	Error errorBody `json:"error"`
}

// streamLine is what the client decodes each line of a stream into: a trade's fields,
// or one of the two final lines.
type streamLine struct {
	wireTrade
	End *struct {
		Count int64 `json:"count"`
	} `json:"end"`
	Error *errorBody `json:"error"`
}

// tradeEncoder encodes the lines of one stream. Its wireTrade is reused, so encoding a
// trade allocates nothing for the value handed to encoding/json.
type tradeEncoder struct {
	*encoder
	wt wireTrade
}

func (e *tradeEncoder) encodeTrade(t *contract.Trade) error {
	e.wt = wireTrade{ID: t.ID, Symbol: t.Symbol, Price: t.Price, Quantity: t.Quantity,
		TimestampNanos: t.TimestampNanos, Side: wireSide(t.Side)}
	return e.enc.Encode(&e.wt)
}

func (e *tradeEncoder) encodeEnd(count int64) error {
	var l streamEnd
	l.End.Count = count
	return e.enc.Encode(&l)
}

func (e *tradeEncoder) encodeStreamError(ce *contract.Error) error {
	return e.enc.Encode(&streamError{Error: errorBody{Code: ce.Code, Message: ce.Message}})
}

// decodeStreamLine decodes one line of a stream into *l, which it resets first.
// On a trade line, l.End and l.Error are nil and the trade is in *t.
func decodeStreamLine(data []byte, l *streamLine, t *contract.Trade) error {
	*l = streamLine{}
	if err := json.Unmarshal(data, l); err != nil {
		return wrapSyntax(err, "stream line")
	}
	if l.End == nil && l.Error == nil {
		*t = contract.Trade{ID: l.ID, Symbol: l.Symbol, Price: l.Price, Quantity: l.Quantity,
			TimestampNanos: l.TimestampNanos, Side: contract.Side(l.Side)}
	}
	return nil
}

// wrapSyntax names what was being decoded in a decoding error, and says where a
// syntax error is, since encoding/json's message does not.
func wrapSyntax(err error, what string) error {
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s: malformed JSON at byte %d: %w", what, se.Offset, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}
