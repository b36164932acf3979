package thriftrpc

import (
	"encoding/binary"
	"fmt"
)

// FrameCheck follows the frames of the byte stream a connection receives, refuses a
// frame whose length is over the limit (a *frameSizeError, which the framed transport
// would refuse too, but as an untyped error that a client cannot tell from a broken
// connection), and checks the first four bytes of each frame's message as they
// arrive. The framed
// transport reads a frame whole before the protocol decodes any of it, so without
// this check a peer whose garbage starts with a length under the limit (16 MiB by
// default: "\x00\xff..." claims 16.7 MB) would keep its connection until the idle
// timeout; with it, the connection is closed as soon as its first message shows it is
// no Thrift message of the encoding. It accepts what the library's decoders accept:
//
//   - binary: a strict message header (0x80 0x01, version 1), or an old-style one,
//     whose first four bytes are the method name's length, which must fit the frame;
//   - compact: the protocol id 0x82, then a byte whose low five bits are version 1.
//
// A frame shorter than four bytes is left to the decoder (it is all there already).
// Owned by the connection's reading goroutine.
type FrameCheck struct {
	compact bool
	limit   uint32  // the largest frame, as TConfiguration.GetMaxFrameSize
	head    [4]byte // the frame length being read
	nhead   int
	frame   uint32 // the length of the current frame
	left    int64  // bytes of the current frame still to come; 0 between frames
	first   [4]byte
	nfirst  int
}

// NewFrameCheck returns the check of a connection of the compact encoding (else the
// binary one) whose frames are at most limit bytes (TConfiguration.GetMaxFrameSize).
func NewFrameCheck(compact bool, limit uint32) FrameCheck {
	return FrameCheck{compact: compact, limit: limit}
}

// Check takes the next bytes received.
func (f *FrameCheck) Check(p []byte) error {
	for len(p) > 0 {
		if f.left == 0 {
			k := copy(f.head[f.nhead:], p)
			f.nhead += k
			p = p[k:]
			if f.nhead == 4 {
				f.nhead, f.nfirst = 0, 0
				f.frame = binary.BigEndian.Uint32(f.head[:])
				if f.frame > f.limit {
					return &frameSizeError{size: f.frame, limit: f.limit}
				}
				f.left = int64(f.frame)
			}
			continue
		}
		if need := int(min(f.frame, 4)); f.nfirst < need {
			k := copy(f.first[f.nfirst:need], p)
			f.nfirst += k
			f.left -= int64(k)
			p = p[k:]
			if f.nfirst == 4 {
				if err := f.valid(); err != nil {
					return err
				}
			}
			continue
		}
		k := min(int64(len(p)), f.left)
		f.left -= k
		p = p[k:]
	}
	return nil
}

// valid checks the first four bytes of a message.
func (f *FrameCheck) valid() error {
	b := f.first
	switch {
	case f.compact:
		if b[0] == 0x82 && b[1]&0x1f == 1 {
			return nil
		}
	case b[0]&0x80 != 0:
		if b[0] == 0x80 && b[1] == 0x01 {
			return nil
		}
	default:
		if binary.BigEndian.Uint32(b[:]) <= f.frame-4 {
			return nil
		}
	}
	name := "binary"
	if f.compact {
		name = "compact"
	}
	return fmt.Errorf("not a Thrift %s message: a frame of %d bytes begins % x", name, f.frame, b)
}

// frameSizeError is a frame over the limit.
type frameSizeError struct{ size, limit uint32 }

func (e *frameSizeError) Error() string {
	return fmt.Sprintf("a frame of %d bytes is over the limit of %d (the message limit and %d bytes for the envelope)",
		e.size, e.limit, EnvelopeSlack)
}
