package gotunedjson

// Every JSON encoding and decoding of the adapter is here: a hand-written codec for
// exactly the bodies below, with no reflection, in the manner of easyjson's generated
// code. Encoders append one JSON value and a newline (which keeps curl's output tidy)
// to a pooled buffer; decoders read one value from a byte slice and copy what they
// keep, so the slice may be reused as soon as they return.
//
// easyjson's generated code, goccy/go-json and sonic do the same job: BenchmarkCodecs
// (libs_bench_test.go) measures this codec against each on the same messages. Measured
// (docs/codecs.md): this codec encodes fastest and allocates least everywhere, but
// goccy/go-json decodes a single person or an echo in less time (at 4-5 times the
// allocations). End to end, go-json's decoders in this stack's client cost about 4 %
// less CPU per person.get call, within the trial's 10 % margin, and nothing in the
// instrument; the decoders stay, for the reasons docs/codecs.md gives ("The trial, end
// to end").
//
// What goes through which code, body by body (every body goes through the fast codec;
// encoding/json is only the reference the tests compare it with):
//
//	body                        shape                          encode / decode
//	Person                      {"id",...,"picture"?}          encodePerson / decodePerson
//	person list                 {"persons":[Person...]}        encodePersonList / decodePersonList
//	links                       {"links":[{"p1","p2"}...]}     encodeLinks / decodeLinks
//	echo request and answer     {"payload":"..."}              encodeEcho / decodeEcho
//	increment request, answer   {"value":N}                    encodeValue / decodeValue
//	stats                       {"calls","last_payload_len"}   encodeStats / decodeStats
//	error body                  {"code","message"}             encodeError / decodeError
//	trade stream line           trade, {"end"} or {"error"}    tradeEncoder / decodeStreamLine
//
// The contract with encoding/json, the production stack's codec (codec_ref_test.go
// holds these to it):
//   - Encoders write the bytes json.Encoder writes with SetEscapeHTML(false) for the
//     same Go values (jsonwrite.go), so <, > and & are not escaped; an encoder that
//     fails (a price that is NaN, a side that is neither BUY nor SELL) writes nothing.
//   - Decoders accept what json.Unmarshal accepts and store what it stores
//     (jsonread.go has the rules: key case folding, null, repeated keys, numbers),
//     with one difference: the strings of one decoded value (a person, a link, an
//     error body) share one allocation, so keeping one field keeps them all; and a
//     stream's trades share the strings of the symbols they repeat.

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// maxPooledBuffer is the largest buffer put back in a pool: bigger ones (a huge echo
// or person list) are left to the garbage collector rather than pinned.
const maxPooledBuffer = 4 << 20

// encoder is a reusable output buffer. It is owned by one goroutine at a time.
type encoder struct {
	buf bytes.Buffer
}

var encoders = sync.Pool{New: func() any { return new(encoder) }}

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

// avail returns the buffer's free space, grown to at least n bytes, to append to and
// then hand to commit.
func (e *encoder) avail(n int) []byte {
	e.buf.Grow(n)
	return e.buf.AvailableBuffer()
}

// commit ends a value appended to avail's slice with a newline and writes it.
func (e *encoder) commit(b []byte) error {
	e.buf.Write(append(b, '\n'))
	return nil
}

// personSize is about the largest encoded person of the data set, to size buffers.
const personSize = 512

func encodePerson(e *encoder, p *contract.Person) error {
	return e.commit(appendPerson(e.avail(personSize), p))
}

// decodePerson decodes into *p, which should be the zero Person.
func decodePerson(data []byte, p *contract.Person) error {
	r := getReader(data)
	r.person(p, "")
	r.end()
	r.flush()
	return wrapSyntax(r.release(), "person")
}

func encodePersonList(e *encoder, ps []contract.Person) error {
	b := append(e.avail(16+len(ps)*personSize), `{"persons":`...)
	b = appendPersons(b, ps)
	return e.commit(append(b, '}'))
}

func decodePersonList(data []byte) ([]contract.Person, error) {
	var ps []contract.Person
	r := getReader(data)
	if r.object("", "a person list") {
		for first := true; r.more('}', &first); {
			if r.key(personListFields) == 0 {
				ps = r.persons(ps)
			} else {
				r.skip()
			}
		}
	}
	r.end()
	return ps, wrapSyntax(r.release(), "person list")
}

func encodeLinks(e *encoder, links []contract.PersonLink) error {
	b := append(e.avail(16+len(links)*2*personSize), `{"links":`...)
	if links == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range links {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"p1":`...)
			b = appendPerson(b, &links[i].P1)
			b = append(b, `,"p2":`...)
			b = appendPerson(b, &links[i].P2)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return e.commit(append(b, '}'))
}

func decodeLinks(data []byte) ([]contract.PersonLink, error) {
	var links []contract.PersonLink
	r := getReader(data)
	if r.object("", "a link list") {
		for first := true; r.more('}', &first); {
			if r.key(linkListFields) == 0 {
				links = r.links(links)
			} else {
				r.skip()
			}
		}
	}
	r.end()
	return links, wrapSyntax(r.release(), "link list")
}

func encodeEcho(e *encoder, payload string) error {
	b := append(e.avail(16+len(payload)), `{"payload":`...)
	b = appendString(b, payload)
	return e.commit(append(b, '}'))
}

// decodeEcho decodes an echo body; a body without a payload (or with a null one) is
// an error.
func decodeEcho(data []byte) (string, error) {
	var (
		payload string
		present bool
	)
	r := getReader(data)
	if r.object("", "an echo body") {
		for first := true; r.more('}', &first); {
			if r.key(echoFields) != 0 {
				r.skip()
				continue
			}
			// A later payload replaces an earlier one, a null one included.
			b, ok := r.stringValue("payload", "a string")
			if present = ok; ok {
				payload = string(b)
			}
		}
	}
	r.end()
	if err := r.release(); err != nil {
		return "", wrapSyntax(err, "echo body")
	}
	if !present {
		return "", errors.New(`echo body: missing "payload"`)
	}
	return payload, nil
}

func encodeValue(e *encoder, n int64) error {
	b := append(e.avail(32), `{"value":`...)
	b = strconv.AppendInt(b, n, 10)
	return e.commit(append(b, '}'))
}

// decodeValue decodes an increment body; a body without a value (or with a null one)
// is an error.
func decodeValue(data []byte) (int64, error) {
	var (
		n       int64
		present bool
	)
	r := getReader(data)
	if r.object("", "an increment body") {
		for first := true; r.more('}', &first); {
			if r.key(valueFields) != 0 {
				r.skip()
				continue
			}
			if present = !r.null(); present {
				r.intField(&n, "value")
			}
		}
	}
	r.end()
	if err := r.release(); err != nil {
		return 0, wrapSyntax(err, "increment body")
	}
	if !present {
		return 0, errors.New(`increment body: missing "value"`)
	}
	return n, nil
}

func encodeStats(e *encoder, s contract.Stats) error {
	b := append(e.avail(64), `{"calls":`...)
	b = strconv.AppendInt(b, s.Calls, 10)
	b = append(b, `,"last_payload_len":`...)
	b = strconv.AppendInt(b, s.LastPayloadLen, 10)
	return e.commit(append(b, '}'))
}

func decodeStats(data []byte) (contract.Stats, error) {
	var s contract.Stats
	r := getReader(data)
	if r.object("", "stats") {
		for first := true; r.more('}', &first); {
			switch r.key(statsFields) {
			case 0:
				r.intField(&s.Calls, "calls")
			case 1:
				r.intField(&s.LastPayloadLen, "last_payload_len")
			default:
				r.skip()
			}
		}
	}
	r.end()
	return s, wrapSyntax(r.release(), "stats")
}

func encodeError(e *encoder, ce *contract.Error) error {
	return e.commit(appendErrorBody(e.avail(64+len(ce.Message)), ce.Code, ce.Message))
}

// decodeError returns the contract error an error body carries, or nil when the body
// is not an error body of ours (another server's page, a code we do not know).
func decodeError(data []byte) *contract.Error {
	var b httpjson.ErrorBody
	r := getReader(data)
	r.errorBody(&b, "")
	r.end()
	r.flush()
	if r.release() != nil || !b.Code.Valid() {
		return nil
	}
	return &contract.Error{Code: b.Code, Message: b.Message}
}

// tradeEncoder encodes the lines of one stream.
type tradeEncoder struct {
	*encoder
}

// tradeLineSize is about the largest trade line, to size buffers.
const tradeLineSize = 160

func (e *tradeEncoder) Trade(t *contract.Trade) error {
	b := append(e.avail(tradeLineSize+len(t.Symbol)), `{"id":`...)
	b = strconv.AppendInt(b, t.ID, 10)
	b = append(b, `,"symbol":`...)
	b = appendString(b, t.Symbol)
	b = append(b, `,"price":`...)
	b, err := appendFloat(b, t.Price)
	if err != nil {
		return fmt.Errorf("trade %d: price %v: %w", t.ID, t.Price, err)
	}
	b = append(b, `,"quantity":`...)
	b = strconv.AppendInt(b, t.Quantity, 10)
	b = append(b, `,"timestamp_nanos":`...)
	b = strconv.AppendInt(b, t.TimestampNanos, 10)
	switch t.Side {
	case contract.Buy:
		b = append(b, `,"side":"BUY"}`...)
	case contract.Sell:
		b = append(b, `,"side":"SELL"}`...)
	default:
		return fmt.Errorf("trade %d: side %d is neither BUY nor SELL", t.ID, t.Side)
	}
	return e.commit(b)
}

// originalLineSize is about the largest line of the original's trade, to size
// buffers: 23 names, 13 strings of Podam's 10 characters, 10 longs of 20 digits.
const originalLineSize = 600

// OriginalTrade encodes one of the original's trades under its camelCase names, as
// the original's Jackson wrote its Trade bean.
func (e *tradeEncoder) OriginalTrade(t *contract.OriginalTrade) error {
	b := append(e.avail(originalLineSize), `{"id":`...)
	b = appendString(b, t.ID)
	b = append(b, `,"externalId":`...)
	b = appendString(b, t.ExternalID)
	b = append(b, `,"info":`...)
	b = appendString(b, t.Info)
	b = append(b, `,"str1":`...)
	b = appendString(b, t.Str1)
	b = append(b, `,"str2":`...)
	b = appendString(b, t.Str2)
	b = append(b, `,"str3":`...)
	b = appendString(b, t.Str3)
	b = append(b, `,"str4":`...)
	b = appendString(b, t.Str4)
	b = append(b, `,"str5":`...)
	b = appendString(b, t.Str5)
	b = append(b, `,"str6":`...)
	b = appendString(b, t.Str6)
	b = append(b, `,"str7":`...)
	b = appendString(b, t.Str7)
	b = append(b, `,"str8":`...)
	b = appendString(b, t.Str8)
	b = append(b, `,"str9":`...)
	b = appendString(b, t.Str9)
	b = append(b, `,"str10":`...)
	b = appendString(b, t.Str10)
	b = append(b, `,"long1":`...)
	b = strconv.AppendInt(b, t.Long1, 10)
	b = append(b, `,"long2":`...)
	b = strconv.AppendInt(b, t.Long2, 10)
	b = append(b, `,"long3":`...)
	b = strconv.AppendInt(b, t.Long3, 10)
	b = append(b, `,"long4":`...)
	b = strconv.AppendInt(b, t.Long4, 10)
	b = append(b, `,"long5":`...)
	b = strconv.AppendInt(b, t.Long5, 10)
	b = append(b, `,"long6":`...)
	b = strconv.AppendInt(b, t.Long6, 10)
	b = append(b, `,"long7":`...)
	b = strconv.AppendInt(b, t.Long7, 10)
	b = append(b, `,"long8":`...)
	b = strconv.AppendInt(b, t.Long8, 10)
	b = append(b, `,"long9":`...)
	b = strconv.AppendInt(b, t.Long9, 10)
	b = append(b, `,"long10":`...)
	b = strconv.AppendInt(b, t.Long10, 10)
	return e.commit(append(b, '}'))
}

func (e *tradeEncoder) End(count int64) error {
	b := append(e.avail(32), `{"end":{"count":`...)
	b = strconv.AppendInt(b, count, 10)
	return e.commit(append(b, '}', '}'))
}

func (e *tradeEncoder) StreamError(ce *contract.Error) error {
	b := append(e.avail(80+len(ce.Message)), `{"error":`...)
	b = appendErrorBody(b, ce.Code, ce.Message)
	return e.commit(append(b, '}'))
}

// streamLine is what the client decodes each line of a stream into, besides the
// trade: whether the line was one of the two final lines, and what it said. It is
// reused from line to line, which lets it keep the storage of End and Error and the
// symbols seen lately.
type streamLine struct {
	End   *httpjson.StreamEnd
	Error *httpjson.ErrorBody

	end     httpjson.StreamEnd
	symbols symbolCache
}

// decodeStreamLine decodes one line of a stream into *l, which it resets first.
// On a trade line, l.End and l.Error are nil and the trade is in *t; on the others, *t
// holds whatever trade fields the line had.
func decodeStreamLine(data []byte, l *streamLine, t *contract.Trade) error {
	l.End, l.Error = nil, nil
	*t = contract.Trade{}
	r := getReader(data)
	r.streamLine(l, t)
	r.end()
	r.flush()
	return wrapSyntax(r.release(), "stream line")
}

// decodeOriginalLine is decodeStreamLine for a line of the original's trades.
func decodeOriginalLine(data []byte, l *streamLine, t *contract.OriginalTrade) error {
	l.End, l.Error = nil, nil
	*t = contract.OriginalTrade{}
	r := getReader(data)
	r.originalLine(l, t)
	r.end()
	r.flush()
	return wrapSyntax(r.release(), "stream line")
}

// wrapSyntax names what was being decoded in a decoding error, and says where a
// syntax error is.
func wrapSyntax(err error, what string) error {
	if err == nil {
		return nil
	}
	var se *syntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s: malformed JSON at byte %d: %w", what, se.Offset, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}
