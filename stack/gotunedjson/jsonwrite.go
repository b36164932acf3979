package gotunedjson

// The JSON writing under the hand-written encoders of codec.go. Its output must stay
// byte for byte what encoding/json wrote before (an Encoder with SetEscapeHTML(false)),
// so that curl users see the same bodies: codec_diff_test.go holds it to that.

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, escaped as encoding/json escapes it
// without HTML escaping: '"', '\\' and control bytes (\b, \f, \n, \r and \t by their
// short forms, the others as \u00XX), U+2028 and U+2029 as \u2028 and \u2029 (for
// JSONP), and each byte of invalid UTF-8 as \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	i := 0
	for i < len(s) && i < 16 && safeASCII[s[i]] {
		i++
	}
	if i == 16 { // a long one: on a word at a time
		i = safeWords(s, i)
	}
	for i < len(s) {
		c := s[i]
		if safeASCII[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

var errNotFinite = errors.New("not a finite number, which JSON cannot carry")

// appendFloat appends f as encoding/json writes a float64: the shortest decimal that
// reads back as f, in exponent form below 1e-6 and from 1e21 (as ES6 does), with no
// leading zero in a negative exponent. NaN and infinities are an error.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, errNotFinite
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}
