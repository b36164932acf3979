package avrowire

import (
	"errors"
	"fmt"
)

// Append appends the Avro binary encoding of m (the record alone: no header, no
// schema fingerprint) to dst.
func Append(dst []byte, m Message) ([]byte, error) {
	t := m.AvroType()
	out, err := t.Schema.AppendEncode(dst, m)
	if err != nil {
		return dst, fmt.Errorf("encode %s: %w", t.Name, err)
	}
	return out, nil
}

// Unmarshal decodes one record of m's type, which must take all of b, into m. Every
// field of m is written (a record has no absent fields), so m needs no reset.
//
// Decoding is bounded by len(b): twmb/avro checks each string, bytes and array
// length, and each array block count, against the bytes left before allocating, so
// a hostile length prefix is an error, not an allocation; nesting is bounded too.
// Strings are copied out of b, which may be reused once Unmarshal returns.
func Unmarshal(b []byte, m Message) error {
	t := m.AvroType()
	rest, err := t.Schema.Decode(b, m)
	if err != nil {
		return fmt.Errorf("decode %s: %w", t.Name, err)
	}
	if len(rest) != 0 {
		return fmt.Errorf("decode %s: %w (%d of %d bytes)", t.Name, ErrTrailingBytes, len(rest), len(b))
	}
	return nil
}

// ErrTrailingBytes is wrapped by Unmarshal's error when bytes follow the record.
var ErrTrailingBytes = errors.New("bytes left after the record")
