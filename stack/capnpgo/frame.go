package capnpgo

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"time"

	"capnproto.org/go/capnp/v3"
	"capnproto.org/go/capnp/v3/exp/bufferpool"
)

// Reading frames without reserving what has not arrived.
//
// capnp's Decoder reserves a buffer of the size a frame's 8-byte header claims before
// reading its body, so a peer that sends such headers and stalls makes the receiver
// hold the claimed size (up to the message limit, 16 MiB by default) per connection
// for up to messageReadTimeout. The frame reader looks at the header first:
//
//   - a frame of at most eagerFrame bytes goes to capnp's Decoder, which reserves it
//     at once from capnp's buffer pool: a connection's read buffer holds as much;
//   - so does a larger frame while the server's frameBudget, shared by all its
//     connections, has room for it: common traffic reads frames exactly as capnp does;
//   - beyond the budget, a frame is read into a buffer that starts at eagerFrame bytes
//     and grows fourfold whenever it is full, up to the claimed size, so that a peer
//     must send a fifth of a frame to make the receiver reserve all of it.
//
// So stalled peers make a server reserve at most its budget (one message limit) plus
// eagerFrame per connection, and five times what they sent. A client has no budget
// and reads as capnp does: it chose its server.

const (
	// eagerFrame is the largest frame (header included) always reserved whole from
	// its header, and the first buffer of a frame read as it arrives.
	eagerFrame = ioBufferSize

	// maxSegments is capnp's limit on the segments of one frame (its decoder refuses
	// more), which bounds the header at 2 KiB.
	maxSegments = 512
)

// frameBudget bounds the bytes that frames of more than eagerFrame bytes may have
// reserved whole from their headers over all the connections of a server, and counts
// those frames while they arrive (tests read the counts). Safe for concurrent use.
type frameBudget struct {
	limit int64 // set once, before use

	ahead   atomic.Int64 // bytes reserved whole, from headers
	growing atomic.Int64 // bytes of the buffers of frames read as they arrive
	frames  atomic.Int64 // frames of either kind being received
}

// take reserves n bytes of the budget, or reports that they do not fit. A nil budget
// has room for anything.
func (b *frameBudget) take(n int64) bool {
	if b == nil {
		return true
	}
	for {
		cur := b.ahead.Load()
		if cur+n > b.limit {
			return false
		}
		if b.ahead.CompareAndSwap(cur, cur+n) {
			b.frames.Add(1)
			return true
		}
	}
}

// give returns what take reserved.
func (b *frameBudget) give(n int64) {
	if b != nil {
		b.ahead.Add(-n)
		b.frames.Add(-1)
	}
}

// grow counts a change of the buffers of frames read as they arrive (frames: the
// change in their number).
func (b *frameBudget) grow(frames, bytes int64) {
	if b != nil {
		b.frames.Add(frames)
		b.growing.Add(bytes)
	}
}

// frameReader reads the frames of one connection; it is owned by the rpc package's
// reader goroutine.
type frameReader struct {
	msgReader
	dec      *capnp.Decoder // over msgReader, for frames reserved whole
	maxFrame uint64         // the largest frame accepted, header included
	budget   *frameBudget   // nil: every frame is reserved whole
	hdr      []byte         // the header of a frame read as it arrives, reused
}

// readMessage reads the next frame into a message. A frame over maxFrame is refused
// from its header, before anything is reserved for it.
func (r *frameReader) readMessage() (*capnp.Message, error) {
	r.startMessage()
	m, err := r.readFrame()
	if derr := r.endMessage(); err == nil && derr != nil {
		m.Release()
		return nil, derr
	}
	if err != nil {
		if tooLarge(err.Error()) {
			err = fmt.Errorf("frame over the limit of %d bytes: %w", r.maxFrame, err)
		}
		return nil, err
	}
	return m, nil
}

func (r *frameReader) readFrame() (*capnp.Message, error) {
	hdrLen, body, err := r.peekHeader()
	if err != nil {
		return nil, err
	}
	frame := uint64(hdrLen) + body
	if frame > r.maxFrame {
		// capnp's wording, which tooLarge and the peer's abort handling look for.
		return nil, errors.New("decode: message too large")
	}
	if frame <= eagerFrame {
		return r.dec.Decode()
	}
	if r.budget.take(int64(frame)) {
		defer r.budget.give(int64(frame))
		return r.dec.Decode()
	}
	return r.readGrowing(hdrLen, int(body))
}

// peekHeader waits for the header of the next frame, without consuming it, and returns
// its length and the size of the segments it announces.
func (r *frameReader) peekHeader() (hdrLen int, body uint64, err error) {
	b, err := r.peek(8)
	if err != nil {
		return 0, 0, err
	}
	segs := uint64(binary.LittleEndian.Uint32(b)) + 1
	if segs > maxSegments {
		return 0, 0, fmt.Errorf("decode: %d segments, over the limit of %d", segs, maxSegments)
	}
	hdrLen = int((4*(segs+1) + 7) &^ 7) // the count, the sizes, padding to a word
	if b, err = r.peek(hdrLen); err != nil {
		return 0, 0, err
	}
	for i := range segs {
		body += 8 * uint64(binary.LittleEndian.Uint32(b[4+4*i:]))
	}
	return hdrLen, body, nil
}

// readGrowing reads a frame of more than eagerFrame bytes, growing its buffer as the
// bytes arrive, and returns its message, whose release gives the buffer back to
// capnp's pool.
func (r *frameReader) readGrowing(hdrLen, size int) (*capnp.Message, error) {
	if cap(r.hdr) < hdrLen {
		r.hdr = make([]byte, hdrLen)
	}
	r.hdr = r.hdr[:hdrLen]
	if _, err := io.ReadFull(&r.msgReader, r.hdr); err != nil { // buffered: peeked
		return nil, err
	}
	pool := &bufferpool.Default
	buf := pool.Get(min(size, eagerFrame))
	buf = buf[:cap(buf)]
	held := int64(len(buf))
	r.budget.grow(1, held)
	defer func() { r.budget.grow(-1, -held) }()

	n := 0
	for n < size {
		if n == len(buf) {
			next := pool.Get(growTo(len(buf), size))
			next = next[:cap(next)]
			copy(next, buf[:n])
			putBuffer(buf)
			r.budget.grow(0, int64(len(next))-held)
			buf, held = next, int64(len(next))
		}
		m, err := r.msgReader.Read(buf[n:min(len(buf), size)])
		n += m
		if err != nil && n < size {
			putBuffer(buf)
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("decode: read segments: %w", err)
		}
	}

	segs := make([][]byte, binary.LittleEndian.Uint32(r.hdr)+1)
	off := 0
	for i := range segs {
		sz := 8 * int(binary.LittleEndian.Uint32(r.hdr[4+4*i:]))
		segs[i] = buf[off : off+sz : off+sz]
		off += sz
	}
	m, _, err := capnp.NewMessage(&pooledArena{MultiSegmentArena: capnp.MultiSegment(segs), buf: buf})
	if err != nil {
		putBuffer(buf)
		return nil, fmt.Errorf("decode: %w", err)
	}
	return m, nil
}

// growTo returns the next size of a frame's buffer of n bytes, all received, when
// the frame has size bytes: four times n, or size itself when that is at most five
// times n (rather than growing once more for a short tail). Either way the buffer is at
// most five times the bytes received.
func growTo(n, size int) int {
	if size <= 5*n {
		return size
	}
	return 4 * n
}

// pooledArena is a read arena over one buffer from capnp's pool, which its release
// gives back, as the arenas of capnp's Decoder do.
type pooledArena struct {
	*capnp.MultiSegmentArena
	buf []byte
}

func (a *pooledArena) Release() {
	a.MultiSegmentArena.Release()
	if a.buf != nil {
		putBuffer(a.buf)
		a.buf = nil
	}
}

// putBuffer returns buf to capnp's pool, which keeps buffers of up to 512 KiB (and
// zeroes what it keeps); a larger one is left to the garbage collector.
func putBuffer(buf []byte) {
	if cap(buf) <= 512<<10 {
		bufferpool.Default.Put(buf)
	}
}

// msgReader is the buffered reader of a connection's frames: it arms a read deadline
// once a message has started (a byte of it arrived) and the rest is not already
// buffered, and clears it when the message is complete.
type msgReader struct {
	conn  net.Conn
	br    *bufio.Reader
	read  int  // bytes of the current message read so far
	armed bool // a read deadline is set
}

func (r *msgReader) startMessage() { r.read = 0 }

func (r *msgReader) endMessage() error {
	if !r.armed {
		return nil
	}
	r.armed = false
	return r.conn.SetReadDeadline(time.Time{})
}

func (r *msgReader) arm() error {
	if r.armed {
		return nil
	}
	if err := r.conn.SetReadDeadline(time.Now().Add(messageReadTimeout)); err != nil {
		return err
	}
	r.armed = true
	return nil
}

func (r *msgReader) Read(p []byte) (int, error) {
	if r.read > 0 && r.br.Buffered() < len(p) {
		if err := r.arm(); err != nil {
			return 0, err
		}
	}
	n, err := r.br.Read(p)
	r.read += n
	return n, r.stalled(err)
}

// peek waits until n bytes of the next message are buffered and returns them without
// consuming them. n must be at most the buffer's size.
func (r *msgReader) peek(n int) ([]byte, error) {
	for r.br.Buffered() < n {
		started := r.read > 0 || r.br.Buffered() > 0
		if started {
			if err := r.arm(); err != nil {
				return nil, err
			}
		}
		if _, err := r.br.Peek(r.br.Buffered() + 1); err != nil {
			if err == io.EOF {
				if !started && r.br.Buffered() == 0 {
					return nil, io.EOF // the peer closed between messages
				}
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("decode: read header: %w", r.stalled(err))
		}
	}
	return r.br.Peek(n)
}

// stalled says so when a read failed on the deadline of a message in progress.
func (r *msgReader) stalled(err error) error {
	var ne net.Error
	if err != nil && r.armed && errors.As(err, &ne) && ne.Timeout() {
		return errors.New("peer stalled in the middle of a message: " + err.Error())
	}
	return err
}
