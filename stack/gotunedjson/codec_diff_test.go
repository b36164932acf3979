package gotunedjson

// Differential tests of the hand-written codec against encoding/json (the reference
// in codec_ref_test.go): encoders must write the same bytes, decoders must accept
// the same inputs and store the same values. There are no exceptions to exclude: the
// decoders match encoding/json's case folding, null handling and repeated keys too.

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// edgeStrings are strings that exercise escaping both ways.
var edgeStrings = func() []string {
	var all, ctl strings.Builder
	for c := range 256 {
		all.WriteByte(byte(c))
	}
	for c := range 0x20 {
		ctl.WriteByte(byte(c))
	}
	ctl.WriteByte(0x7f)
	return []string{
		"", "plain", `<script>&amp;</script>`, `quote"back\slash/solidus`, ctl.String(),
		"\u2028\u2029", "héllo", "日本語", "😀", "\ufffd", "\xff", "a\xffb", "\xed\xa0\x80",
		"\xe2\x82", "\xf4\x90\x80\x80", "\xc0\xaf", "tab\tnl\ncr\r", all.String(),
		strings.Repeat("x", 5000), strings.Repeat("é\"", 700),
	}
}()

// edgeFloats are prices around encoding/json's format switches.
var edgeFloats = []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 100, 123456.789, 1e-6, 9.99e-7,
	1e-7, 1e-9, 1e-10, 1e20, 9.99e20, 1e21, 1.5e300, 5e-324, math.MaxFloat64, -math.MaxFloat64,
	math.SmallestNonzeroFloat64, 1 << 53, 1<<53 + 1}

var edgeInts = []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64, math.MaxInt32, 1e15}

// encodedBy returns what encode wrote, and checks that a failing encoder wrote
// nothing.
func encodedBy(t testing.TB, encode func(e *encoder) error) ([]byte, error) {
	t.Helper()
	e := getEncoder()
	defer putEncoder(e)
	e.buf.WriteString("before")
	err := encode(e)
	got := e.Bytes()
	if !bytes.HasPrefix(got, []byte("before")) {
		t.Fatalf("the encoder overwrote what the buffer held: %q", got)
	}
	got = got[len("before"):]
	if err != nil && len(got) != 0 {
		t.Errorf("a failing encoder wrote %q", got)
	}
	return append([]byte(nil), got...), err
}

// sameEncoding fails t unless got and want are the same bytes and errors agree.
func sameEncoding(t testing.TB, what string, got []byte, err error, want []byte, werr error) {
	t.Helper()
	if (err == nil) != (werr == nil) {
		t.Errorf("%s: error %v, encoding/json's %v", what, err, werr)
		return
	}
	if err == nil && !bytes.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// edgePersons are data set persons with every string field set to s, with and
// without a picture.
func edgePersons(s string) []contract.Person {
	p := contract.Person{ID: -7, Gender: s, Email: s,
		Name:     contract.PersonName{Title: s, First: s + "1", Last: "2" + s},
		Location: contract.Location{Street: s, City: s, State: s, PostCode: s}}
	q := p
	q.Picture = &contract.Picture{Large: s, Medium: s, Thumbnail: s}
	return []contract.Person{p, q}
}

func TestEncodeMatchesEncodingJSON(t *testing.T) {
	persons := benchData.Persons()
	for _, s := range edgeStrings {
		persons = append(persons, edgePersons(s)...)
	}
	for _, p := range persons {
		got, err := encodedBy(t, func(e *encoder) error { return encodePerson(e, &p) })
		want, werr := refEncode(&p)
		sameEncoding(t, "person", got, err, want, werr)
	}
	for _, ps := range [][]contract.Person{nil, {}, benchData.Persons(), persons} {
		got, err := encodedBy(t, func(e *encoder) error { return encodePersonList(e, ps) })
		want, werr := refEncode(httpjson.PersonList{Persons: ps})
		sameEncoding(t, "person list", got, err, want, werr)
	}
	allLinks := [][]contract.PersonLink{nil, {}, {{P1: persons[len(persons)-1], P2: persons[len(persons)-2]}}}
	for id := range int64(benchData.Size()) {
		links, _ := benchData.Links(id)
		allLinks = append(allLinks, links)
	}
	for _, links := range allLinks {
		got, err := encodedBy(t, func(e *encoder) error { return encodeLinks(e, links) })
		want, werr := refEncode(httpjson.LinkList{Links: links})
		sameEncoding(t, "links", got, err, want, werr)
	}
	for _, s := range append(edgeStrings, contract.Payload(1<<10)) {
		got, err := encodedBy(t, func(e *encoder) error { return encodeEcho(e, s) })
		want, werr := refEncode(httpjson.EchoBody{Payload: s})
		sameEncoding(t, "echo", got, err, want, werr)

		for _, code := range append(contract.Codes, contract.Code(s)) {
			ce := &contract.Error{Code: code, Message: s}
			got, err := encodedBy(t, func(e *encoder) error { return encodeError(e, ce) })
			want, werr := refEncode(httpjson.ErrorBody{Code: ce.Code, Message: ce.Message})
			sameEncoding(t, "error body", got, err, want, werr)
			got, err = encodedBy(t, func(e *encoder) error { return (&tradeEncoder{e}).StreamError(ce) })
			want, werr = refEncode(&httpjson.ErrorLine{Error: httpjson.ErrorBody{Code: ce.Code, Message: ce.Message}})
			sameEncoding(t, "stream error line", got, err, want, werr)
		}
	}
	for _, n := range edgeInts {
		got, err := encodedBy(t, func(e *encoder) error { return encodeValue(e, n) })
		want, werr := refEncode(httpjson.ValueBody{Value: n})
		sameEncoding(t, "value", got, err, want, werr)
		st := contract.Stats{Calls: n, LastPayloadLen: -n}
		got, err = encodedBy(t, func(e *encoder) error { return encodeStats(e, st) })
		want, werr = refEncode(st)
		sameEncoding(t, "stats", got, err, want, werr)
		got, err = encodedBy(t, func(e *encoder) error { return (&tradeEncoder{e}).End(n) })
		want, werr = refEncode(httpjson.EndLine{End: httpjson.StreamEnd{Count: n}})
		sameEncoding(t, "end line", got, err, want, werr)
	}
	var trades []contract.Trade
	for i := range int64(2000) {
		trades = append(trades, contract.TradeAt(i))
	}
	for i, f := range append(edgeFloats, -1e-7, 2e21, math.NaN(), math.Inf(1), math.Inf(-1)) {
		trades = append(trades, contract.Trade{ID: int64(i), Symbol: edgeStrings[i%len(edgeStrings)], Price: f,
			Quantity: edgeInts[i%len(edgeInts)], TimestampNanos: -1, Side: contract.Side(i % 3)})
	}
	for _, tr := range trades {
		got, err := encodedBy(t, func(e *encoder) error { return (&tradeEncoder{e}).Trade(&tr) })
		want, werr := refEncodeTrade(&tr)
		sameEncoding(t, "trade", got, err, want, werr)
	}
	// The original's trades, and one of edge strings and longs in every field.
	originals := []contract.OriginalTrade{}
	for i := range int64(2000) {
		originals = append(originals, contract.OriginalTradeAt(i))
	}
	for i, s := range edgeStrings {
		o := contract.OriginalTradeAt(int64(i))
		o.ID, o.Info, o.Str10, o.Long1, o.Long10 = s, s, s, edgeInts[i%len(edgeInts)], -edgeInts[i%len(edgeInts)]
		originals = append(originals, o)
	}
	for _, o := range originals {
		got, err := encodedBy(t, func(e *encoder) error { return (&tradeEncoder{e}).OriginalTrade(&o) })
		want, werr := refEncode(&o)
		sameEncoding(t, "original trade", got, err, want, werr)
	}
}

// decodeCorpus returns bodies of every shape: the data set's, edge cases, and
// variants with whitespace everywhere and members in another order.
func decodeCorpus(t testing.TB) [][]byte {
	var bodies [][]byte
	add := func(b []byte, err error) {
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, b)
	}
	for _, p := range benchData.Persons() {
		add(refEncode(&p))
	}
	add(refEncode(httpjson.PersonList{Persons: benchData.Persons()}))
	for id := range int64(3) {
		links, _ := benchData.Links(id)
		add(refEncode(httpjson.LinkList{Links: links}))
	}
	for _, s := range edgeStrings {
		add(refEncode(edgePersons(s)[1]))
		add(refEncode(httpjson.EchoBody{Payload: s}))
		add(refEncode(httpjson.ErrorBody{Code: contract.Internal, Message: s}))
	}
	for i := range int64(10) {
		tr := contract.TradeAt(i)
		add(refEncodeTrade(&tr))
	}
	add(refEncodeEnd(12))
	add(refEncode(&httpjson.ErrorLine{Error: httpjson.ErrorBody{Code: contract.NotFound, Message: "gone"}}))
	add(refEncode(contract.Stats{Calls: 3, LastPayloadLen: 11}))
	add(refEncode(httpjson.ValueBody{Value: 41}))
	// Members in another order: encoding/json writes a map's keys sorted.
	for _, b := range bodies[:len(bodies):len(bodies)] {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		add(json.Marshal(v))
	}
	// Whitespace around every token.
	for _, b := range bodies[:len(bodies):len(bodies)] {
		bodies = append(bodies, spaced(b))
	}
	for _, s := range edgeCases {
		bodies = append(bodies, []byte(s))
	}
	return bodies
}

// spaced puts whitespace before and after every structural byte of a JSON text.
func spaced(b []byte) []byte {
	var out []byte
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			out = append(out, c, b[i+1])
			i++
			continue
		case c == '"':
			inString = !inString
		case !inString && strings.IndexByte("{}[]:,", c) >= 0:
			out = append(out, " \t\r\n"...)
			out = append(out, c)
			out = append(out, "\n\r\t "...)
			continue
		}
		out = append(out, c)
	}
	return append([]byte("\t \n"), out...)
}

// edgeCases are hand-written bodies: escapes, unicode, nulls, unknown members,
// case, repeated keys, numbers, types, malformed input.
var edgeCases = []string{
	// escapes and unicode
	`{"payload":"\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000"}`,
	`{"payload":"\ud800"}`, `{"payload":"\udc00"}`, `{"payload":"\ud800\u0041"}`,
	`{"payload":"\ud800\ud800\udc00"}`, `{"payload":"\ud800\\"}`, `{"payload":"\udbff\udfff"}`,
	`{"payload":"\ud800\n"}`, `{"payload":"\ud800\u"}`, `{"payload":"\ud800\uzzzz"}`,
	"{\"payload\":\"\xff\xfe\"}", "{\"payload\":\"\xed\xa0\x80\"}", "{\"payload\":\"a\xe2\x82\"}",
	"{\"payload\":\"é\u2028\"}", "{\"pay\xffload\":\"x\"}", "{\"\x80\x97\x97\x97\x97\x97\x97\x97\xa2\":1}",
	"{\"\x80\x97\x97\x97\x97\x97\x97\x97\xa2\"00000", `{"payload":"\'"}`, `{"payload":"\x"}`,
	`{"payload":"a\u12"}`, "{\"payload\":\"a\x01\"}", "{\"payload\":\"a\x7f\"}", `{"payload":"a`,
	`{"payload":"a\`, `{"payload":"\u00`,
	// nulls
	`null`, ` null `, `{"payload":null}`, `{"payload":"a","payload":null}`, `{"payload":null,"payload":"a"}`,
	`{"id":null,"name":null,"gender":null,"location":null,"email":null,"picture":null}`,
	`{"name":{"first":null}}`, `{"picture":{"large":"a"},"picture":null}`,
	`{"picture":{"large":"a"},"picture":{"medium":"b"}}`, `{"picture":{"large":"a"},"picture":null,"picture":{}}`,
	`{"persons":null}`, `{"persons":[null,{}]}`, `{"links":null}`, `{"links":[null]}`, `{"value":null}`,
	`{"side":null}`, `{"symbol":null}`, `{"end":null}`, `{"error":null}`, `{"code":null,"message":null}`,
	`{"end":{"count":1},"end":null,"end":{}}`, `{"error":{"code":"internal"},"error":null,"error":{}}`,
	`{"error":{"code":"internal"},"error":{"message":"m"}}`, `{"gender":"x","gender":null}`,
	// unknown members, any value
	`{"x":{"a":[1,2,{"b":null}]},"id":1,"y":"\u00e9","z":-1.5e10,"w":true,"v":false,"u":null,"t":[],"s":{}}`,
	`{"persons":[],"more":[[[[]]]]}`, `{"name":{"middle":"Q","first":"A"},"location":{"zip":1}}`,
	`{"x":tru}`, `{"x":nul}`, `{"x":[1,]}`, `{"x":{"a"}}`, `{"x":{1:2}}`, `{"x":"\q"}`,
	// case and escaped keys
	`{"ID":5,"NAME":{"First":"x","LAST":"y"},"Picture":{"LARGE":"l"},"E\u006dail":"e"}`,
	`{"\u0069d":3}`, `{"Id":1,"id":2}`, `{"id":2,"Id":1}`, `{"lin\u212as":[]}`, "{\"\u017fymbol\":\"s\"}",
	`{"PAYLOAD":"p"}`, `{"Value":1}`, `{"last_PAYLOAD_len":4,"CALLS":2}`, `{"Post_Code":"x"}`,
	`{"SIDE":"SELL","END":{"COUNT":2}}`, `{"p1":{},"P2":{"id":9}}`, `{"pay load":"x"}`,
	// repeated keys and arrays merged into earlier elements
	`{"persons":[{"id":1,"email":"a"},{"id":2}],"persons":[{"id":3}],"persons":[{},{},{}]}`,
	`{"persons":[{"id":1}],"persons":[]}`, `{"persons":[{"id":1}],"persons":null,"persons":[{}]}`,
	`{"links":[{"p1":{"id":1}},{"p2":{"id":2}}],"links":[{}],"links":[{},{}]}`,
	`{"name":{"first":"a"},"name":{"last":"b"}}`, `{"id":1,"id":2}`,
	// numbers
	`{"value":-0}`, `{"value":9223372036854775807}`, `{"value":-9223372036854775808}`,
	`{"value":9223372036854775808}`, `{"value":-9223372036854775809}`, `{"value":99999999999999999999}`,
	`{"value":1e3}`, `{"value":1.0}`, `{"value":01}`, `{"value":-}`, `{"value":1.}`, `{"value":.5}`,
	`{"value":1e}`, `{"value":1e+}`, `{"value":+1}`, `{"value":0x10}`, `{"value":-01}`, `{"value":1E2}`,
	`{"price":1e400}`, `{"price":-1e400}`, `{"price":4.9e-324}`, `{"price":1e-400}`, `{"price":-0.0}`,
	`{"price":0.1}`, `{"price":123456789012345678901234567890}`, `{"price":1E+2}`, `{"price":2.5e-3}`,
	`{"price":NaN}`, `{"price":Infinity}`, `{"calls":1,"last_payload_len":2.5}`,
	// types
	`{"id":"1"}`, `{"id":true}`, `{"id":{}}`, `{"name":[]}`, `{"name":"x"}`, `{"name":1}`,
	`{"picture":1}`, `{"picture":"x"}`, `{"picture":[]}`, `{"persons":{}}`, `{"persons":[1]}`,
	`{"persons":"x"}`, `{"payload":1}`, `{"payload":{}}`, `{"payload":false}`, `{"value":true}`,
	`{"value":"41"}`, `{"side":1}`, `{"side":"HOLD"}`, `{"side":"buy"}`, `{"side":"B\u0055Y"}`,
	`{"side":[]}`, `{"side":true}`, `{"end":5}`, `{"end":"x"}`, `{"error":[]}`, `{"error":{"code":1}}`,
	`{"code":"internal","message":5}`, `{"code":"bogus","message":"x"}`, `{"code":"not_found"}`,
	`[]`, `[{}]`, `"x"`, `1`, `true`, `false`, `{"symbol":1}`, `{"symbol":{}}`,
	// malformed
	``, ` `, `{`, `}`, `{"id":1,}`, `{,}`, `{"a" 1}`, `{"a":1 "b":2}`, `{'a':1}`, `{"a":1}x`,
	`{"a":1} {}`, `{} null`, `nul`, `nulll`, `tru`, `{"id":1}}`, `{"id":1]`, `[1,]`, `{"id"}`,
	`{"id":}`, `{:1}`, `{"id"::1}`, "{\"id\":1}\x00", "\ufeff{}", "{\"id\":\x001}", `{"a":[}`,
	`{"a":{]}`, `{"a":-x}`,
	// nesting at and past encoding/json's limit
	`{"x":` + strings.Repeat("[", maxNestingDepth-1) + strings.Repeat("]", maxNestingDepth-1) + `}`,
	`{"x":` + strings.Repeat("[", maxNestingDepth) + strings.Repeat("]", maxNestingDepth) + `}`,
	`{"x":` + strings.Repeat(`{"y":`, maxNestingDepth-1) + `1` + strings.Repeat("}", maxNestingDepth-1) + `}`,
	`{"x":` + strings.Repeat(`{"y":`, maxNestingDepth) + `1` + strings.Repeat("}", maxNestingDepth) + `}`,
}

// diffDecode decodes data with every decoder and its reference, and fails t where
// they disagree.
func diffDecode(t testing.TB, data []byte) {
	t.Helper()
	{
		var got, want contract.Person
		err := decodePerson(data, &got)
		sameDecoding(t, "person", data, got, err, want, json.Unmarshal(data, &want))
	}
	{
		got, err := decodePersonList(data)
		var want httpjson.PersonList
		sameDecoding(t, "person list", data, got, err, want.Persons, json.Unmarshal(data, &want))
	}
	{
		got, err := decodeLinks(data)
		var want httpjson.LinkList
		sameDecoding(t, "links", data, got, err, want.Links, json.Unmarshal(data, &want))
	}
	{
		got, err := decodeEcho(data)
		want, werr := refDecodeEcho(data)
		sameDecoding(t, "echo", data, got, err, want, werr)
	}
	{
		got, err := decodeValue(data)
		want, werr := refDecodeValue(data)
		sameDecoding(t, "value", data, got, err, want, werr)
	}
	{
		got, err := decodeStats(data)
		var want contract.Stats
		sameDecoding(t, "stats", data, got, err, want, json.Unmarshal(data, &want))
	}
	if got, want := decodeError(data), refDecodeError(data); !reflect.DeepEqual(got, want) {
		t.Errorf("error body %q: got %#v, encoding/json %#v", data, got, want)
	}
	{
		// l is dirty from an earlier line, as the client's is.
		var (
			l  streamLine
			tr contract.Trade
		)
		if err := decodeStreamLine([]byte(`{"end":{"count":3},"error":{"code":"x","message":"y"},"id":5}`), &l, &tr); err != nil {
			t.Fatal(err)
		}
		err := decodeStreamLine(data, &l, &tr)
		wl, wt, werr := refDecodeStreamLine(data)
		got := httpjson.AnyLine{End: l.End}
		if l.Error != nil {
			got.Error = &httpjson.ErrorBody{Code: l.Error.Code, Message: l.Error.Message}
		}
		want := httpjson.AnyLine{End: wl.End, Error: wl.Error}
		if l.End == nil && l.Error == nil {
			got.WireTrade = httpjson.ToWireTrade(&tr)
			want.WireTrade = httpjson.ToWireTrade(&wt)
		}
		sameDecoding(t, "stream line", data, got, err, want, werr)
	}
}

func sameDecoding(t testing.TB, what string, data []byte, got any, err error, want any, werr error) {
	t.Helper()
	if (err == nil) != (werr == nil) {
		t.Errorf("%s %.200q: error %v, encoding/json's %v", what, data, err, werr)
		return
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%s %.200q:\n got %#v\nwant %#v", what, data, got, want)
	}
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, b := range decodeCorpus(t) {
		diffDecode(t, b)
	}
}

// TestDecodeErrors checks that errors say what was decoded, and where the input is
// malformed.
func TestDecodeErrors(t *testing.T) {
	echo := func(b []byte) error { _, err := decodeEcho(b); return err }
	value := func(b []byte) error { _, err := decodeValue(b); return err }
	for _, c := range []struct {
		decode     func([]byte) error
		body, want string
	}{
		{echo, `{"payload": "unterminated`, "echo body: malformed JSON at byte 25: unexpected end of JSON input"},
		{echo, `{"payload":"\x"}`, `echo body: malformed JSON at byte 13: invalid character 'x' in string escape code`},
		{value, `{"value":"41"}`, `increment body: field "value" at byte 9: cannot decode a JSON string into an int64`},
		{value, `{"value":1e3}`, `increment body: field "value" at byte 9: cannot decode a JSON number 1e3 into an int64`},
		{value, `[]`, `increment body: at byte 0: cannot decode a JSON array into an increment body`},
		{value, `{"value":1}x`, `increment body: malformed JSON at byte 11: invalid character 'x' after top-level value`},
		{value, `{"value":1`, `increment body: malformed JSON at byte 10: unexpected end of JSON input`},
	} {
		if err := c.decode([]byte(c.body)); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.body, err, c.want)
		}
	}
}

// FuzzDecodeDiff: for any input, every decoder accepts it if and only if
// encoding/json does, and then stores the same values.
func FuzzDecodeDiff(f *testing.F) {
	for _, b := range decodeCorpus(f) {
		if len(b) < 4<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { diffDecode(t, data) })
}

// FuzzRoundTrip: what a decoder accepts encodes as encoding/json would encode it,
// and decodes back to the same value.
func FuzzRoundTrip(f *testing.F) {
	for _, b := range decodeCorpus(f) {
		if len(b) < 4<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p contract.Person
		if decodePerson(data, &p) == nil {
			roundTrip(t, "person", p, func(e *encoder, p contract.Person) error { return encodePerson(e, &p) },
				func(b []byte) (contract.Person, error) { var p contract.Person; return p, decodePerson(b, &p) },
				func(p contract.Person) any { return &p })
		}
		if ps, err := decodePersonList(data); err == nil {
			roundTrip(t, "person list", ps, encodePersonList, decodePersonList,
				func(ps []contract.Person) any { return httpjson.PersonList{Persons: ps} })
		}
		if links, err := decodeLinks(data); err == nil {
			roundTrip(t, "links", links, encodeLinks, decodeLinks,
				func(links []contract.PersonLink) any { return httpjson.LinkList{Links: links} })
		}
		if s, err := decodeEcho(data); err == nil {
			roundTrip(t, "echo", s, encodeEcho, decodeEcho, func(s string) any { return httpjson.EchoBody{Payload: s} })
		}
		if n, err := decodeValue(data); err == nil {
			roundTrip(t, "value", n, encodeValue, decodeValue, func(n int64) any { return httpjson.ValueBody{Value: n} })
		}
		if st, err := decodeStats(data); err == nil {
			roundTrip(t, "stats", st, encodeStats, decodeStats, func(st contract.Stats) any { return st })
		}
		if ce := decodeError(data); ce != nil {
			roundTrip(t, "error body", *ce, func(e *encoder, ce contract.Error) error { return encodeError(e, &ce) },
				func(b []byte) (contract.Error, error) { return *decodeError(b), nil },
				func(ce contract.Error) any { return httpjson.ErrorBody{Code: ce.Code, Message: ce.Message} })
		}
		var (
			l  streamLine
			tr contract.Trade
		)
		if decodeStreamLine(data, &l, &tr) == nil && l.End == nil && l.Error == nil {
			roundTrip(t, "trade", tr, func(e *encoder, tr contract.Trade) error { return (&tradeEncoder{e}).Trade(&tr) },
				func(b []byte) (contract.Trade, error) {
					var l streamLine
					var tr contract.Trade
					return tr, decodeStreamLine(b, &l, &tr)
				},
				func(tr contract.Trade) any { w := httpjson.ToWireTrade(&tr); return &w })
		}
	})
}

// roundTrip checks that v encodes as encoding/json encodes ref(v), that the encoding
// decodes to v, and that encoding that encodes the same.
func roundTrip[T any](t *testing.T, what string, v T, encode func(*encoder, T) error,
	decode func([]byte) (T, error), ref func(T) any) {
	t.Helper()
	b, err := encodedBy(t, func(e *encoder) error { return encode(e, v) })
	want, werr := refEncode(ref(v))
	sameEncoding(t, what, b, err, want, werr)
	if err != nil {
		return
	}
	v2, err := decode(b)
	if err != nil || !reflect.DeepEqual(v2, v) {
		t.Errorf("%s: %q decoded to %#v, %v; want %#v", what, b, v2, err, v)
		return
	}
	b2, err := encodedBy(t, func(e *encoder) error { return encode(e, v2) })
	if err != nil || !bytes.Equal(b2, b) {
		t.Errorf("%s: encoded %q, then %q, %v", what, b, b2, err)
	}
}

// FuzzEncodeDiff: for any strings and numbers, the encoders write what
// encoding/json wrote.
func FuzzEncodeDiff(f *testing.F) {
	for i, s := range edgeStrings[:len(edgeStrings)-2] {
		f.Add(s, edgeInts[i%len(edgeInts)], edgeFloats[i%len(edgeFloats)], int8(i%3))
	}
	f.Fuzz(func(t *testing.T, s string, n int64, price float64, side int8) {
		half := len(s) / 2
		ps := edgePersons(s)
		ps[1].Name.First, ps[1].Picture.Medium, ps[1].ID = s[:half], s[half:], n
		for _, p := range ps {
			got, err := encodedBy(t, func(e *encoder) error { return encodePerson(e, &p) })
			want, werr := refEncode(&p)
			sameEncoding(t, "person", got, err, want, werr)
		}
		got, err := encodedBy(t, func(e *encoder) error { return encodeEcho(e, s) })
		want, werr := refEncode(httpjson.EchoBody{Payload: s})
		sameEncoding(t, "echo", got, err, want, werr)
		ce := &contract.Error{Code: contract.Code(s[half:]), Message: s}
		got, err = encodedBy(t, func(e *encoder) error { return encodeError(e, ce) })
		want, werr = refEncode(httpjson.ErrorBody{Code: ce.Code, Message: ce.Message})
		sameEncoding(t, "error body", got, err, want, werr)
		tr := contract.Trade{ID: n, Symbol: s, Price: price, Quantity: -n, TimestampNanos: n ^ 0x5555, Side: contract.Side(side)}
		got, err = encodedBy(t, func(e *encoder) error { return (&tradeEncoder{e}).Trade(&tr) })
		want, werr = refEncodeTrade(&tr)
		sameEncoding(t, "trade", got, err, want, werr)
	})
}
