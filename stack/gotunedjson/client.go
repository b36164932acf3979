package gotunedjson

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/answers"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/transport"
)

const (
	// connBufferSize is the size of each connection's read and write buffer: a request
	// and a small answer (a person is about 500 bytes) each take one system call, and
	// larger bodies are read straight into the body buffer.
	connBufferSize = 8 << 10
	// lineBufferSize is the buffer of a stream's line reader: about 270 trade lines,
	// so a batch takes a few reads. Longer lines are still read, up to the limit.
	lineBufferSize = 32 << 10
	// maxConnBody is the largest response body buffer a connection keeps between
	// calls; a larger one (a big echo) is left to the garbage collector.
	maxConnBody = 256 << 10
)

// aLongTimeAgo is the deadline that ends a connection's pending I/O at once.
var aLongTimeAgo = time.Unix(1, 0)

// Client is a contract.Service over a pool of keep-alive HTTP/1.1 connections, all
// opened through ClientConfig.Dial. It is safe for concurrent use: each call takes an
// idle connection or dials a new one, so N calls in flight use N connections, and
// puts it back when its answer was read whole. Close closes every connection; calls
// in flight then fail, and calls after Close fail at once.
type Client struct {
	dial  transport.DialFunc
	addr  transport.Addr
	limit int
	// head is the constant part of every request head: the Host and User-Agent lines.
	head string
	// answers remembers checked answers (ClientOptions.RememberAnswers); nil: none.
	answers *answerTables

	mu     sync.Mutex
	idle   []*conn // most recently used last
	conns  map[*conn]struct{}
	closed bool
}

// ClientOptions are the settings of a Client that are not the protocol's options.
type ClientOptions struct {
	// RememberAnswers makes the client accept an answer whose body has the bytes of
	// one it decoded earlier for the same request without decoding it again, and
	// return the value decoded then (internal/answers): what a load generator
	// needs, not what a service's client would do. Answers of ListPersons, GetPerson,
	// GetPersonLinks and Echo are remembered; the others must differ from call to call
	// and are decoded every time. Remembered values are shared between calls: callers
	// must not modify them.
	RememberAnswers bool
}

// NewClient returns a client of cfg.Address. It opens one connection through cfg.Dial
// within ctx, so that a wrong or dead target fails here, and keeps it for the first
// call. No client option is known.
func NewClient(ctx context.Context, cfg protocol.ClientConfig) (*Client, error) {
	return NewClientWith(ctx, cfg, ClientOptions{})
}

// NewClientWith is NewClient with opts.
func NewClientWith(ctx context.Context, cfg protocol.ClientConfig, opts ClientOptions) (*Client, error) {
	if err := protocol.CheckOptions(httpjson.Name, cfg.Options); err != nil {
		return nil, err
	}
	if cfg.Dial == nil {
		return nil, errors.New("http-json: ClientConfig.Dial is nil")
	}
	host := cfg.Address.Address
	if cfg.Address.Network != "tcp" || host == "" {
		host = "localhost" // a Unix socket has no host name; HTTP/1.1 needs one
	}
	dial := cfg.Dial
	if cfg.TLS.Enabled() {
		tc, err := cfg.TLS.ClientConfig("http/1.1")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", httpjson.Name, err)
		}
		dial = transport.TLSDialer(dial, cfg.Address, tc)
	}
	c := &Client{
		dial:  dial,
		addr:  cfg.Address,
		limit: cfg.MessageLimit(),
		head:  "Host: " + host + "\r\nUser-Agent: wirebench\r\n",
		conns: map[*conn]struct{}{},
	}
	if opts.RememberAnswers {
		c.answers = newAnswerTables()
	}
	cn, err := c.newConn(ctx)
	if err != nil {
		return nil, err
	}
	c.put(cn)
	return c, nil
}

// Close closes every connection, idle or busy. It is safe to call more than once and
// concurrently with calls, which then fail with httpjson.ErrClosed.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	conns := c.conns
	c.conns = map[*conn]struct{}{}
	c.idle = nil
	c.mu.Unlock()
	for cn := range conns {
		cn.nc.Close()
	}
	return nil
}

// conn is one pooled connection. It is owned by one call at a time.
type conn struct {
	nc    net.Conn
	src   connReader // what br reads: nc, with the request to write first
	br    *bufio.Reader
	bw    *bufio.Writer
	head  []byte // the request head being written
	body  []byte // the last response body
	bodyR bodyReader
	lines *bufio.Reader // a stream's line reader, made on the first stream
	long  []byte        // a stream line longer than lines' buffer

	// abort sets a past deadline, which ends any I/O in progress: it runs when the
	// context armed ends. The registration is kept between calls made with the same
	// context (the engine's callers keep one for their whole run), so that a call does
	// not pay for registering and unregistering; stop unregisters it.
	abort func()
	armed context.Context
	stop  func() bool

	reused bool // it carried a request before
	keep   bool // it may carry another request
}

func (c *Client) newConn(ctx context.Context) (*conn, error) {
	nc, err := c.dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", c.addr, err)
	}
	cn := &conn{
		nc:   nc,
		src:  connReader{nc: nc},
		bw:   bufio.NewWriterSize(nc, connBufferSize),
		keep: true,
	}
	cn.br = bufio.NewReaderSize(&cn.src, connBufferSize)
	cn.abort = func() { cn.nc.SetDeadline(aLongTimeAgo) }
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		nc.Close()
		return nil, httpjson.ErrClosed
	}
	c.conns[cn] = struct{}{}
	return cn, nil
}

// armedLookahead is how many of the most recently used idle connections get looks
// through for one already armed with the call's context.
const armedLookahead = 4

// get returns an idle connection, or a new one when none is idle. Among the most
// recently used, it prefers one armed with ctx.
func (c *Client) get(ctx context.Context) (*conn, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, httpjson.ErrClosed
	}
	if n := len(c.idle); n > 0 {
		i := n - 1
		for j := n - 1; j >= max(0, n-armedLookahead); j-- {
			if c.idle[j].armed == ctx {
				i = j
				break
			}
		}
		cn := c.idle[i]
		copy(c.idle[i:], c.idle[i+1:])
		c.idle[n-1] = nil
		c.idle = c.idle[:n-1]
		c.mu.Unlock()
		return cn, nil
	}
	c.mu.Unlock()
	return c.newConn(ctx)
}

// put returns a connection whose answer was read whole to the pool, or closes it
// when it may not carry another request.
func (c *Client) put(cn *conn) {
	if !cn.keep {
		c.discard(cn)
		return
	}
	cn.reused = true
	if cap(cn.body) > maxConnBody {
		cn.body = nil
	}
	if cap(cn.long) > maxConnBody {
		cn.long = nil
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		cn.nc.Close()
		return
	}
	c.idle = append(c.idle, cn)
	c.mu.Unlock()
}

// discard closes a connection that must not be reused.
func (c *Client) discard(cn *conn) {
	c.mu.Lock()
	delete(c.conns, cn)
	c.mu.Unlock()
	cn.unregister()
	cn.nc.Close()
}

// arm makes the end of ctx end the connection's I/O, and reports whether the
// connection can carry the call: false when the registration of an earlier context
// had fired (abort ran, so the deadline is spoiled), and the connection must be
// discarded. A call on the context of the connection's last call, or on a context
// that can never end, registers nothing.
func (cn *conn) arm(ctx context.Context) bool {
	cn.keep = true
	if cn.stop != nil && cn.armed == ctx {
		return true
	}
	if !cn.unregister() {
		return false
	}
	if ctx.Done() != nil {
		cn.armed, cn.stop = ctx, context.AfterFunc(ctx, cn.abort)
	}
	return true
}

// unregister removes the registration of the armed context; false when it had fired.
func (cn *conn) unregister() bool {
	if cn.stop == nil {
		return true
	}
	ok := cn.stop()
	cn.armed, cn.stop = nil, nil
	return ok
}

// disarm ends a call. The registration stays for the next call with the same
// context; but if the context ended meanwhile, abort has run or is running, so the
// connection's deadline is spoiled: it is marked not to be kept.
func (cn *conn) disarm() {
	if cn.armed != nil && cn.armed.Err() != nil {
		cn.keep = false
	}
}

// connReader is what a connection's buffered reader reads: the connection, with the
// request put in place by write sent ahead of the next read, by transport.WriteRead.
// That is safe here: a connection carries one request at a time, and its previous
// answer was read whole (write checks that nothing is left buffered).
type connReader struct {
	nc      net.Conn
	pending []byte
	werr    error
}

func (r *connReader) Read(p []byte) (int, error) {
	if r.pending == nil {
		return r.nc.Read(p)
	}
	w := r.pending
	r.pending = nil
	_, n, werr, rerr := transport.WriteRead(r.nc, w, p)
	r.werr = werr
	return n, rerr
}

// writeErr returns and forgets the error of the last request written by a read.
func (r *connReader) writeErr() error {
	err := r.werr
	r.werr = nil
	return err
}

// request is what a call sends: method, then a path made of path, the decimal id (when
// withID) and suffix, then a JSON body when body is not nil.
type request struct {
	op     string // names the call in errors
	method string
	path   string
	id     int64
	withID bool
	suffix string
	body   []byte
}

// noResponse wraps the failure of a call that received no byte of an answer: on a
// reused connection it means the server had closed it while idle.
type noResponse struct{ err error }

func (e *noResponse) Error() string { return "no response: " + e.err.Error() }
func (e *noResponse) Unwrap() error { return e.err }

// exchangeMax is the largest request that is written by the read of its answer
// (transport.WriteRead); larger ones go through the buffered writer.
const exchangeMax = 64 << 10

// write sends the request: the head is built by hand into a reused buffer (no
// allocation), head and body leave in one write. A request up to exchangeMax is only
// put in place, to be written by the read of its answer (connReader).
func (c *Client) write(cn *conn, r *request) error {
	h := append(cn.head[:0], r.method...)
	h = append(h, ' ')
	h = append(h, r.path...)
	if r.withID {
		h = strconv.AppendInt(h, r.id, 10)
	}
	h = append(h, r.suffix...)
	h = append(h, " HTTP/1.1\r\n"...)
	h = append(h, c.head...)
	if r.body != nil {
		h = append(h, "Content-Type: application/json\r\nContent-Length: "...)
		h = strconv.AppendInt(h, int64(len(r.body)), 10)
		h = append(h, "\r\n"...)
	}
	h = append(h, "\r\n"...)
	if len(h)+len(r.body) <= exchangeMax && cn.br.Buffered() == 0 {
		h = append(h, r.body...)
		cn.head = h
		cn.src.pending = h
		return nil
	}
	cn.head = h
	cn.bw.Write(h)
	cn.bw.Write(r.body)
	return cn.bw.Flush() // a bufio.Writer keeps its first error: Flush reports the Writes'
}

// exchange writes the request and reads the head of the answer. A server may answer
// and close without reading the whole request (a 413 for a body over its limit), so
// a failed write is followed by an attempt to read the answer, which then wins.
func (c *Client) exchange(cn *conn, r *request) (response, error) {
	werr := c.write(cn, r)
	_, err := cn.br.Peek(1)
	if werr == nil {
		werr = cn.src.writeErr()
	}
	if err != nil {
		if werr != nil {
			err = werr
		}
		return response{}, &noResponse{err}
	}
	resp, err := readResponse(cn.br)
	if err != nil {
		return resp, err
	}
	if werr != nil {
		resp.close = true
	}
	if resp.close {
		cn.keep = false
	}
	cn.bodyR.reset(cn.br, &resp)
	return resp, nil
}

// start takes a connection, arms it with ctx and exchanges r on it. A failure before
// any answer on a reused connection is retried once on a new one: the server closed
// the idle connection, so it never saw the request. On success the connection is
// armed and its body reader is set; the caller must disarm and release it.
func (c *Client) start(ctx context.Context, r *request) (*conn, response, error) {
	if err := ctx.Err(); err != nil {
		return nil, response{}, c.fail(ctx, r.op, err)
	}
	for attempt := 0; ; attempt++ {
		cn, err := c.get(ctx)
		if err != nil {
			return nil, response{}, c.fail(ctx, r.op, err)
		}
		if !cn.arm(ctx) {
			c.discard(cn) // an earlier context's end spoiled it
			attempt--
			continue
		}
		resp, err := c.exchange(cn, r)
		if err == nil {
			return cn, resp, nil
		}
		cn.disarm()
		c.discard(cn)
		var nr *noResponse
		if attempt == 0 && cn.reused && errors.As(err, &nr) && ctx.Err() == nil {
			continue
		}
		return nil, response{}, c.fail(ctx, r.op, err)
	}
}

// call makes one call and returns its 2xx answer's body, which is valid until the
// connection is released with c.put. Any other answer is returned as an error.
func (c *Client) call(ctx context.Context, r *request) (*conn, []byte, error) {
	cn, resp, err := c.start(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	cn.body, err = readBody(&cn.bodyR, cn.body, c.limit)
	cn.disarm()
	if err != nil {
		c.discard(cn)
		return nil, nil, c.fail(ctx, r.op, err)
	}
	if resp.status/100 != 2 {
		err := httpjson.StatusError(resp.status, cn.body, decodeError(cn.body))
		c.put(cn)
		return nil, nil, err
	}
	return cn, cn.body, nil
}

// fail maps the failure of a call (httpjson.CallError).
func (c *Client) fail(ctx context.Context, op string, err error) error {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	return httpjson.CallError(ctx, op, err, closed)
}

// ListPersons calls GET /persons.
func (c *Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	r := request{op: httpjson.OpList, method: "GET", path: "/persons"}
	cn, body, err := c.call(ctx, &r)
	if err != nil {
		return nil, err
	}
	ps, err := answers.Get(c.answers.list(), 0, body, decodePersonList)
	c.put(cn)
	if err != nil {
		return nil, httpjson.DecodeFailed(r.op, err)
	}
	return ps, nil
}

// GetPerson calls GET /persons/{id}; an unknown id fails with Code NotFound.
func (c *Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	r := request{op: httpjson.OpGet, method: "GET", path: "/persons/", id: id, withID: true}
	cn, body, err := c.call(ctx, &r)
	if err != nil {
		return contract.Person{}, err
	}
	p, err := answers.Get(c.answers.person(), uint64(id), body, decodePersonValue)
	c.put(cn)
	if err != nil {
		return contract.Person{}, httpjson.DecodeFailed(r.op, err)
	}
	return p, nil
}

// GetPersonLinks calls GET /persons/{id}/links; an unknown id fails with Code NotFound.
func (c *Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	r := request{op: httpjson.OpLinks, method: "GET", path: "/persons/", id: id, withID: true, suffix: "/links"}
	cn, body, err := c.call(ctx, &r)
	if err != nil {
		return nil, err
	}
	links, err := answers.Get(c.answers.links(), uint64(id), body, decodeLinks)
	c.put(cn)
	if err != nil {
		return nil, httpjson.DecodeFailed(r.op, err)
	}
	return links, nil
}

// CreatePerson calls POST /persons; a bad person fails with Code InvalidArgument.
func (c *Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	e := getEncoder()
	defer putEncoder(e)
	if err := encodePerson(e, &p); err != nil {
		return contract.Person{}, fmt.Errorf("http-json %s: %w", httpjson.OpCreate, err)
	}
	r := request{op: httpjson.OpCreate, method: "POST", path: "/persons", body: e.Bytes()}
	cn, body, err := c.call(ctx, &r)
	if err != nil {
		return contract.Person{}, err
	}
	var out contract.Person
	err = decodePerson(body, &out)
	c.put(cn)
	if err != nil {
		return contract.Person{}, httpjson.DecodeFailed(r.op, err)
	}
	return out, nil
}

// Echo calls POST /echo with {"payload": payload}.
func (c *Client) Echo(ctx context.Context, payload string) (string, error) {
	e := getEncoder()
	defer putEncoder(e)
	if err := encodeEcho(e, payload); err != nil {
		return "", fmt.Errorf("http-json %s: %w", httpjson.OpEcho, err)
	}
	r := request{op: httpjson.OpEcho, method: "POST", path: "/echo", body: e.Bytes()}
	cn, body, err := c.call(ctx, &r)
	if err != nil {
		return "", err
	}
	t := c.answers.echo()
	out, err := answers.Get(t, t.Key(payload), body, decodeEcho)
	c.put(cn)
	if err != nil {
		return "", httpjson.DecodeFailed(r.op, err)
	}
	return out, nil
}

// Stats calls GET /stats.
func (c *Client) Stats(ctx context.Context) (contract.Stats, error) {
	r := request{op: httpjson.OpStats, method: "GET", path: "/stats"}
	cn, body, err := c.call(ctx, &r)
	if err != nil {
		return contract.Stats{}, err
	}
	st, err := decodeStats(body)
	c.put(cn)
	if err != nil {
		return contract.Stats{}, httpjson.DecodeFailed(r.op, err)
	}
	return st, nil
}

// Increment calls POST /increment with {"value": n}.
func (c *Client) Increment(ctx context.Context, n int64) (int64, error) {
	e := getEncoder()
	defer putEncoder(e)
	if err := encodeValue(e, n); err != nil {
		return 0, fmt.Errorf("http-json %s: %w", httpjson.OpIncrement, err)
	}
	r := request{op: httpjson.OpIncrement, method: "POST", path: "/increment", body: e.Bytes()}
	cn, body, err := c.call(ctx, &r)
	if err != nil {
		return 0, err
	}
	v, err := decodeValue(body)
	c.put(cn)
	if err != nil {
		return 0, httpjson.DecodeFailed(r.op, err)
	}
	return v, nil
}
