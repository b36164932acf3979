package instrument

// The write side of one HTTP/2 connection carrying gRPC calls: the handshake, opening
// streams, the frames callers write and how they reach the socket, and the send
// windows. The read side is in h2read.go, the streams in h2stream.go.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

const (
	clientPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
	// defaultWindow and defaultMaxFrame are HTTP/2's initial flow-control window and
	// frame size, until the peer's SETTINGS say otherwise.
	defaultWindow   = 65535
	defaultMaxFrame = 16384
	// streamWindow is the receive window advertised for each stream, and connWindow
	// the connection's. A unary answer is credited back as it arrives (it is read
	// whole before the caller sees it); a stream's window is credited as its caller
	// consumes the messages, which bounds what a stream buffers to streamWindow.
	streamWindow = 1 << 20
	connWindow   = 16 << 20
	// readBufferSize holds several frames of the largest size we accept
	// (defaultMaxFrame: we never raise SETTINGS_MAX_FRAME_SIZE).
	readBufferSize = 64 << 10
	// lastStreamID is the highest stream id a client may use; past
	// retireStreamID the connection takes no new calls and a new one is dialed, so
	// that ids never run out in a long run.
	lastStreamID   = 1<<31 - 1
	retireStreamID = lastStreamID - 1<<20
	// headerTableSize is the HPACK dynamic table size of both directions (HTTP/2's
	// default; the peer may set a smaller one for our requests).
	headerTableSize = 4096
	// maxHeaderString bounds one decoded header name or value (a grpc-message).
	maxHeaderString = 64 << 10
)

// aLongTimeAgo is a deadline that ends pending I/O at once.
var aLongTimeAgo = time.Unix(1, 0)

// errConnClosed ends the calls of a connection its client closed.
var errConnClosed = errors.New("connection closed")

// h2conn is one HTTP/2 connection. It is safe for concurrent use: callers open
// streams and write their requests under wmu; one reader goroutine (readLoop) reads
// every frame and hands each stream's answer to its caller.
//
// Lock order: wmu before smu; the reader never takes wmu while it holds smu.
type h2conn struct {
	cl *h2Client
	nc net.Conn

	// usable is false once the connection takes no new calls (it failed, the server
	// sent GOAWAY, or its stream ids are spent).
	usable atomic.Bool

	// The write side, under wmu.
	wmu   sync.Mutex
	wcond sync.Cond // a send window grew, a stream ended, or the connection failed
	// wbuf holds frames not yet written; spare is the other buffer of the pair.
	wbuf, spare []byte
	// writing: a goroutine is writing frames out (it writes what is appended
	// meanwhile too). deferred: the reader has woken callers and will write what they
	// append once they have run, so that the requests of one batch of answers leave
	// in one system call.
	writing, deferred bool
	failed            error // the connection's failure: nothing more is written
	nextID            uint32
	open              int    // streams open
	waiters           int    // callers waiting on wcond
	sendWin           int64  // the connection's send window
	peerWin           int64  // the initial send window of a stream (peer's SETTINGS)
	peerFrame         int    // the largest frame the peer takes
	peerStreams       uint32 // the most streams the peer lets us open at once
	hpackEnc          *hpack.Encoder
	hbuf              bytes.Buffer
	headers           headerCache

	// The streams, under smu.
	smu     sync.Mutex
	streams map[uint32]*stream
	dead    error // set when the reader has ended: no stream gets an answer any more

	r          reader        // the reader goroutine's own state
	readerDone chan struct{} // closed when readLoop returns
}

// dialConn opens a connection through the client's dialer and makes the HTTP/2
// handshake within ctx: our preface, SETTINGS and connection window, then the
// server's SETTINGS, which must be its first frame.
func dialConn(ctx context.Context, cl *h2Client) (*h2conn, error) {
	nc, err := cl.dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", cl.target, err)
	}
	c := &h2conn{
		cl: cl, nc: nc, nextID: 1,
		sendWin: defaultWindow, peerWin: defaultWindow, peerFrame: defaultMaxFrame, peerStreams: ^uint32(0),
		streams:    map[uint32]*stream{},
		readerDone: make(chan struct{}),
	}
	c.wcond.L = &c.wmu
	c.hpackEnc = hpack.NewEncoder(&c.hbuf)
	c.headers.init(cl)
	c.r.init(c)
	if err := c.handshake(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	c.usable.Store(true)
	go c.readLoop()
	c.wmu.Lock()
	c.flushLocked() // the SETTINGS ACK
	c.wmu.Unlock()
	return c, nil
}

func (c *h2conn) handshake(ctx context.Context) error {
	if d, ok := ctx.Deadline(); ok {
		c.nc.SetDeadline(d)
	}
	stop := context.AfterFunc(ctx, func() { c.nc.SetDeadline(aLongTimeAgo) })
	defer stop()
	b := append([]byte(nil), clientPreface...)
	b = appendSettings(b, http2.Setting{ID: http2.SettingEnablePush, Val: 0},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: streamWindow},
		http2.Setting{ID: http2.SettingMaxHeaderListSize, Val: maxHeaderString * 4})
	b = appendWindowUpdate(b, 0, connWindow-defaultWindow)
	if _, err := c.nc.Write(b); err != nil {
		return c.handshakeError(ctx, err)
	}
	if err := c.r.readSettings(); err != nil {
		return c.handshakeError(ctx, err)
	}
	if !stop() {
		return c.handshakeError(ctx, ctx.Err())
	}
	c.nc.SetDeadline(time.Time{})
	return nil
}

func (c *h2conn) handshakeError(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w (%v)", cerr, err)
	}
	return fmt.Errorf("HTTP/2 handshake with %s: %w", c.cl.target, err)
}

// errRetire says a connection took no new call: the client dials another.
var errRetire = errors.New("connection retired")

// openStream opens stream st for the call m and writes its request message msg (without the
// gRPC prefix), with END_STREAM. It fails with errRetire when the connection takes no
// new calls, and with ctx's error when ctx ends while the request waits for the
// peer's stream limit or send window.
func (c *h2conn) openStream(ctx context.Context, st *stream, m *method, msg []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.registerLocked(ctx, st); err != nil {
		return err
	}
	c.wbuf = appendHeadersFrame(c.wbuf, st.id, http2.FlagHeadersEndHeaders, c.headers.block(c, m))
	var pb [5]byte
	prefix := appendMessagePrefix(pb[:0], len(msg))
	n := len(prefix) + len(msg)
	if n <= c.peerFrame && int64(n) <= c.sendWin && int64(n) <= st.sendWin {
		c.wbuf = appendDataFrame(c.wbuf, st.id, http2.FlagDataEndStream, prefix, msg)
		c.sendWin -= int64(n)
		st.sendWin -= int64(n)
		c.flushLocked()
		return nil
	}
	return c.sendLarge(ctx, st, prefix, msg)
}

// registerLocked gives st the connection's next stream id and registers it, once the
// peer's stream limit allows. It fails as openStream does. wmu is held.
func (c *h2conn) registerLocked(ctx context.Context, st *stream) error {
	if c.failed != nil || !c.usable.Load() {
		return errRetire
	}
	if c.open >= int(min(c.peerStreams, 1<<30)) {
		if err := c.waitLocked(ctx, st, func() bool { return c.open < int(min(c.peerStreams, 1<<30)) }); err != nil {
			return err
		}
		if !c.usable.Load() {
			return errRetire
		}
	}
	id := c.nextID
	c.nextID += 2
	if id >= retireStreamID {
		c.usable.Store(false)
	}
	st.id, st.sendWin = id, c.peerWin
	c.smu.Lock()
	if c.dead != nil {
		c.smu.Unlock()
		return errRetire
	}
	c.streams[id] = st
	c.smu.Unlock()
	c.open++
	return nil
}

// sendLarge writes a request body, prefix then msg, that does not fit one frame or
// the send windows: frames of at most the peer's frame size, each as the windows
// allow. The stream is open, so a failure here cancels it. wmu is held.
func (c *h2conn) sendLarge(ctx context.Context, st *stream, prefix, msg []byte) error {
	rest := len(prefix) + len(msg)
	for off := 0; off < rest; {
		var window int64
		ready := func() bool {
			window = min(c.sendWin, st.sendWin, int64(c.peerFrame))
			return window > 0 || c.streamEnded(st)
		}
		if !ready() {
			c.flushLocked()
			if err := c.waitLocked(ctx, st, ready); err != nil {
				c.resetLocked(st, http2.ErrCodeCancel)
				return err
			}
		}
		if c.streamEnded(st) {
			return nil // the server ended the call early (a refusal): its answer says why
		}
		n := int(min(window, int64(rest-off)))
		flags := http2.Flags(0)
		if off+n == rest {
			flags = http2.FlagDataEndStream
		}
		// The frame's bytes: what of the prefix, then what of msg, lies in [off, off+n).
		p := prefix[min(off, len(prefix)):min(len(prefix), off+n)]
		m := msg[max(off, len(prefix))-len(prefix) : max(off+n, len(prefix))-len(prefix)]
		c.wbuf = appendDataFrame(c.wbuf, st.id, flags, p, m)
		off += n
		c.sendWin -= int64(n)
		st.sendWin -= int64(n)
	}
	c.flushLocked()
	return nil
}

// streamEnded reports whether st has its answer (or failed). wmu is held.
func (c *h2conn) streamEnded(st *stream) bool {
	c.smu.Lock()
	defer c.smu.Unlock()
	return st.ended
}

// waitLocked waits on wcond until ok() or the connection fails or ctx ends. wmu is
// held. Only the rare paths wait (a request larger than the send window, the peer's
// stream limit reached), so the registration on ctx may allocate.
func (c *h2conn) waitLocked(ctx context.Context, st *stream, ok func() bool) error {
	stop := context.AfterFunc(ctx, func() {
		c.wmu.Lock()
		c.wcond.Broadcast()
		c.wmu.Unlock()
	})
	defer stop()
	c.waiters++
	defer func() { c.waiters-- }()
	for !ok() {
		if c.failed != nil {
			return c.failed
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		c.wcond.Wait()
	}
	return nil
}

// flushLocked writes the frames in wbuf, unless a write is in progress (its writer
// writes these too) or deferred (the reader writes them after the callers it woke
// have run). wmu is held, and released during the system call so that others can
// append meanwhile. A failed write fails the connection.
func (c *h2conn) flushLocked() {
	if c.writing || c.deferred {
		return
	}
	c.writing = true
	for len(c.wbuf) > 0 && c.failed == nil {
		buf := c.wbuf
		c.wbuf = c.spare[:0]
		c.wmu.Unlock()
		_, err := c.nc.Write(buf)
		c.wmu.Lock()
		c.spare = buf[:0]
		if err != nil {
			c.failLocked(fmt.Errorf("write: %w", err))
		}
	}
	c.writing = false
}

// failLocked records the connection's failure and closes the socket, which ends the
// reader, which fails the streams. wmu is held.
func (c *h2conn) failLocked(err error) {
	if c.failed == nil {
		c.failed = err
		c.usable.Store(false)
		c.nc.Close()
		c.wcond.Broadcast()
	}
}

// resetLocked ends stream st from our side with RST_STREAM (a cancelled call), unless
// it has ended already; it reports whether it did. wmu is held.
func (c *h2conn) resetLocked(st *stream, code http2.ErrCode) bool {
	c.smu.Lock()
	mine := c.streams[st.id] == st
	if mine {
		delete(c.streams, st.id)
		st.ended = true
	}
	c.smu.Unlock()
	if !mine {
		return false
	}
	c.open--
	c.wbuf = binary.BigEndian.AppendUint32(appendFrameHeader(c.wbuf, 4, http2.FrameRSTStream, 0, st.id), uint32(code))
	c.flushLocked()
	return true
}

// cancel is resetLocked for a caller that gives up on st.
func (c *h2conn) cancel(st *stream) bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.resetLocked(st, http2.ErrCodeCancel)
}

// close closes the connection; its calls in flight fail.
func (c *h2conn) close() {
	c.wmu.Lock()
	c.failLocked(errConnClosed)
	c.wmu.Unlock()
	<-c.readerDone
}

// yieldToCallers lets the goroutines the reader has just made runnable run before it
// writes what they append: on a client with one P they are on its local run queue and
// the reader goes to the global one, which the scheduler takes when the local one is
// empty (Go's scheduler checks the global queue first only every 61st time).
func yieldToCallers() { runtime.Gosched() }

func appendFrameHeader(b []byte, length int, t http2.FrameType, f http2.Flags, stream uint32) []byte {
	return append(b, byte(length>>16), byte(length>>8), byte(length), byte(t), byte(f),
		byte(stream>>24), byte(stream>>16), byte(stream>>8), byte(stream))
}

// appendHeadersFrame appends a HEADERS frame of stream id holding the whole header
// block (END_HEADERS is among flags: requests never need a CONTINUATION).
func appendHeadersFrame(b []byte, id uint32, flags http2.Flags, block []byte) []byte {
	return append(appendFrameHeader(b, len(block), http2.FrameHeaders, flags, id), block...)
}

// appendDataFrame appends a DATA frame of stream id whose payload is prefix then msg
// (a message's gRPC or Connect prefix and the message, or a piece of them), so that
// a message is copied once, into the frame.
func appendDataFrame(b []byte, id uint32, flags http2.Flags, prefix, msg []byte) []byte {
	b = appendFrameHeader(b, len(prefix)+len(msg), http2.FrameData, flags, id)
	return append(append(b, prefix...), msg...)
}

// appendPingAck appends the acknowledgement of a PING carrying data.
func appendPingAck(b []byte, data []byte) []byte {
	return append(appendFrameHeader(b, 8, http2.FramePing, http2.FlagPingAck, 0), data...)
}

// appendMessagePrefix appends gRPC's message prefix: not compressed, then the length.
func appendMessagePrefix(b []byte, n int) []byte {
	return binary.BigEndian.AppendUint32(append(b, 0), uint32(n))
}

func appendSettings(b []byte, ss ...http2.Setting) []byte {
	b = appendFrameHeader(b, 6*len(ss), http2.FrameSettings, 0, 0)
	for _, s := range ss {
		b = binary.BigEndian.AppendUint16(b, uint16(s.ID))
		b = binary.BigEndian.AppendUint32(b, s.Val)
	}
	return b
}

func appendWindowUpdate(b []byte, stream uint32, inc uint32) []byte {
	return binary.BigEndian.AppendUint32(appendFrameHeader(b, 4, http2.FrameWindowUpdate, 0, stream), inc)
}

// closeIfIdle closes a connection that takes no new calls once its last call is over.
func (c *h2conn) closeIfIdle() {
	c.wmu.Lock()
	if c.open == 0 && !c.usable.Load() {
		c.failLocked(errRetire)
	}
	c.wmu.Unlock()
}

// closedOrIdle reports whether the connection has failed or been closed.
func (c *h2conn) closedOrIdle() bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.failed != nil
}
