package gotunedjson

// Strings for the JSON reader (jsonread.go): finding their end, unescaping them as
// encoding/json does, and storing them with one allocation per flush.

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// safeASCII holds the bytes that stand for themselves inside a JSON string, both ways:
// printable ASCII but '"' and '\\'. Bytes from 0x80 are not in it.
var safeASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// safeWords returns the index of the first 8-byte word of s from i that holds a byte
// not in safeASCII (or could: the test may flag a word wrongly, never miss one), or
// the index of the last, partial word: the fast way over long plain strings, too
// slow to start for short ones.
func safeWords[T string | []byte](s T, i int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		q, b := x^(lo*'"'), x^(lo*'\\')
		// Bytes from 0x80, below 0x20, equal to '"', equal to '\\'.
		if (x|(x-lo*0x20)&^x|(q-lo)&^q|(b-lo)&^b)&hi != 0 {
			return i
		}
	}
	return i
}

// str reads the string at pos (its '"' included) and returns where its value is:
// bytes [start, end) of data, or of scratch if escaped (appended there), when it had
// escapes or invalid UTF-8 to replace.
func (r *reader) str() (start, end int, escaped bool) {
	r.pos++ // '"'
	start = r.pos
	data := r.data
	i := start
	for i < len(data) && i-start < 16 && safeASCII[data[i]] {
		i++
	}
	if i-start == 16 { // a long one: on a word at a time
		i = safeWords(data, i)
	}
	for i < len(data) {
		c := data[i]
		if safeASCII[c] {
			i++
			continue
		}
		if c == '"' {
			r.pos = i + 1
			return start, i, false
		}
		if c >= utf8.RuneSelf {
			if rr, size := utf8.DecodeRune(data[i:]); rr != utf8.RuneError || size != 1 {
				i += size
				continue
			}
		}
		// An escape, invalid UTF-8 or a control byte: unescape from here.
		mark := len(r.scratch)
		r.scratch = append(r.scratch, data[start:i]...)
		r.pos = i
		if !r.unescape() {
			return 0, 0, false
		}
		return mark, len(r.scratch), true
	}
	r.pos = len(data)
	r.syntax("unexpected end of JSON input")
	return 0, 0, false
}

// unescape appends to scratch the rest of the string at pos, as encoding/json's
// unquote would, and reads its closing '"'. It reports false on a syntax error.
func (r *reader) unescape() bool {
	data := r.data
	for r.pos < len(data) {
		c := data[r.pos]
		switch {
		case c == '"':
			r.pos++
			return true
		case c == '\\':
			if !r.escape() {
				return false
			}
		case c < 0x20:
			r.unexpected("in string literal")
			return false
		case c < utf8.RuneSelf:
			r.scratch = append(r.scratch, c)
			r.pos++
		default:
			rr, size := utf8.DecodeRune(data[r.pos:])
			if rr == utf8.RuneError && size == 1 {
				r.scratch = utf8.AppendRune(r.scratch, utf8.RuneError)
			} else {
				r.scratch = append(r.scratch, data[r.pos:r.pos+size]...)
			}
			r.pos += size
		}
	}
	r.syntax("unexpected end of JSON input")
	return false
}

// escape appends the value of the escape sequence at pos to scratch.
func (r *reader) escape() bool {
	r.pos++ // '\\'
	if r.pos >= len(r.data) {
		r.syntax("unexpected end of JSON input")
		return false
	}
	var b byte
	switch c := r.data[r.pos]; c {
	case '"', '\\', '/':
		b = c
	case 'b':
		b = '\b'
	case 'f':
		b = '\f'
	case 'n':
		b = '\n'
	case 'r':
		b = '\r'
	case 't':
		b = '\t'
	case 'u':
		rr := r.hex4()
		if rr < 0 {
			return false
		}
		if utf16.IsSurrogate(rr) {
			// A pair only if another \u escape follows and completes it; otherwise
			// U+FFFD, and whatever follows is read on its own.
			if r.pos+1 < len(r.data) && r.data[r.pos] == '\\' && r.data[r.pos+1] == 'u' {
				save := r.pos
				r.pos++
				rr1 := r.hex4()
				if rr1 < 0 {
					return false
				}
				if dec := utf16.DecodeRune(rr, rr1); dec != utf8.RuneError {
					r.scratch = utf8.AppendRune(r.scratch, dec)
					return true
				}
				r.pos = save
			}
			rr = utf8.RuneError
		}
		r.scratch = utf8.AppendRune(r.scratch, rr)
		return true
	default:
		r.unexpected("in string escape code")
		return false
	}
	r.scratch = append(r.scratch, b)
	r.pos++
	return true
}

// hex4 reads the 'u' and four hex digits of a \u escape at pos.
func (r *reader) hex4() rune {
	r.pos++ // 'u'
	var rr rune
	for range 4 {
		if r.pos >= len(r.data) {
			r.syntax("unexpected end of JSON input")
			return -1
		}
		c := r.data[r.pos]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			r.unexpected("in \\u hexadecimal character escape")
			return -1
		}
		rr = rr<<4 | rune(c)
		r.pos++
	}
	return rr
}

// stringField reads a string into *dst, queued until flush; a null leaves *dst.
func (r *reader) stringField(dst *string, field string) {
	switch r.peek() {
	case '"':
		start, end, escaped := r.str()
		if r.err == nil {
			r.spans = append(r.spans, stringSpan{dst: dst, start: start, end: end, escaped: escaped})
		}
	case 'n':
		r.literal("null")
	case '{', '[', 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		r.mismatch(field, "a string")
	default:
		r.unexpected("looking for beginning of value")
	}
}

// stringValue reads a string and returns its value, valid until the next read, and
// true; or reads a null and returns false; or fails.
func (r *reader) stringValue(field, want string) ([]byte, bool) {
	switch r.peek() {
	case '"':
		start, end, escaped := r.str()
		if r.err != nil {
			return nil, false
		}
		if escaped {
			b := r.scratch[start:end]
			r.scratch = r.scratch[:start]
			return b, true
		}
		return r.data[start:end], true
	case 'n':
		r.literal("null")
	case '{', '[', 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		r.mismatch(field, want)
	default:
		r.unexpected("looking for beginning of value")
	}
	return nil, false
}

// flush stores the queued strings, all in one new string.
func (r *reader) flush() {
	if r.err != nil || len(r.spans) == 0 {
		return
	}
	if len(r.spans) == 1 && !r.spans[0].escaped {
		sp := r.spans[0]
		*sp.dst = string(r.data[sp.start:sp.end])
	} else {
		n := 0
		for _, sp := range r.spans {
			n += sp.end - sp.start
		}
		var b strings.Builder
		b.Grow(n)
		for _, sp := range r.spans {
			if sp.escaped {
				b.Write(r.scratch[sp.start:sp.end])
			} else {
				b.Write(r.data[sp.start:sp.end])
			}
		}
		all, at := b.String(), 0
		for _, sp := range r.spans {
			next := at + sp.end - sp.start
			*sp.dst = all[at:next]
			at = next
		}
	}
	clear(r.spans)
	r.spans = r.spans[:0]
	r.scratch = r.scratch[:0]
}

// skipString reads a string at pos, checking it, without keeping its value.
func (r *reader) skipString() {
	data := r.data
	for i := r.pos + 1; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			r.pos = i + 1
			return
		case c == '\\':
			r.pos = i
			mark := len(r.scratch)
			ok := r.escape()
			r.scratch = r.scratch[:mark]
			if !ok {
				return
			}
			i = r.pos - 1
		case c < 0x20:
			r.pos = i
			r.unexpected("in string literal")
			return
		}
	}
	r.pos = len(data)
	r.syntax("unexpected end of JSON input")
}
