package gofasthttp

// The client: fasthttp's HostClient, and easyjson's generated code for every body.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mailru/easyjson"
	"github.com/mailru/easyjson/jwriter"
	"github.com/valyala/fasthttp"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/transport"
)

// Client is a contract.Service over a fasthttp.HostClient whose connections are all
// opened through ClientConfig.Dial. It is safe for concurrent use: the HostClient
// gives each call an idle keep-alive connection or dials a new one, so N calls in
// flight use N connections. Close closes every connection, idle or busy; calls after
// Close fail at once with httpjson.ErrClosed.
type Client struct {
	hc     *fasthttp.HostClient
	base   string // "http://host", the start of every URL
	limit  int
	closed atomic.Bool

	mu    sync.Mutex
	conns map[*conn]struct{} // open connections, tracked for Close
}

// NewClient returns a client of cfg.Address, over TLS when cfg.TLS is enabled. Unless
// cfg.NoProbe, it opens and closes one connection through cfg.Dial within ctx, so that
// a wrong or dead target fails here, as it does with the other stacks. No client
// option is known.
//
// The HostClient has fasthttp's defaults but for where its connections come from
// (cfg.Dial, which counts their bytes), MaxResponseBodySize (the client's limit), and
// MaxConns: fasthttp's DefaultMaxConnsPerHost (512), or cfg.Concurrency when larger,
// since a call finding every connection busy fails at once with ErrNoFreeConns; a
// service sizes its client for the calls it makes at once.
func NewClient(ctx context.Context, cfg protocol.ClientConfig) (*Client, error) {
	if err := protocol.CheckOptions(httpjson.Name, cfg.Options); err != nil {
		return nil, err
	}
	dial := cfg.Dial
	if dial == nil {
		return nil, errors.New("http-json: ClientConfig.Dial is nil")
	}
	host := cfg.Address.Address
	if cfg.Address.Network != "tcp" || host == "" {
		host = "localhost" // a Unix socket has no host name; HTTP/1.1 needs one
	}
	scheme := "http://"
	if cfg.TLS.Enabled() {
		// The handshake is made when a connection is opened; fasthttp takes a
		// connection that has made it as a TLS connection (IsTLS) and uses it as is.
		tc, err := cfg.TLS.ClientConfig("http/1.1")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", httpjson.Name, err)
		}
		dial = transport.TLSDialer(dial, cfg.Address, tc)
		scheme = "https://"
	}
	if !cfg.NoProbe {
		probe, err := dial(ctx)
		if err != nil {
			return nil, fmt.Errorf("dial %s: %w", cfg.Address, err)
		}
		probe.Close()
	}
	c := &Client{base: scheme + host, limit: cfg.MessageLimit(), conns: map[*conn]struct{}{}}
	c.hc = &fasthttp.HostClient{
		Addr:                host,
		IsTLS:               cfg.TLS.Enabled(),
		MaxConns:            max(cfg.Concurrency, fasthttp.DefaultMaxConnsPerHost),
		MaxResponseBodySize: c.limit,
	}
	c.hc.DialTimeout = func(_ string, timeout time.Duration) (net.Conn, error) { return c.dial(dial, timeout) }
	return c, nil
}

// dial opens a connection within timeout (what is left of the call's deadline, or
// fasthttp's DefaultDialTimeout for a call without one) and tracks it until it is
// closed.
func (c *Client) dial(dial transport.DialFunc, timeout time.Duration) (net.Conn, error) {
	if c.closed.Load() {
		return nil, httpjson.ErrClosed
	}
	if timeout <= 0 {
		timeout = fasthttp.DefaultDialTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	nc, err := dial(ctx)
	if err != nil {
		return nil, err
	}
	cn := &conn{Conn: nc, c: c}
	c.mu.Lock()
	if c.closed.Load() {
		c.mu.Unlock()
		nc.Close()
		return nil, httpjson.ErrClosed
	}
	c.conns[cn] = struct{}{}
	c.mu.Unlock()
	return cn, nil
}

// conn is a connection of the client, which forgets it when it is closed.
type conn struct {
	net.Conn
	c *Client
}

func (cn *conn) Close() error {
	cn.c.mu.Lock()
	delete(cn.c.conns, cn)
	cn.c.mu.Unlock()
	return cn.Conn.Close()
}

// Handshake is the TLS connection's, which has made it already (transport.TLSDialer):
// fasthttp takes a connection with this method as one that speaks TLS.
func (cn *conn) Handshake() error {
	if h, ok := cn.Conn.(interface{ Handshake() error }); ok {
		return h.Handshake()
	}
	return nil
}

// Close closes every connection, idle or busy: calls in flight fail. It is safe to
// call more than once and concurrently with calls.
func (c *Client) Close() error {
	c.closed.Store(true)
	c.mu.Lock()
	conns := c.conns
	c.conns = map[*conn]struct{}{}
	c.mu.Unlock()
	for cn := range conns {
		cn.Conn.Close()
	}
	c.hc.CloseIdleConnections()
	return nil
}

// do sends req and reads its answer into resp, within ctx's deadline when it has
// one. fasthttp's client takes no context: a context already ended fails the call
// here, and the deadline bounds the call's dial, write and read.
func (c *Client) do(ctx context.Context, op string, req *fasthttp.Request, resp *fasthttp.Response) error {
	if c.closed.Load() {
		return fmt.Errorf("%w (%s)", httpjson.ErrClosed, op)
	}
	if err := ctx.Err(); err != nil {
		return c.fail(ctx, op, err)
	}
	var err error
	deadline, timed := ctx.Deadline()
	if timed {
		err = c.hc.DoDeadline(req, resp, deadline)
	} else {
		err = c.hc.Do(req, resp)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		err = httpjson.TooLarge(c.limit)
	case timed && errors.Is(err, fasthttp.ErrTimeout):
		// The deadline fasthttp set on the connection passed, a moment before ctx's
		// own timer may have fired: the call failed by ctx's deadline.
		err = fmt.Errorf("%w (%v)", context.DeadlineExceeded, err)
	}
	return c.fail(ctx, op, err)
}

func (c *Client) fail(ctx context.Context, op string, err error) error {
	return httpjson.CallError(ctx, op, err, c.closed.Load())
}

// call makes one call, with in (when not nil) as its JSON body, and unmarshals its 2xx
// answer into out. Any other answer is returned as an error (httpjson.StatusError).
func (c *Client) call(ctx context.Context, op, method, path string, in easyjson.Marshaler, out easyjson.Unmarshaler) error {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(method)
	req.SetRequestURI(c.base + path)
	if in != nil {
		var w jwriter.Writer
		in.MarshalEasyJSON(&w)
		if w.Error != nil {
			return fmt.Errorf("http-json %s: %w", op, w.Error)
		}
		req.Header.SetContentType(httpjson.JSONType)
		w.DumpTo(req.BodyWriter()) // appends to the request's body: no error
	}
	if err := c.do(ctx, op, req, resp); err != nil {
		return err
	}
	body := resp.Body()
	if status := resp.StatusCode(); status/100 != 2 {
		return httpjson.StatusError(status, body, decodeError(body))
	}
	if err := easyjson.Unmarshal(body, out); err != nil {
		return httpjson.DecodeFailed(op, err)
	}
	return nil
}

// decodeError returns the contract error an error body carries, or nil when the body
// is not an error body of ours (another server's page, a code we do not know).
func decodeError(body []byte) *contract.Error {
	var b httpjson.ErrorBody
	if easyjson.Unmarshal(body, &b) != nil || !b.Code.Valid() {
		return nil
	}
	return &contract.Error{Code: b.Code, Message: b.Message}
}

// ListPersons calls GET /persons.
func (c *Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	var out httpjson.PersonList
	if err := c.call(ctx, httpjson.OpList, fasthttp.MethodGet, httpjson.PathPersons, nil, &out); err != nil {
		return nil, err
	}
	return out.Persons, nil
}

// GetPerson calls GET /persons/{id}; an unknown id fails with Code NotFound.
func (c *Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	var p contract.Person
	if err := c.call(ctx, httpjson.OpGet, fasthttp.MethodGet, personPath(id), nil, (*httpjson.PersonBody)(&p)); err != nil {
		return contract.Person{}, err
	}
	return p, nil
}

// GetPersonLinks calls GET /persons/{id}/links; an unknown id fails with Code NotFound.
func (c *Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	var out httpjson.LinkList
	if err := c.call(ctx, httpjson.OpLinks, fasthttp.MethodGet, personPath(id)+"/links", nil, &out); err != nil {
		return nil, err
	}
	return out.Links, nil
}

func personPath(id int64) string { return httpjson.PathPersons + "/" + strconv.FormatInt(id, 10) }

// CreatePerson calls POST /persons; a bad person fails with Code InvalidArgument.
func (c *Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	var out contract.Person
	if err := c.call(ctx, httpjson.OpCreate, fasthttp.MethodPost, httpjson.PathPersons, (*httpjson.PersonBody)(&p), (*httpjson.PersonBody)(&out)); err != nil {
		return contract.Person{}, err
	}
	return out, nil
}

// Echo calls POST /echo with {"payload": payload}.
func (c *Client) Echo(ctx context.Context, payload string) (string, error) {
	var out httpjson.EchoRead
	if err := c.call(ctx, httpjson.OpEcho, fasthttp.MethodPost, httpjson.PathEcho, &httpjson.EchoBody{Payload: payload}, &out); err != nil {
		return "", err
	}
	if err := out.Validate(); err != nil {
		return "", httpjson.DecodeFailed(httpjson.OpEcho, err)
	}
	return *out.Payload, nil
}

// Stats calls GET /stats.
func (c *Client) Stats(ctx context.Context) (contract.Stats, error) {
	var st contract.Stats
	if err := c.call(ctx, httpjson.OpStats, fasthttp.MethodGet, httpjson.PathStats, nil, (*httpjson.StatsBody)(&st)); err != nil {
		return contract.Stats{}, err
	}
	return st, nil
}

// Increment calls POST /increment with {"value": n}.
func (c *Client) Increment(ctx context.Context, n int64) (int64, error) {
	var out httpjson.ValueRead
	if err := c.call(ctx, httpjson.OpIncrement, fasthttp.MethodPost, httpjson.PathIncrement, &httpjson.ValueBody{Value: n}, &out); err != nil {
		return 0, err
	}
	if err := out.Validate(); err != nil {
		return 0, httpjson.DecodeFailed(httpjson.OpIncrement, err)
	}
	return *out.Value, nil
}

// StreamTrades calls GET /trades?count=N with the answer's body streamed
// (Response.StreamBody) and hands each trade line, unmarshalled, to yield. It returns
// nil once count trades and the end line {"end":{"count":N}} arrived and the body
// ended; the contract error of an {"error":...} line; an error for a stream cut short.
// When yield fails, or ctx ends, the body is closed before its end, which closes the
// connection (stopping the server at once, rather than draining the rest); the
// yield's error is returned as it is.
func (c *Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(fasthttp.MethodGet)
	req.SetRequestURI(c.base + httpjson.PathTrades + "?count=" + strconv.FormatInt(count, 10))
	resp.StreamBody = true
	if err := c.do(ctx, httpjson.OpTrades, req, resp); err != nil {
		return err
	}
	defer resp.CloseBodyStream()
	body := resp.BodyStream()
	if body == nil {
		// fasthttp streams only bodies it has not read yet; a small one it has.
		body = &bodyReader{b: resp.Body()}
	}
	if closer, ok := body.(fasthttp.ReadCloserWithError); ok {
		stop := context.AfterFunc(ctx, func() { closer.CloseWithError(ctx.Err()) })
		defer stop()
	}
	if status := resp.StatusCode(); status/100 != 2 {
		b, err := io.ReadAll(io.LimitReader(body, int64(c.limit)+1))
		switch {
		case err != nil:
			return c.fail(ctx, httpjson.OpTrades, err)
		case len(b) > c.limit:
			return httpjson.TooLarge(c.limit)
		}
		return httpjson.StatusError(status, b, decodeError(b))
	}
	yerr, err := httpjson.ReadStream(body, c.limit, count, decodeLine, yield)
	switch {
	case yerr != nil:
		return yerr
	case err != nil:
		return c.fail(ctx, httpjson.OpTrades, err)
	}
	return nil
}

// bodyReader reads a body fasthttp has read whole.
type bodyReader struct{ b []byte }

func (r *bodyReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// decodeLine decodes a stream line with easyjson.
func decodeLine(b []byte, line *httpjson.AnyLine) error {
	if err := easyjson.Unmarshal(b, line); err != nil {
		return fmt.Errorf("stream line: %w", err)
	}
	return nil
}

// StreamOriginalTrades refuses: this stack does not carry the original trade shape
// (its Stack.OriginalTrades is false, so a run asking for it is refused earlier).
func (c *Client) StreamOriginalTrades(context.Context, int64, func(*contract.OriginalTrade) error) error {
	return contract.NotCarried(Name)
}
