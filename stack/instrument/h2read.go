package instrument

// The read side of an HTTP/2 connection: one goroutine reads the socket into one
// buffer, handles every whole frame in it under smu, and then, with smu released,
// wakes the callers whose answers are complete, lets them run, applies what the
// server asked (SETTINGS, window updates) and writes the frames of that batch: our
// acknowledgements and window updates, and the requests the woken callers made.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// reader is the reader goroutine's state (and the handshake's, before it starts).
type reader struct {
	c        *h2conn
	buf      []byte
	pos, end int
	dec      *hpack.Decoder

	// The header block being decoded: its stream (nil when nobody waits for it, but it
	// must still be decoded, to keep the decoder's table in step), the stream id a
	// CONTINUATION must carry (0: none expected), and whether it ends the stream.
	hst    *stream
	hid    uint32
	hend   bool
	hfirst bool

	// What a batch of frames leaves to do once smu is released.
	ctl        []byte          // frames to write: acknowledgements, window updates, resets
	settings   []http2.Setting // the server's settings, to apply
	connInc    int64           // growth of the connection's send window
	streamIncs []streamInc     // growth of streams' send windows
	woken      []*stream       // streams whose callers have something to see
	ended      int             // streams the server ended
	unacked    int64           // bytes received since the last connection WINDOW_UPDATE
}

type streamInc struct {
	id  uint32
	inc int64
}

func (r *reader) init(c *h2conn) {
	r.c = c
	r.buf = make([]byte, readBufferSize)
	r.dec = hpack.NewDecoder(headerTableSize, r.onField)
	r.dec.SetMaxStringLength(maxHeaderString)
}

// connError is a failure of the whole connection, by the HTTP/2 rules.
type connError struct {
	code http2.ErrCode
	msg  string
}

func (e *connError) Error() string { return "HTTP/2 " + e.code.String() + ": " + e.msg }

func protocolError(format string, args ...any) error {
	return &connError{http2.ErrCodeProtocol, fmt.Sprintf(format, args...)}
}

// readSettings reads the server's first frame, which must be SETTINGS, during the
// handshake, and applies it.
func (r *reader) readSettings() error {
	for r.end-r.pos < 9 || r.end-r.pos < 9+r.frameLen() {
		if r.end >= 9 && r.frameLen() > defaultMaxFrame {
			break // not a frame: say what it is below
		}
		n, err := r.c.nc.Read(r.buf[r.end:])
		r.end += n
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return fmt.Errorf("reading the server's SETTINGS: %w", err)
		}
	}
	if t := http2.FrameType(r.buf[r.pos+3]); t != http2.FrameSettings || r.frameLen() > defaultMaxFrame {
		if strings.HasPrefix(string(r.buf[r.pos:r.end]), "HTTP/") {
			return fmt.Errorf("the server answered %q: it speaks HTTP/1, not HTTP/2", firstLine(r.buf[r.pos:r.end]))
		}
		return fmt.Errorf("the server's first frame is not SETTINGS (first bytes %q): not an HTTP/2 server", r.buf[r.pos:min(r.end, r.pos+16)])
	}
	if err := r.frames(); err != nil {
		return err
	}
	c := r.c
	c.wmu.Lock()
	r.applyLocked()
	c.wmu.Unlock()
	return nil
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(s)
}

func (r *reader) frameLen() int {
	b := r.buf[r.pos:]
	return int(b[0])<<16 | int(b[1])<<8 | int(b[2])
}

// readLoop reads until the connection fails or is closed, then fails the streams
// still open.
func (c *h2conn) readLoop() {
	defer close(c.readerDone)
	r := &c.r
	var err error
	if r.end > r.pos {
		err = r.batch() // frames that came with the server's SETTINGS
	}
	for err == nil {
		var n int
		n, err = c.nc.Read(r.buf[r.end:])
		if n > 0 {
			r.end += n
			if berr := r.batch(); berr != nil {
				err = berr
			}
		}
	}
	c.shutdown(err)
}

// batch handles the whole frames in the buffer, then does what they leave to do.
func (r *reader) batch() error {
	c := r.c
	c.wmu.Lock()
	c.deferred = true
	c.wmu.Unlock()
	c.smu.Lock()
	err := r.frames()
	c.smu.Unlock()
	for i, st := range r.woken {
		select {
		case st.wake <- struct{}{}:
		default: // already signalled
		}
		r.woken[i] = nil
	}
	if len(r.woken) > 0 {
		yieldToCallers()
	}
	r.woken = r.woken[:0]
	c.wmu.Lock()
	r.applyLocked()
	c.deferred = false
	c.flushLocked()
	c.wmu.Unlock()
	return err
}

// frames handles every whole frame in the buffer and keeps a partial one for the next
// read. smu is held (by batch) or nobody else runs (the handshake).
func (r *reader) frames() error {
	for r.end-r.pos >= 9 {
		b := r.buf[r.pos:r.end]
		n := int(b[0])<<16 | int(b[1])<<8 | int(b[2])
		if n > defaultMaxFrame {
			return &connError{http2.ErrCodeFrameSize, fmt.Sprintf("a frame of %d bytes, over the %d we take", n, defaultMaxFrame)}
		}
		if len(b) < 9+n {
			break
		}
		t, flags, id := http2.FrameType(b[3]), http2.Flags(b[4]), binary.BigEndian.Uint32(b[5:9])&(1<<31-1)
		r.pos += 9 + n
		if err := r.frame(t, flags, id, b[9:9+n]); err != nil {
			return err
		}
	}
	if r.pos == r.end {
		r.pos, r.end = 0, 0
	} else if len(r.buf)-r.end < 9+defaultMaxFrame {
		r.end = copy(r.buf, r.buf[r.pos:r.end])
		r.pos = 0
	}
	return nil
}

func (r *reader) frame(t http2.FrameType, flags http2.Flags, id uint32, p []byte) error {
	if r.hid != 0 && t != http2.FrameContinuation {
		return protocolError("a %v frame inside the header block of stream %d", t, r.hid)
	}
	switch t {
	case http2.FrameData:
		return r.data(flags, id, p)
	case http2.FrameHeaders:
		return r.headers(flags, id, p)
	case http2.FrameContinuation:
		if id == 0 || id != r.hid {
			return protocolError("CONTINUATION of stream %d, expected none or stream %d", id, r.hid)
		}
		return r.block(p, flags.Has(http2.FlagContinuationEndHeaders))
	case http2.FrameRSTStream:
		if len(p) != 4 || id == 0 {
			return &connError{http2.ErrCodeFrameSize, "malformed RST_STREAM"}
		}
		code := http2.ErrCode(binary.BigEndian.Uint32(p))
		if st := r.c.streams[id]; st != nil {
			r.end1(st, status.Errorf(resetCode(code), "stream reset by the server: %v", code))
		}
	case http2.FrameSettings:
		return r.settingsFrame(flags, id, p)
	case http2.FramePing:
		if len(p) != 8 || id != 0 {
			return &connError{http2.ErrCodeFrameSize, "malformed PING"}
		}
		if !flags.Has(http2.FlagPingAck) {
			r.ctl = appendPingAck(r.ctl, p)
		}
	case http2.FrameGoAway:
		if len(p) < 8 || id != 0 {
			return &connError{http2.ErrCodeFrameSize, "malformed GOAWAY"}
		}
		r.goAway(binary.BigEndian.Uint32(p)&(1<<31-1), http2.ErrCode(binary.BigEndian.Uint32(p[4:])))
	case http2.FrameWindowUpdate:
		if len(p) != 4 {
			return &connError{http2.ErrCodeFrameSize, "malformed WINDOW_UPDATE"}
		}
		inc := int64(binary.BigEndian.Uint32(p) & (1<<31 - 1))
		if id == 0 {
			r.connInc += inc
		} else {
			r.streamIncs = append(r.streamIncs, streamInc{id, inc})
		}
	case http2.FramePushPromise:
		return protocolError("PUSH_PROMISE, with push disabled")
	}
	return nil // PRIORITY and unknown types are ignored
}

// payload strips a frame's padding (and, for HEADERS, its priority fields).
func payload(flags http2.Flags, p []byte, priority bool) ([]byte, error) {
	pad := 0
	if flags.Has(http2.FlagDataPadded) { // the same bit for HEADERS
		if len(p) < 1 {
			return nil, protocolError("padded frame without its pad length")
		}
		pad, p = int(p[0]), p[1:]
	}
	if priority {
		if len(p) < 5 {
			return nil, protocolError("HEADERS too short for its priority")
		}
		p = p[5:]
	}
	if pad > len(p) {
		return nil, protocolError("padding longer than the frame")
	}
	return p[:len(p)-pad], nil
}

func (r *reader) data(flags http2.Flags, id uint32, p []byte) error {
	if id == 0 {
		return protocolError("DATA on stream 0")
	}
	r.unacked += int64(len(p))
	if r.unacked >= connWindow/2 {
		r.ctl = appendWindowUpdate(r.ctl, 0, uint32(r.unacked))
		r.unacked = 0
	}
	data, err := payload(flags, p, false)
	if err != nil {
		return err
	}
	st := r.c.streams[id]
	if st == nil {
		return nil // a stream we reset, or one that has ended: its bytes are only counted
	}
	switch {
	case !st.headers:
		r.reset(st, status.Error(codes.Internal, "DATA before the answer's headers"))
		return nil
	case !st.streaming && len(st.in)+len(data) > r.c.cl.limit+5:
		r.reset(st, status.Errorf(codes.ResourceExhausted, "received message larger than max (over %d bytes)", r.c.cl.limit))
		return nil
	}
	st.in = append(st.in, data...)
	if st.streaming {
		r.wake(st) // its caller credits the stream's window as it takes the bytes
	} else {
		st.unacked += len(p)
		if st.unacked >= streamWindow/2 {
			r.ctl = appendWindowUpdate(r.ctl, id, uint32(st.unacked))
			st.unacked = 0
		}
	}
	if flags.Has(http2.FlagDataEndStream) {
		if r.c.cl.wire != nil {
			r.end1(st, nil) // an HTTP answer may end with its body
		} else {
			r.end1(st, status.Error(codes.Internal, "server closed the stream without sending trailers"))
		}
	}
	return nil
}

func (r *reader) headers(flags http2.Flags, id uint32, p []byte) error {
	if id == 0 {
		return protocolError("HEADERS on stream 0")
	}
	block, err := payload(flags, p, flags.Has(http2.FlagHeadersPriority))
	if err != nil {
		return err
	}
	r.hst = r.c.streams[id]
	r.hend = flags.Has(http2.FlagHeadersEndStream)
	r.hfirst = false
	if st := r.hst; st != nil {
		r.hfirst = !st.headers
		if !r.hfirst && !r.hend {
			r.reset(st, status.Error(codes.Internal, "a second header block that does not end the stream"))
			r.hst = nil
		}
		if r.hst != nil {
			st.headers = true
		}
	}
	r.hid = id
	return r.block(block, flags.Has(http2.FlagHeadersEndHeaders))
}

// block decodes a piece of a header block into r.hst; at its end, a block that ends
// the stream ends the call.
func (r *reader) block(p []byte, last bool) error {
	if _, err := r.dec.Write(p); err != nil {
		return &connError{http2.ErrCodeCompression, err.Error()}
	}
	if !last {
		return nil
	}
	r.hid = 0
	if err := r.dec.Close(); err != nil {
		return &connError{http2.ErrCodeCompression, err.Error()}
	}
	if st := r.hst; st != nil && r.hend {
		r.end1(st, nil)
	}
	r.hst = nil
	return nil
}

// onField is the decoder's: it keeps the fields of an answer that the call needs.
func (r *reader) onField(f hpack.HeaderField) {
	st := r.hst
	if st == nil {
		return
	}
	switch f.Name {
	case ":status":
		if r.hfirst {
			st.status, _ = strconv.Atoi(f.Value)
		}
	case "content-type":
		if r.hfirst {
			if r.c.cl.wire != nil {
				st.ctype = f.Value
			} else {
				st.grpcType = isGRPCContentType(f.Value)
			}
		}
	case "grpc-status":
		if n, err := strconv.Atoi(f.Value); err == nil && n >= 0 {
			st.grpcStatus = n
		} else {
			st.grpcStatus = badStatus
		}
	case "grpc-message":
		st.grpcMsg = f.Value
	}
}

// isGRPCContentType reports whether v is application/grpc, alone or with a subtype
// (+proto, +avro) or parameters, as gRPC's HTTP/2 spec allows.
func isGRPCContentType(v string) bool {
	const base = "application/grpc"
	if len(v) < len(base) || !strings.EqualFold(v[:len(base)], base) {
		return false
	}
	return len(v) == len(base) || v[len(base)] == '+' || v[len(base)] == ';'
}

// end1 ends stream st: err is why it failed, or nil when it ended with its trailers.
func (r *reader) end1(st *stream, err error) {
	if err != nil && st.err == nil {
		st.err = err
	}
	st.ended = true
	delete(r.c.streams, st.id)
	r.ended++
	r.wake(st)
}

// reset ends stream st with err and tells the server to stop sending on it.
func (r *reader) reset(st *stream, err error) {
	r.ctl = binary.BigEndian.AppendUint32(appendFrameHeader(r.ctl, 4, http2.FrameRSTStream, 0, st.id), uint32(http2.ErrCodeCancel))
	r.end1(st, err)
}

// wake puts st on the list of streams to wake at the end of the batch. A stream may
// be on it twice (the list only drops repeats in a row): a second wake-up finds the
// channel full, and a caller that finds nothing new waits again.
func (r *reader) wake(st *stream) {
	if n := len(r.woken); n == 0 || r.woken[n-1] != st {
		r.woken = append(r.woken, st)
	}
}

func (r *reader) settingsFrame(flags http2.Flags, id uint32, p []byte) error {
	if id != 0 {
		return protocolError("SETTINGS on stream %d", id)
	}
	if flags.Has(http2.FlagSettingsAck) {
		return nil
	}
	if len(p)%6 != 0 {
		return &connError{http2.ErrCodeFrameSize, "SETTINGS of a length not a multiple of 6"}
	}
	for ; len(p) > 0; p = p[6:] {
		s := http2.Setting{ID: http2.SettingID(binary.BigEndian.Uint16(p)), Val: binary.BigEndian.Uint32(p[2:])}
		if err := s.Valid(); err != nil {
			return &connError{http2.ErrCodeProtocol, err.Error()}
		}
		r.settings = append(r.settings, s)
	}
	r.ctl = appendFrameHeader(r.ctl, 0, http2.FrameSettings, http2.FlagSettingsAck, 0)
	return nil
}

// goAway: the server takes no new streams, and did not and will not process those
// above last, which fail (Unavailable, as grpc-go reports them).
func (r *reader) goAway(last uint32, code http2.ErrCode) {
	r.c.usable.Store(false)
	for id, st := range r.c.streams {
		if id > last {
			r.end1(st, status.Errorf(codes.Unavailable, "the server sent GOAWAY (%v) before it processed the call", code))
		}
	}
}

// applyLocked does what the last frames asked that needs wmu: settings, send windows,
// the count of open streams, waking waiting writers, and queueing the frames to
// write. The SETTINGS acknowledgement is queued after the settings are applied. wmu
// is held.
func (r *reader) applyLocked() {
	c := r.c
	wake := false
	for _, s := range r.settings {
		switch s.ID {
		case http2.SettingInitialWindowSize:
			delta := int64(s.Val) - c.peerWin
			c.peerWin = int64(s.Val)
			c.smu.Lock()
			for _, st := range c.streams {
				st.sendWin += delta
			}
			c.smu.Unlock()
			wake = true
		case http2.SettingMaxFrameSize:
			c.peerFrame = int(s.Val)
		case http2.SettingMaxConcurrentStreams:
			c.peerStreams = s.Val
			wake = true
		case http2.SettingHeaderTableSize:
			c.headers.tableSize(c, s.Val)
		}
	}
	r.settings = r.settings[:0]
	if r.connInc > 0 {
		c.sendWin += r.connInc
		r.connInc = 0
		wake = true
	}
	if len(r.streamIncs) > 0 {
		c.smu.Lock()
		for _, si := range r.streamIncs {
			if st := c.streams[si.id]; st != nil {
				st.sendWin += si.inc
			}
		}
		c.smu.Unlock()
		r.streamIncs = r.streamIncs[:0]
		wake = true
	}
	if r.ended > 0 {
		c.open -= r.ended
		r.ended = 0
		wake = true
	}
	if wake && c.waiters > 0 {
		c.wcond.Broadcast()
	}
	c.wbuf = append(c.wbuf, r.ctl...)
	r.ctl = r.ctl[:0]
}

// shutdown fails the streams still open when the reader ends with err.
func (c *h2conn) shutdown(err error) {
	c.wmu.Lock()
	if c.failed != nil {
		err = c.failed // our own close or a failed write: that is the cause
	} else if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF // the server hung up with calls in flight
	}
	c.failLocked(err)
	c.smu.Lock()
	c.dead = err
	r := &c.r
	for _, st := range c.streams {
		r.end1(st, fmt.Errorf("connection failed: %w", err))
	}
	c.smu.Unlock()
	c.open = 0
	r.ended = 0
	c.wcond.Broadcast()
	c.wmu.Unlock()
	for _, st := range r.woken {
		select {
		case st.wake <- struct{}{}:
		default:
		}
	}
	r.woken = r.woken[:0]
}
