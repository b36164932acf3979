package instrument

// Plain HTTP requests over the instrument's HTTP/2 connections: http-json over
// HTTP/2 (h2c with prior knowledge, h2 over TLS) and the Connect protocol
// (connect-proto, connect-json), framed by hand as the gRPC calls are (h2conn.go),
// on the same connections, streams and reader. What differs from gRPC is an
// httpWire: each operation's route, the bodies' content types, how an answer that
// is not a success says why, and how a trade stream is framed.
//
//   - Unary calls: one request (HEADERS, and one DATA with the body unless the route
//     has none), one answer: its status, its content-type and its whole body, which
//     ends the stream (no trailers needed). A 2xx answer of the expected media type is
//     decoded (or met on the hash path, as gRPC's are); any other fails as the
//     protocol's own clients fail: http-json's by its error body or status
//     (gotunedjson.StatusError), Connect's by its JSON error body {"code","message"} or,
//     without one, by its HTTP status as connect-go maps it.
//   - Trade streams: http-json's NDJSON body (GET /trades?count=N), checked line by
//     line as its clients check it (gotunedjson.TradeLines); Connect's server stream, a
//     POST of one enveloped request answered by enveloped Trades and an end-stream
//     message (flag 2) holding the error, if any, as JSON.
//   - Header blocks are HPACK-encoded per call: the fields that repeat are indexed, a
//     path that carries an id or a count is sent never indexed, so that the dynamic
//     table holds only the few fields that repeat.

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"strconv"
	"unsafe"

	"connectrpc.com/connect"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/stack/gotunedjson"
)

// route is how an operation is requested: the method, and a path made of path, the
// request's number (an id, a count) when withN, and suffix; body says whether the
// request carries the encoded message.
type route struct {
	method string
	path   string
	withN  bool
	suffix string
	body   bool
}

// streamFraming is how a trade stream's answer is framed.
type streamFraming int

const (
	ndjsonLines     streamFraming = iota // http-json: a trade per line, then an end line
	connectEnvelope                      // Connect: enveloped messages, then the end-stream one
)

// httpWire is an HTTP mapping of the contract's operations.
type httpWire struct {
	routes [numMethods]route
	// reqType is the content-type of unary request bodies, and answerType the media
	// type of a unary success; streamReqType and streamType are a stream's.
	reqType, answerType       string
	streamReqType, streamType string
	// empty is the body of a request whose message has no fields, when the message's
	// encoding is not zero bytes (a JSON object).
	empty []byte
	// extra are header fields every request carries.
	extra   []hpack.HeaderField
	framing streamFraming
	// refusal is the error of a unary answer that is not a success (status and body).
	refusal func(status int, ctype string, body []byte) error
}

// The wires of the protocols the instrument speaks over HTTP/2 without gRPC.
var (
	jsonH2Wire = httpWire{
		routes: [numMethods]route{ // in the order of the methods' index
			{method: "GET", path: "/persons"},
			{method: "GET", path: "/persons/", withN: true},
			{method: "GET", path: "/persons/", withN: true, suffix: "/links"},
			{method: "POST", path: "/persons", body: true},
			{method: "POST", path: "/echo", body: true},
			{method: "GET", path: "/stats"},
			{method: "POST", path: "/increment", body: true},
			{method: "GET", path: "/trades?count=", withN: true},
		},
		reqType: "application/json", answerType: "application/json",
		streamType: "application/x-ndjson",
		framing:    ndjsonLines,
		refusal: func(status int, _ string, body []byte) error {
			return gotunedjson.StatusError(status, body)
		},
	}
	connectProtoWire = connectWire("proto", nil)
	connectJSONWire  = connectWire("json", []byte("{}"))
)

// connectWire is the Connect protocol with the codec named codec: every operation a
// POST to its gRPC path.
func connectWire(codec string, empty []byte) httpWire {
	w := httpWire{
		reqType: "application/" + codec, answerType: "application/" + codec,
		streamReqType: "application/connect+" + codec, streamType: "application/connect+" + codec,
		empty:   empty,
		extra:   []hpack.HeaderField{{Name: "connect-protocol-version", Value: "1"}},
		framing: connectEnvelope,
		refusal: connectRefusal,
	}
	for _, m := range []*method{&mListPersons, &mGetPerson, &mGetPersonLinks, &mCreatePerson, &mEcho, &mStats, &mIncrement, &mStreamTrades} {
		w.routes[m.index] = route{method: "POST", path: m.path, body: true}
	}
	return w
}

// connectError is the Connect protocol's error: a unary answer's body, and the
// "error" of a stream's end-stream message.
type connectError struct {
	Code    connect.Code `json:"code"`
	Message string       `json:"message"`
}

// connectRefusal is the error of a unary Connect answer that is not a success, as
// connect-go's client makes it: the code and message of its JSON error body, or,
// when the body is not one, the code its HTTP status stands for.
func connectRefusal(httpStatus int, ctype string, body []byte) error {
	var ce connectError
	if isMediaType(ctype, "application/json") && json.Unmarshal(body, &ce) == nil && ce.Code != 0 {
		return status.Error(codes.Code(ce.Code), ce.Message)
	}
	return status.Errorf(httpStatusCode(httpStatus), "HTTP status %d", httpStatus)
}

// isMediaType reports whether the content-type v is the media type want (with any
// parameters).
func isMediaType(v, want string) bool {
	if len(v) >= len(want) && v[:len(want)] == want && (len(v) == len(want) || v[len(want)] == ';' || v[len(want)] == ' ') {
		return true
	}
	mt, _, err := mime.ParseMediaType(v)
	return err == nil && mt == want
}

// openRequest opens stream st for a request of m on wire w: its header block, then,
// unless body is nil, one DATA with the body (enveloped when envelope) and
// END_STREAM. It fails as openStream does.
func (c *h2conn) openRequest(ctx context.Context, st *stream, w *httpWire, m *method, n int64, body []byte, streaming bool) error {
	rt := &w.routes[m.index]
	path := rt.path
	if rt.withN {
		st.path = append(strconv.AppendInt(append(st.path[:0], rt.path...), n, 10), rt.suffix...)
		// The encoder copies the value before it returns, and never keeps a field
		// sent never indexed: the string need not outlive st.path's bytes.
		path = unsafe.String(unsafe.SliceData(st.path), len(st.path))
	}
	ctype, envelope := w.reqType, false
	if streaming && w.framing == connectEnvelope {
		ctype, envelope = w.streamReqType, true
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.registerLocked(ctx, st); err != nil {
		return err
	}
	c.hbuf.Reset()
	e := c.hpackEnc
	e.WriteField(hpack.HeaderField{Name: ":method", Value: rt.method})
	e.WriteField(hpack.HeaderField{Name: ":scheme", Value: c.headers.scheme})
	e.WriteField(hpack.HeaderField{Name: ":path", Value: path, Sensitive: rt.withN})
	e.WriteField(hpack.HeaderField{Name: ":authority", Value: c.cl.authority})
	if body != nil {
		e.WriteField(hpack.HeaderField{Name: "content-type", Value: ctype})
	}
	e.WriteField(hpack.HeaderField{Name: "user-agent", Value: userAgent})
	for _, f := range w.extra {
		e.WriteField(f)
	}
	block := c.hbuf.Bytes()
	if len(block) > c.peerFrame {
		c.resetLocked(st, http2.ErrCodeCancel)
		return fmt.Errorf("a request header block of %d bytes, over the server's frame size %d", len(block), c.peerFrame)
	}
	flags := http2.FlagHeadersEndHeaders
	if body == nil {
		flags |= http2.FlagHeadersEndStream
	}
	c.wbuf = appendHeadersFrame(c.wbuf, st.id, flags, block)
	if body == nil {
		c.flushLocked()
		return nil
	}
	var prefix []byte
	var pb [5]byte
	if envelope {
		prefix = appendMessagePrefix(pb[:0], len(body))
	}
	size := len(prefix) + len(body)
	if size <= c.peerFrame && int64(size) <= c.sendWin && int64(size) <= st.sendWin {
		c.wbuf = appendDataFrame(c.wbuf, st.id, http2.FlagDataEndStream, prefix, body)
		c.sendWin -= int64(size)
		st.sendWin -= int64(size)
		c.flushLocked()
		return nil
	}
	return c.sendLarge(ctx, st, prefix, body)
}

// answer returns the body of a unary answer that ended: a success of the wire's media
// type, or the error of anything else.
func (w *httpWire) answer(st *stream) ([]byte, error) {
	switch {
	case st.err != nil:
		return nil, st.err
	case !st.headers:
		return nil, errors.New("the stream ended without an answer")
	case st.status/100 != 2:
		return nil, w.refusal(st.status, st.ctype, st.in)
	case !isMediaType(st.ctype, w.answerType):
		return nil, fmt.Errorf("HTTP status %d with content-type %q, want %s", st.status, st.ctype, w.answerType)
	}
	return st.in, nil
}

// httpTrades reads the trades of a stream on wire w as they come, framed as w says.
// It returns yield's error in yerr, any other failure in err.
func (c *h2Client) httpTrades(ctx context.Context, cn *h2conn, st *stream, count int64, yield func(*contract.Trade) error) (yerr, err error) {
	w := c.wire
	if w.framing == ndjsonLines {
		if st.lines == nil {
			st.lines = new(gotunedjson.TradeLines)
		}
		st.lines.Reset(count)
	}
	var (
		t       contract.Trade
		n       int64
		checked bool // the answer's status and type are those of a stream
		done    bool // the end line or end-stream message came
	)
	stop := func(err error) error {
		cn.cancel(st)
		return err
	}
	for {
		ended, err := cn.take(ctx, st)
		if err != nil {
			return nil, err
		}
		if !checked {
			if st.err == nil && st.headers && st.status/100 != 2 {
				// A refusal: its body says why, read whole (bounded by the limit).
				if len(st.msg) > c.limit {
					return nil, stop(status.Errorf(codes.ResourceExhausted, "an error answer of more than %d bytes", c.limit))
				}
				if !ended {
					continue
				}
				return nil, w.refusal(st.status, st.ctype, st.msg)
			}
			if st.err == nil && st.headers {
				if !isMediaType(st.ctype, w.streamType) {
					return nil, stop(fmt.Errorf("HTTP status %d with content-type %q, want %s", st.status, st.ctype, w.streamType))
				}
				checked = true
			}
		}
		off := 0
		for !done {
			var (
				used, trade int
				err         error
			)
			if w.framing == ndjsonLines {
				used, trade, done, err = c.ndjsonLine(st, st.msg[off:], &t)
			} else {
				used, trade, done, err = c.envelope(st, st.msg[off:], &t, n, count)
			}
			if err != nil {
				return nil, stop(err)
			}
			if used == 0 {
				break
			}
			off += used
			if trade == 1 {
				n++
				if err := yield(&t); err != nil {
					return stop(err), nil
				}
			}
		}
		st.msg = st.msg[:copy(st.msg, st.msg[off:])]
		if done && len(bytes.TrimSpace(st.msg)) > 0 {
			return nil, stop(errors.New("data after the end of the stream"))
		}
		if !ended {
			continue
		}
		switch {
		case st.err != nil:
			return nil, st.err
		case !st.headers:
			return nil, errors.New("the stream ended without an answer")
		case !done:
			return nil, fmt.Errorf("stream cut short after %d of %d trades: no end", n, count)
		}
		return nil, nil
	}
}

// ndjsonLine takes the first whole line of b: it returns the bytes it used (0: no
// whole line yet), whether it was a trade (1, in *t), and whether it was the end.
func (c *h2Client) ndjsonLine(st *stream, b []byte, t *contract.Trade) (used, trade int, done bool, err error) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if len(b) > c.limit {
			return 0, 0, false, status.Errorf(codes.ResourceExhausted, "a stream line of more than %d bytes", c.limit)
		}
		return 0, 0, false, nil
	}
	ok, done, err := st.lines.Line(b[:i+1], t)
	if ok {
		trade = 1
	}
	return i + 1, trade, done, err
}

// Connect's envelope flags: the end-stream message, and a compressed message (none
// was agreed).
const (
	flagEndStream  = 2
	flagCompressed = 1
)

// envelope takes the first whole envelope of b, as ndjsonLine takes a line; n
// trades came before it, of count asked for.
func (c *h2Client) envelope(st *stream, b []byte, t *contract.Trade, n, count int64) (used, trade int, done bool, err error) {
	if len(b) < 5 {
		return 0, 0, false, nil
	}
	size := binary.BigEndian.Uint32(b[1:5])
	if int64(size) > int64(c.limit) {
		return 0, 0, false, status.Errorf(codes.ResourceExhausted, "received message larger than max (%d vs. %d)", size, c.limit)
	}
	if len(b) < 5+int(size) {
		return 0, 0, false, nil
	}
	msg, used := b[5:5+size], 5+int(size)
	switch flags := b[0]; {
	case flags&flagCompressed != 0:
		return 0, 0, false, status.Error(codes.Internal, "a compressed message: no compression was agreed")
	case flags == flagEndStream:
		var end struct {
			Error *connectError `json:"error"`
		}
		if err := json.Unmarshal(msg, &end); err != nil {
			return 0, 0, false, status.Errorf(codes.Internal, "a malformed end-stream message: %v", err)
		}
		if end.Error != nil {
			return 0, 0, false, status.Error(codes.Code(end.Error.Code), end.Error.Message)
		}
		if n != count {
			return 0, 0, false, fmt.Errorf("the stream ended after %d of %d trades", n, count)
		}
		return used, 0, true, nil
	case flags != 0:
		return 0, 0, false, status.Errorf(codes.Internal, "an envelope with flags %#x", flags)
	case n == count:
		return 0, 0, false, fmt.Errorf("the server sent more than the %d trades asked for", count)
	}
	if err := st.codec.DecodeTrade(msg, t); err != nil {
		return 0, 0, false, status.Errorf(codes.Internal, "failed to decode a trade: %v", err)
	}
	return used, 1, false, nil
}

// jsonScratch is http-json's request encoding for the instrument's calls: the tuned
// codec's bodies. http-json carries a person's id and a stream's count in the path,
// and its trade stream is lines (TradeLines), so the methods of scratch that encode
// those messages or decode an enveloped trade are never called on it.
type jsonScratch struct{}

var errNotInPath = errors.New("http-json carries this in the request's path, not in a body")

func (jsonScratch) AppendPersonID(b []byte, _ int64) ([]byte, error)      { return b, errNotInPath }
func (jsonScratch) AppendTradesRequest(b []byte, _ int64) ([]byte, error) { return b, errNotInPath }
func (jsonScratch) DecodeTrade([]byte, *contract.Trade) error {
	return errors.New("http-json's trades are lines of a stream, read by TradeLines")
}
func (jsonScratch) AppendNumber(b []byte, n int64) ([]byte, error) {
	return gotunedjson.AppendNumber(b, n), nil
}
func (jsonScratch) AppendPerson(b []byte, p *contract.Person) ([]byte, error) {
	return gotunedjson.AppendPerson(b, p), nil
}
func (jsonScratch) AppendEcho(b []byte, payload string) ([]byte, error) {
	return gotunedjson.AppendEcho(b, payload), nil
}
func (jsonScratch) DecodeNumber(b []byte) (int64, error)         { return gotunedjson.DecodeNumber(b) }
func (jsonScratch) DecodeStats(b []byte) (contract.Stats, error) { return gotunedjson.DecodeStats(b) }
