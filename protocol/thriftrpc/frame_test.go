package thriftrpc

import (
	"encoding/binary"
	"testing"
)

// frame returns a frame of body, with its 4-byte length.
func frame(body ...byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body))), body...)
}

func TestFrameCheck(t *testing.T) {
	pad := func(b []byte, n int) []byte { return append(b, make([]byte, n)...) }
	for _, c := range []struct {
		name    string
		compact bool
		stream  []byte
		ok      bool
	}{
		// A strict binary call: version 1 (0x8001), type CALL (1).
		{"binary strict", false, frame(pad([]byte{0x80, 0x01, 0x00, 0x01}, 20)...), true},
		// An old-style binary call: the name's length (3) fits the 12-byte frame.
		{"binary old-style", false, frame(pad([]byte{0, 0, 0, 3}, 8)...), true},
		// The same with a name longer than its frame: garbage.
		{"binary name past frame", false, frame(pad([]byte{0, 0, 0, 200}, 8)...), false},
		// Version 2 of the binary protocol does not exist.
		{"binary bad version", false, frame(pad([]byte{0x80, 0x02, 0x00, 0x01}, 8)...), false},
		// The conformance suite's garbage: its length is under 16 MiB, its body text.
		{"garbage", false, []byte("\x00\xffgarbage\r\n\x7f\x01wirebench"), false},
		// Protocol id 0x82, version 1 with type CALL (1 << 5).
		{"compact", true, frame(pad([]byte{0x82, 0x21, 0, 0}, 8)...), true},
		// A binary message sent to the compact server.
		{"binary to compact", true, frame(pad([]byte{0x80, 0x01, 0x00, 0x01}, 8)...), false},
		// Compact with version 2.
		{"compact bad version", true, frame(pad([]byte{0x82, 0x22, 0, 0}, 8)...), false},
		// An empty frame, then a good one: frames are followed across.
		{"empty frame first", true, append(frame(), frame(pad([]byte{0x82, 0x21}, 6)...)...), true},
		// A short frame is left to the decoder, the next one is checked.
		{"short then bad", true, append(frame(1, 2), frame(pad([]byte{0x80, 0x01}, 6)...)...), false},
		// A frame over the limit of 1000 bytes, refused from its length alone.
		{"over limit", false, binary.BigEndian.AppendUint32(nil, 1001), false},
		// Two good frames back to back, then a bad one.
		{"third bad", false, append(append(frame(pad([]byte{0x80, 1, 0, 1}, 4)...), frame(pad([]byte{0x80, 1, 0, 1}, 9)...)...), frame(pad([]byte{0x81, 1, 0, 1}, 2)...)...), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Whole, and one byte at a time: a check must not depend on how the
			// bytes are cut.
			for _, step := range []int{len(c.stream), 1, 3} {
				f := FrameCheck{compact: c.compact, limit: 1000}
				var err error
				for i := 0; i < len(c.stream) && err == nil; i += step {
					err = f.Check(c.stream[i:min(i+step, len(c.stream))])
				}
				if (err == nil) != c.ok {
					t.Errorf("step %d: check = %v, want ok %v", step, err, c.ok)
				}
			}
		})
	}
}
