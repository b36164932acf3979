package gotunedjson

// The JSON reader under the hand-written decoders of codec.go: a cursor over one
// body, in the manner of easyjson's jlexer, that validates as it goes. What it accepts
// and what it stores must stay what encoding/json's Unmarshal accepts and stores for
// the same Go types (codec_diff_test.go and FuzzDecodeDiff hold it to that), so the
// rules below follow encoding/json v1, not only RFC 8259:
//
//   - The whole input must be one JSON value and whitespace, nested at most
//     maxNestingDepth deep, or it is a syntax error (Unmarshal checks the syntax of the
//     whole input first, so a syntax error anywhere rejects the input).
//   - A value of the wrong JSON type for a field is an error; null is never one: it
//     leaves a string, number or struct as it was and sets a pointer or slice to nil.
//   - Strings: invalid UTF-8 bytes and unpaired surrogate escapes become U+FFFD.
//   - Keys match a field's name exactly or, failing that, under Unicode case folding
//     (strings.EqualFold), after unescaping; unknown keys are skipped, whatever their
//     value; a repeated key decodes again into the same field (so the last value
//     wins, and a repeated object merges into the first).
//
// Strings are not stored as they are read: the reader queues where each one goes
// (stringSpan) and flush then makes one string of all of them and points every field
// into it, one allocation per flush instead of one per field. The decoders flush
// once per top-level value or per slice element: before a slice can grow, since
// growing would move the fields the queue points to.

import (
	"strconv"
	"strings"
	"sync"
)

// maxNestingDepth is encoding/json's limit on nested objects and arrays.
const maxNestingDepth = 10000

// reader reads one JSON body. It is owned by one goroutine, for one decode.
type reader struct {
	data  []byte
	pos   int
	depth int   // objects and arrays open at pos
	err   error // the first error; once set, every read is a no-op

	scratch []byte       // strings that needed unescaping, as stored
	spans   []stringSpan // strings read but not yet stored
}

// stringSpan is a string waiting for flush: bytes [start, end) of data, or of scratch
// when escaped, go to *dst.
type stringSpan struct {
	dst        *string
	start, end int
	escaped    bool
}

var readers = sync.Pool{New: func() any { return new(reader) }}

func getReader(data []byte) *reader {
	r := readers.Get().(*reader)
	r.data = data
	return r
}

// release returns r's first error and puts r back in the pool.
func (r *reader) release() error {
	err := r.err
	clear(r.spans) // do not pin the decoded values from the pool
	*r = reader{scratch: r.scratch[:0], spans: r.spans[:0]}
	if cap(r.scratch) <= maxPooledBuffer {
		readers.Put(r)
	}
	return err
}

// syntaxError is a malformed input; Offset is the byte where it was found.
type syntaxError struct {
	msg    string
	Offset int64
}

func (e *syntaxError) Error() string { return e.msg }

// typeError is well-formed JSON of the wrong type for where it goes, or a value out
// of the range of its field.
type typeError struct {
	value  string // what was found: "string", "number 1e3", ...
	field  string
	want   string
	Offset int64
}

func (e *typeError) Error() string {
	where := "at byte " + strconv.FormatInt(e.Offset, 10)
	if e.field != "" {
		where = "field " + strconv.Quote(e.field) + " " + where
	}
	return where + ": cannot decode a JSON " + e.value + " into " + e.want
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.pos = len(r.data) // ends every loop
}

func (r *reader) syntax(msg string) {
	r.fail(&syntaxError{msg: msg, Offset: int64(r.pos)})
}

// unexpected fails on the byte at pos, or on the end of the input.
func (r *reader) unexpected(context string) {
	if r.pos >= len(r.data) {
		r.syntax("unexpected end of JSON input")
		return
	}
	r.syntax("invalid character " + quoteChar(r.data[r.pos]) + " " + context)
}

// quoteChar formats c as encoding/json's syntax errors do.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// mismatch fails with a type error for the value at pos, which it names by its first
// byte.
func (r *reader) mismatch(field, want string) {
	if r.err != nil {
		return
	}
	value := "number"
	switch r.peek() {
	case '"':
		value = "string"
	case '{':
		value = "object"
	case '[':
		value = "array"
	case 't', 'f':
		value = "bool"
	case 'n':
		value = "null"
	}
	r.fail(&typeError{value: value, field: field, want: want, Offset: int64(r.pos)})
}

// ws skips whitespace.
func (r *reader) ws() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (r *reader) peek() byte {
	r.ws()
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

// end checks that nothing but whitespace follows the top-level value.
func (r *reader) end() {
	if r.peek(); r.pos < len(r.data) {
		r.unexpected("after top-level value")
	}
}

// literal reads the literal word (null, true, false) whose first byte is at pos.
func (r *reader) literal(word string) {
	for i := 0; i < len(word); i++ {
		if r.pos >= len(r.data) || r.data[r.pos] != word[i] {
			r.unexpected("in literal " + word + " (expecting " + quoteChar(word[i]) + ")")
			return
		}
		r.pos++
	}
}

// null reads a null if one is next, and reports whether it did.
func (r *reader) null() bool {
	if r.peek() != 'n' {
		return false
	}
	r.literal("null")
	return true
}

// open reads the '{' or '[' at pos.
func (r *reader) open() {
	r.pos++
	if r.depth++; r.depth > maxNestingDepth {
		r.pos--
		r.unexpected("(exceeded max depth)")
	}
}

// object starts reading an object into a struct field: it reads the '{' and reports
// true, or reads a null and reports false (null leaves a struct as it is), or fails.
// The caller then loops over the members with more and key.
func (r *reader) object(field, want string) bool {
	switch r.peek() {
	case '{':
		r.open()
		return r.err == nil
	case 'n':
		r.literal("null")
	case '"', '[', 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		r.mismatch(field, want)
	default:
		r.unexpected("looking for beginning of value")
	}
	return false
}

// array is object for '[' and a slice field; a null sets the slice to nil, which is
// the caller's business, so array reports it.
func (r *reader) array(field, want string) (ok, null bool) {
	switch r.peek() {
	case '[':
		r.open()
		return r.err == nil, false
	case 'n':
		r.literal("null")
		return false, r.err == nil
	case '"', '{', 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		r.mismatch(field, want)
	default:
		r.unexpected("looking for beginning of value")
	}
	return false, false
}

// more reports whether the object or array being read (closed by end) has another
// member, reading the ',' before it or the closing byte. first is true before the
// first member.
func (r *reader) more(end byte, first *bool) bool {
	c := r.peek()
	if c == end && r.pos < len(r.data) {
		r.pos++
		r.depth--
		return false
	}
	if !*first {
		if c != ',' {
			if end == '}' {
				r.unexpected("after object key:value pair")
			} else {
				r.unexpected("after array element")
			}
			return false
		}
		r.pos++
	}
	*first = false
	return r.err == nil
}

// key reads a member's key and the ':' after it, and returns the index in fields of
// the field it names, or -1 for a key of no field.
func (r *reader) key(fields []string) int {
	if r.peek() != '"' {
		r.unexpected("looking for beginning of object key string")
		return -1
	}
	mark := len(r.scratch)
	var key []byte
	if start, end, escaped := r.str(); escaped {
		key = r.scratch[start:end]
	} else {
		key = r.data[start:end]
	}
	i := fieldIndex(key, fields)
	r.scratch = r.scratch[:mark] // the key was only needed here
	if r.peek() != ':' {
		r.unexpected("after object key")
		return -1
	}
	r.pos++
	return i
}

// fieldIndex returns the index of the field named key, matched as encoding/json
// does: exactly, else under case folding.
func fieldIndex(key []byte, fields []string) int {
	for i, f := range fields {
		if string(key) == f {
			return i
		}
	}
	for i, f := range fields {
		if strings.EqualFold(string(key), f) {
			return i
		}
	}
	return -1
}

// number reads the number at pos, checked against JSON's grammar, and returns it and
// whether it is an integer (no fraction, no exponent).
func (r *reader) number() (tok []byte, integer bool) {
	data, start := r.data, r.pos
	i := start
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && '1' <= data[i] && data[i] <= '9':
		for i++; i < len(data) && '0' <= data[i] && data[i] <= '9'; i++ {
		}
	default:
		r.pos = i
		r.unexpected("in numeric literal")
		return nil, false
	}
	integer = true
	if i < len(data) && data[i] == '.' {
		integer = false
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			r.pos = i
			r.unexpected("after decimal point in numeric literal")
			return nil, false
		}
		for i++; i < len(data) && '0' <= data[i] && data[i] <= '9'; i++ {
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		integer = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			r.pos = i
			r.unexpected("in exponent of numeric literal")
			return nil, false
		}
		for i++; i < len(data) && '0' <= data[i] && data[i] <= '9'; i++ {
		}
	}
	r.pos = i
	return data[start:i], integer
}

// intField reads an int64 into *dst; a null leaves *dst. A fraction, an exponent or a
// value out of range is a type error, as strconv.ParseInt's refusal is for
// encoding/json.
func (r *reader) intField(dst *int64, field string) {
	switch c := r.peek(); {
	case c == '-' || '0' <= c && c <= '9':
		at := r.pos
		tok, integer := r.number()
		if r.err != nil {
			return
		}
		n, ok := parseInt(tok)
		if !integer || !ok {
			r.fail(&typeError{value: "number " + string(tok), field: field, want: "an int64", Offset: int64(at)})
			return
		}
		*dst = n
	case c == 'n':
		r.literal("null")
	case c == '"' || c == '{' || c == '[' || c == 't' || c == 'f':
		r.mismatch(field, "an int64")
	default:
		r.unexpected("looking for beginning of value")
	}
}

// parseInt parses a JSON integer token (grammar already checked), failing as
// strconv.ParseInt does outside the range of int64.
func parseInt(tok []byte) (int64, bool) {
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	const limit = 1 << 63 // the magnitude of MinInt64
	var u uint64
	for _, c := range tok {
		d := uint64(c - '0')
		if u > (limit-d)/10 {
			return 0, false
		}
		u = u*10 + d
	}
	if neg {
		return int64(-u), true // -(1<<63) wraps to MinInt64, as wanted
	}
	if u == limit {
		return 0, false
	}
	return int64(u), true
}

// floatField reads a float64 into *dst with strconv.ParseFloat; a null leaves *dst.
func (r *reader) floatField(dst *float64, field string) {
	switch c := r.peek(); {
	case c == '-' || '0' <= c && c <= '9':
		at := r.pos
		tok, _ := r.number()
		if r.err != nil {
			return
		}
		f, err := strconv.ParseFloat(string(tok), 64)
		if err != nil {
			r.fail(&typeError{value: "number " + string(tok), field: field, want: "a float64", Offset: int64(at)})
			return
		}
		*dst = f
	case c == 'n':
		r.literal("null")
	case c == '"' || c == '{' || c == '[' || c == 't' || c == 'f':
		r.mismatch(field, "a float64")
	default:
		r.unexpected("looking for beginning of value")
	}
}

// skip reads and drops a value of any type.
func (r *reader) skip() {
	switch c := r.peek(); c {
	case '"':
		r.skipString()
	case '{':
		r.open()
		for first := true; r.more('}', &first); {
			if r.peek() != '"' {
				r.unexpected("looking for beginning of object key string")
				return
			}
			r.skipString()
			if r.peek() != ':' {
				r.unexpected("after object key")
				return
			}
			r.pos++
			r.skip()
		}
	case '[':
		r.open()
		for first := true; r.more(']', &first); {
			r.skip()
		}
	case 't':
		r.literal("true")
	case 'f':
		r.literal("false")
	case 'n':
		r.literal("null")
	default:
		if c == '-' || '0' <= c && c <= '9' {
			r.number()
			return
		}
		r.unexpected("looking for beginning of value")
	}
}
