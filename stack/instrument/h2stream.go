package instrument

import (
	"context"
	"encoding/binary"
	"net/url"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/stack/gotunedjson"
)

// badStatus stands for a grpc-status that is not a number; noStatus for none.
const (
	noStatus  = -1
	badStatus = -2
)

// stream is one call: its request scratch space and codec, and its answer as the
// reader leaves it. Streams are kept and reused by their client (no allocation per
// call); a stream is owned by one call at a time.
type stream struct {
	id        uint32
	wake      chan struct{} // the reader's signal: the answer (or a piece of a stream) is there
	streaming bool          // a server stream: the caller takes the data as it comes

	// Written by the reader under smu, read by the caller under smu or once the
	// stream has ended (the reader no longer has it then).
	in         []byte // DATA received and not yet taken
	headers    bool   // the answer's headers came
	status     int    // their :status
	grpcType   bool   // their content-type is gRPC's
	grpcStatus int    // the trailers' grpc-status, noStatus or badStatus
	grpcMsg    string // the trailers' grpc-message
	ended      bool
	err        error  // why the stream failed (a reset, the connection, a limit)
	unacked    int    // a unary answer's bytes not yet credited back to the stream's window
	ctype      string // an HTTP answer's content-type (h2http.go; gRPC's is grpcType)

	sendWin int64 // under wmu

	// The caller's own.
	req   []byte                  // the request message
	codec scratch                 // the codec, with its reusable messages
	msg   []byte                  // a server stream's bytes taken from in and not yet decoded
	taken int                     // bytes taken from in and not yet credited back to the window
	path  []byte                  // an HTTP request's :path, when it varies (h2http.go)
	lines *gotunedjson.TradeLines // an http-json trade stream's checks, made on its first use
}

// maxKeptBuffer is the largest buffer a stream keeps for its next call.
const maxKeptBuffer = 256 << 10

// reset readies a stream for its next call.
func (st *stream) reset() {
	st.id, st.streaming = 0, false
	st.in, st.msg = keep(st.in), keep(st.msg)
	st.req = keep(st.req)
	st.headers, st.status, st.grpcType, st.grpcStatus, st.grpcMsg, st.ctype = false, 0, false, noStatus, "", ""
	st.ended, st.err, st.unacked, st.sendWin, st.taken = false, nil, 0, 0, 0
	select {
	case <-st.wake: // a wake-up the call did not need
	default:
	}
}

func keep(b []byte) []byte {
	if cap(b) > maxKeptBuffer {
		return nil
	}
	return b[:0]
}

// await waits until st has ended. When ctx ends first the stream is reset (the
// server stops working on it) and the error is the call's status for ctx's end.
func (c *h2conn) await(ctx context.Context, st *stream) error {
	for {
		c.smu.Lock()
		ended := st.ended
		c.smu.Unlock()
		if ended {
			return nil
		}
		select {
		case <-st.wake:
		case <-ctx.Done():
			if c.cancel(st) {
				return status.FromContextError(ctx.Err()).Err()
			}
			return nil // the answer came first
		}
	}
}

// take moves what the reader received for the server stream st into st.msg, waiting
// for something when nothing is there; it reports whether the stream has ended.
func (c *h2conn) take(ctx context.Context, st *stream) (bool, error) {
	for {
		c.smu.Lock()
		n, ended := len(st.in), st.ended
		if n > 0 {
			st.msg = append(st.msg, st.in...)
			st.in = st.in[:0]
		}
		c.smu.Unlock()
		if n > 0 || ended {
			st.taken += n
			if st.taken >= streamWindow/4 && !ended {
				c.credit(st)
			}
			return ended, nil
		}
		select {
		case <-st.wake:
		case <-ctx.Done():
			c.cancel(st)
			return true, status.FromContextError(ctx.Err()).Err()
		}
	}
}

// credit gives the bytes a server stream's caller took back to the stream's window.
func (c *h2conn) credit(st *stream) {
	c.wmu.Lock()
	c.wbuf = appendWindowUpdate(c.wbuf, st.id, uint32(st.taken))
	st.taken = 0
	c.flushLocked()
	c.wmu.Unlock()
}

// failure returns the error of a call whose stream has ended: its reset or the
// connection's failure, an answer that is not gRPC's, or a grpc-status other than OK
// (as a gRPC status error, which grpcx maps to the contract's codes).
func (st *stream) failure() error {
	switch {
	case st.err != nil:
		return st.err
	case !st.headers:
		return status.Error(codes.Internal, "the stream ended without an answer")
	case st.status != 200:
		return status.Errorf(httpStatusCode(st.status), "unexpected HTTP status %d", st.status)
	case !st.grpcType:
		return status.Error(codes.Internal, "the answer's content-type is not gRPC's")
	case st.grpcStatus == noStatus:
		return status.Error(codes.Internal, "server closed the stream without sending trailers")
	case st.grpcStatus == badStatus:
		return status.Error(codes.Internal, "malformed grpc-status")
	case st.grpcStatus != 0:
		return status.Error(codes.Code(st.grpcStatus), grpcMessage(st.grpcMsg))
	}
	return nil
}

// message returns the one message of a unary answer (without its prefix).
func (st *stream) message(limit int) ([]byte, error) {
	if err := st.failure(); err != nil {
		return nil, err
	}
	b, n, err := nextMessage(st.in, limit)
	switch {
	case err != nil:
		return nil, err
	case b == nil:
		return nil, status.Errorf(codes.Internal, "the answer holds %d bytes, not one whole message", len(st.in))
	case n != len(st.in):
		return nil, status.Error(codes.Internal, "the answer holds more than one message")
	}
	return b, nil
}

// nextMessage returns the first gRPC message of b (nil when b holds no whole one) and
// the bytes it takes with its prefix.
func nextMessage(b []byte, limit int) ([]byte, int, error) {
	if len(b) < 5 {
		return nil, 0, nil
	}
	if b[0] != 0 {
		return nil, 0, status.Errorf(codes.Internal, "a message with compression flag %d: no compression was agreed", b[0])
	}
	n := binary.BigEndian.Uint32(b[1:5])
	if int64(n) > int64(limit) {
		return nil, 0, status.Errorf(codes.ResourceExhausted, "received message larger than max (%d vs. %d)", n, limit)
	}
	if len(b) < 5+int(n) {
		return nil, 0, nil
	}
	return b[5 : 5+n], 5 + int(n), nil
}

// grpcMessage decodes a grpc-message (percent-encoded, by gRPC's HTTP/2 spec).
func grpcMessage(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// httpStatusCodes is grpc-go's mapping of an HTTP status other than 200 (any other
// is Unknown), and resetCodes its mapping of an RST_STREAM error code (any other is
// Internal).
var (
	httpStatusCodes = map[int]codes.Code{
		400: codes.Internal, 401: codes.Unauthenticated, 403: codes.PermissionDenied, 404: codes.Unimplemented,
		429: codes.Unavailable, 502: codes.Unavailable, 503: codes.Unavailable, 504: codes.Unavailable,
	}
	resetCodes = map[http2.ErrCode]codes.Code{
		http2.ErrCodeFlowControl: codes.ResourceExhausted, http2.ErrCodeEnhanceYourCalm: codes.ResourceExhausted,
		http2.ErrCodeRefusedStream: codes.Unavailable, http2.ErrCodeCancel: codes.Canceled,
		http2.ErrCodeInadequateSecurity: codes.PermissionDenied,
	}
)

func httpStatusCode(s int) codes.Code {
	if c, ok := httpStatusCodes[s]; ok {
		return c
	}
	return codes.Unknown
}

func resetCode(c http2.ErrCode) codes.Code {
	if code, ok := resetCodes[c]; ok {
		return code
	}
	return codes.Internal
}

// method is one gRPC method the client calls.
type method struct {
	name  string // in errors: "GetPerson"
	path  string // :path
	index int    // in the header cache
}

const (
	personService = "/wirebench.v1.PersonService/"
	echoService   = "/wirebench.v1.EchoService/"
	tradeService  = "/wirebench.v1.TradeService/"
)

var (
	mListPersons    = method{"ListPersons", personService + "ListPersons", 0}
	mGetPerson      = method{"GetPerson", personService + "GetPerson", 1}
	mGetPersonLinks = method{"GetPersonLinks", personService + "GetPersonLinks", 2}
	mCreatePerson   = method{"CreatePerson", personService + "CreatePerson", 3}
	mEcho           = method{"Echo", echoService + "Echo", 4}
	mStats          = method{"Stats", echoService + "Stats", 5}
	mIncrement      = method{"Increment", echoService + "Increment", 6}
	mStreamTrades   = method{"StreamTrades", tradeService + "StreamTrades", 7}
)

const numMethods = 8

// headerCache keeps each method's encoded request header block. The HPACK encoder's
// output depends on its dynamic table only, and the table changes only when a field
// is first sent (our fields are few and fit the table): after a method's first call,
// its block is the same bytes until another method is called for the first time, or
// the server changes the table's size. Blocks are re-encoded then (gen moves on), and
// always when the fields outgrow the table (entries would be evicted).
type headerCache struct {
	fields  []hpack.HeaderField // the fields after :path
	blocks  [numMethods][]byte
	gens    [numMethods]int
	sent    [numMethods]bool
	gen     int
	size    int // the table's bytes our fields take (RFC 7541 §4.1)
	limit   int // the table's size
	caching bool
	// fresh: the encoder will start its next block with a table size update, which
	// belongs in that block only.
	fresh bool
	// scheme is "https" over TLS, "http" otherwise.
	scheme string
}

func (h *headerCache) init(cl *h2Client) {
	h.scheme = cl.scheme
	h.fields = []hpack.HeaderField{
		{Name: ":authority", Value: cl.authority},
		{Name: "content-type", Value: cl.codec.contentType},
		{Name: "user-agent", Value: userAgent},
		{Name: "te", Value: "trailers"},
	}
	h.limit, h.caching = headerTableSize, true
	for _, f := range h.fields {
		h.size += int(f.Size())
	}
}

// userAgent names the client in the servers' logs.
const userAgent = "wirebench-instrument"

// block returns the header block of a request of m; it is valid until the next call.
// wmu is held.
func (h *headerCache) block(c *h2conn, m *method) []byte {
	if h.caching && h.sent[m.index] && h.gens[m.index] == h.gen && !h.fresh {
		return h.blocks[m.index]
	}
	fresh := h.fresh
	h.fresh = false
	c.hbuf.Reset()
	e := c.hpackEnc
	e.WriteField(hpack.HeaderField{Name: ":method", Value: "POST"})
	e.WriteField(hpack.HeaderField{Name: ":scheme", Value: h.scheme})
	e.WriteField(hpack.HeaderField{Name: ":path", Value: m.path})
	for _, f := range h.fields {
		e.WriteField(f)
	}
	if fresh || !h.sent[m.index] {
		h.sent[m.index] = true
		h.size += int(hpack.HeaderField{Name: ":path", Value: m.path}.Size())
		h.gen++ // this block added fields to the table: every block changes
		h.caching = h.caching && h.size <= h.limit
		return c.hbuf.Bytes()
	}
	h.blocks[m.index] = append(h.blocks[m.index][:0], c.hbuf.Bytes()...)
	h.gens[m.index] = h.gen
	return h.blocks[m.index]
}

// tableSize applies the server's SETTINGS_HEADER_TABLE_SIZE. wmu is held.
func (h *headerCache) tableSize(c *h2conn, v uint32) {
	limit := int(min(v, headerTableSize))
	c.hpackEnc.SetMaxDynamicTableSizeLimit(uint32(limit))
	h.limit = limit
	h.gen++
	h.fresh = true
	h.caching = h.caching && h.size <= h.limit
}
