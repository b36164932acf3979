package netrpcgob_test

import (
	"bytes"
	"encoding/gob"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/protocol/netrpcgob"
)

// Strings encoded by gob itself are read back through the limit, so the lengths are
// gob's: a string of n bytes is one message of n plus a few bytes, whose length
// prefix takes 1 byte under 128 and 1+k bytes above.
func TestLimitReader(t *testing.T) {
	for _, c := range []struct {
		name  string
		sizes []int // strings sent, in order
		limit int
		fail  int // index of the first string refused; -1: none
	}{
		{"short lengths under the limit", []int{0, 1, 100}, 200, -1},
		{"a 2-byte length under the limit", []int{1000, 5}, 2000, -1},
		{"one over the limit after one under", []int{10, 5000}, 2000, 1},
		{"a 4-byte length over the limit", []int{1 << 20}, 1 << 19, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			enc := gob.NewEncoder(&buf)
			for _, n := range c.sizes {
				if err := enc.Encode(strings.Repeat("x", n)); err != nil {
					t.Fatal(err)
				}
			}
			lr := netrpcgob.NewLimitReader(&buf, c.limit)
			dec := gob.NewDecoder(lr)
			for i, n := range c.sizes {
				var s string
				err := dec.Decode(&s)
				var tb *netrpcgob.TooBigError
				switch {
				case i == c.fail:
					if !errors.As(err, &tb) || lr.Over() == nil || tb.Size <= uint64(c.limit) {
						t.Fatalf("string %d (%d bytes): %v, want a *TooBigError over %d", i, n, err, c.limit)
					}
					if err := dec.Decode(&s); !errors.As(err, &tb) {
						t.Errorf("the decode after the refusal: %v, want the same *TooBigError", err)
					}
					return
				case err != nil || len(s) != n:
					t.Fatalf("string %d: %d bytes, %v; want %d", i, len(s), err, n)
				}
			}
			if lr.Over() != nil {
				t.Errorf("Over() = %v after every message passed", lr.Over())
			}
			var s string
			if err := dec.Decode(&s); !errors.Is(err, io.EOF) {
				t.Errorf("after the last message: %v, want EOF", err)
			}
		})
	}
}

// Whatever bytes arrive, gob decoding through the reader ends (an error or a value)
// without a panic: the reader's lengths, passed on or refused, never leave gob
// waiting on bytes that are there.
func FuzzLimitReader(f *testing.F) {
	var buf bytes.Buffer
	gob.NewEncoder(&buf).Encode(strings.Repeat("x", 300))
	f.Add(buf.Bytes())
	f.Add([]byte("\x00\xffgarbage\r\n\x7f\x01wirebench"))
	f.Add([]byte{0xfc, 0x7f, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		lr := netrpcgob.NewLimitReader(bytes.NewReader(b), 256)
		dec := gob.NewDecoder(lr)
		for range 8 {
			var v any
			if err := dec.Decode(&v); err != nil {
				return
			}
		}
	})
}
