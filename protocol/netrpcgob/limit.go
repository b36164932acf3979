package netrpcgob

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// A gob stream is a sequence of messages, each an unsigned length then that many
// bytes. The length is gob's unsigned integer: one byte under 0x80 is the value
// itself; otherwise the byte is the negated count (1 to 8) of big-endian bytes that
// follow. Gob itself accepts any message under 8 GiB and allocates it whole from its
// length, so a receiver that wants a bound must check the length before gob reads it.

// TooBigError is the error of a LimitReader whose stream sent a message over its limit.
type TooBigError struct {
	Size, Limit uint64
}

func (e *TooBigError) Error() string {
	return fmt.Sprintf("a gob message of %d bytes, over the limit of %d", e.Size, e.Limit)
}

// LimitReader reads a gob stream from r and fails, from its length and before any of
// its bytes are handed on, a message longer than limit; the error (a *TooBigError) is
// then returned by every later Read. It hands gob the bytes of at most one message
// per Read, so it knows where the next length starts. It is owned by the one
// goroutine that decodes the stream.
type LimitReader struct {
	r     *bufio.Reader
	limit uint64
	left  int // bytes of the current message (its length included) not yet read
	err   error
}

// NewLimitReader returns a LimitReader of r with a read buffer of its own.
func NewLimitReader(r io.Reader, limit int) *LimitReader {
	return &LimitReader{r: bufio.NewReader(r), limit: uint64(limit)}
}

// Over reports the *TooBigError the stream met, or nil.
func (l *LimitReader) Over() *TooBigError {
	e, _ := l.err.(*TooBigError)
	return e
}

func (l *LimitReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if l.left == 0 {
		if err := l.next(); err != nil {
			return 0, err
		}
	}
	n, err := l.r.Read(p[:min(len(p), l.left)])
	l.left -= n
	return n, err
}

// ReadByte makes a LimitReader an io.ByteReader, so that gob.NewDecoder reads it
// without a buffer of its own on top.
func (l *LimitReader) ReadByte() (byte, error) {
	var b [1]byte
	if _, err := io.ReadFull(l, b[:]); err != nil {
		return 0, err
	}
	return b[0], nil
}

// next reads the length of the next message without consuming it, and sets left to
// the bytes of the length and the message. A length gob would refuse (a count of
// bytes over 8) is passed on for gob to refuse.
func (l *LimitReader) next() error {
	head, err := l.r.Peek(1)
	if err != nil {
		return err
	}
	if head[0] < 0x80 {
		l.left = 1 + int(head[0])
		return nil
	}
	k := -int(int8(head[0]))
	if k > 8 {
		l.left = 1
		return nil
	}
	head, err = l.r.Peek(1 + k)
	if err != nil {
		return err
	}
	var be [8]byte
	copy(be[8-k:], head[1:])
	size := binary.BigEndian.Uint64(be[:])
	if size > l.limit {
		l.err = &TooBigError{Size: size, Limit: l.limit}
		return l.err
	}
	l.left = 1 + k + int(size)
	return nil
}
