package coderwebsocket

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/websocketproto"
)

// ErrClosed is wrapped by the errors of calls on a closed client.
var ErrClosed = errors.New("client closed")

// streamBuffer is how many stream messages the reader queues for a stream's caller
// before it waits for the caller (and so holds up the other calls of the
// connection: one WebSocket has no flow control per call).
const streamBuffer = 64

// Client is a contract.Service over one WebSocket. It is safe for concurrent use:
// every call in flight shares the connection, matched by id. A connection that
// failed is replaced by a new one at the next call. Close closes it; calls after
// Close fail at once.
type Client struct {
	url    string
	opts   *websocket.DialOptions
	tr     *http.Transport
	limit  int64
	nextID atomic.Uint64

	mu     sync.Mutex // guards sess and closed, and is held while dialing
	sess   *session
	closed bool
}

var _ protocol.Client = (*Client)(nil)

// NewClient opens a WebSocket to cfg.Address, whose connections all come from
// cfg.Dial, within ctx (so a wrong or dead target fails here), over TLS when cfg.TLS
// is enabled. Answers over cfg.MessageLimit() bytes fail with resource_exhausted. It
// has no options.
func NewClient(ctx context.Context, cfg protocol.ClientConfig) (*Client, error) {
	if err := protocol.CheckOptions(websocketproto.Name, cfg.Options); err != nil {
		return nil, err
	}
	if cfg.Dial == nil {
		return nil, fmt.Errorf("%s: ClientConfig.Dial is nil", websocketproto.Name)
	}
	dial := cfg.Dial
	var protocols http.Protocols
	protocols.SetHTTP1(true) // a WebSocket opens over HTTP/1.1
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) },
		Protocols:   &protocols,
	}
	host, scheme := cfg.Address.Address, "ws://"
	if cfg.Address.Network != "tcp" || host == "" {
		host = "localhost" // a Unix socket has no host name
	}
	if cfg.TLS.Enabled() {
		var err error
		if tr.TLSClientConfig, err = cfg.TLS.ClientConfig("http/1.1"); err != nil {
			return nil, fmt.Errorf("%s: %w", websocketproto.Name, err)
		}
		scheme = "wss://"
	}
	c := &Client{
		url:   scheme + host + websocketproto.Path,
		opts:  &websocket.DialOptions{HTTPClient: &http.Client{Transport: tr}},
		tr:    tr,
		limit: int64(cfg.MessageLimit()),
	}
	if _, err := c.session(ctx); err != nil {
		return nil, fmt.Errorf("%s: connect to %s: %w", websocketproto.Name, cfg.Address, err)
	}
	return c, nil
}

// Close closes the WebSocket with status 1000 (normal closure) after the close
// handshake; calls in flight fail. It is safe to call more than once.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	s := c.sess
	c.mu.Unlock()
	if s != nil {
		s.ws.Close(websocket.StatusNormalClosure, "")
		s.kill(fmt.Errorf("%s: %w", websocketproto.Name, ErrClosed))
	}
	c.tr.CloseIdleConnections()
	return nil
}

// session returns the open WebSocket, dialing a new one when there is none or it
// failed.
func (c *Client) session(ctx context.Context) (*session, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	if c.sess != nil && c.sess.ctx.Err() == nil {
		return c.sess, nil
	}
	ws, _, err := websocket.Dial(ctx, c.url, c.opts)
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(c.limit)
	sctx, cancel := context.WithCancelCause(context.Background())
	c.sess = &session{ws: ws, ctx: sctx, cancel: cancel, limit: c.limit, calls: map[uint64]*pending{}}
	go c.sess.read()
	return c.sess, nil
}

// session is one WebSocket and its calls in flight.
type session struct {
	ws     *websocket.Conn
	ctx    context.Context // ends, with its cause, when the WebSocket failed or closed
	cancel context.CancelCauseFunc
	limit  int64

	mu    sync.Mutex
	calls map[uint64]*pending
}

// pending is a call waiting for its answers.
type pending struct {
	answers chan websocketproto.InAnswer
	gone    chan struct{} // closed when the caller stops waiting
}

// kill ends the session with err as the cause its calls fail with, and closes the
// WebSocket at once.
func (s *session) kill(err error) {
	s.cancel(err)
	s.ws.CloseNow()
}

// read hands each answer to its call until the WebSocket fails; answers of calls no
// longer waiting (cancelled, stopped streams) are dropped.
func (s *session) read() {
	for {
		var a websocketproto.InAnswer
		if err := wsjson.Read(s.ctx, s.ws, &a); err != nil {
			s.kill(s.readError(err))
			return
		}
		s.mu.Lock()
		p := s.calls[a.ID]
		s.mu.Unlock()
		if p == nil {
			continue
		}
		select {
		case p.answers <- a:
		case <-p.gone:
		case <-s.ctx.Done():
			return
		}
	}
}

// readError is the error that calls in flight fail with when the read of answers
// failed: resource_exhausted for a message over either side's limit.
func (s *session) readError(err error) error {
	if cause := context.Cause(s.ctx); cause != nil {
		return cause // killed by a failed write or by Close
	}
	switch {
	case errors.Is(err, websocket.ErrMessageTooBig):
		return &contract.Error{Code: contract.ResourceExhausted, Message: fmt.Sprintf("an answer over the client's limit of %d bytes", s.limit)}
	case websocket.CloseStatus(err) == websocket.StatusMessageTooBig:
		var ce websocket.CloseError
		errors.As(err, &ce)
		return &contract.Error{Code: contract.ResourceExhausted, Message: "the server closed the connection: " + ce.Reason}
	}
	return fmt.Errorf("%s connection: %w", websocketproto.Name, err)
}

// write writes one request within messageTimeout. Not the call's context: a
// context that ends while coder/websocket writes a message closes the connection,
// which would fail every other call on it. A write that fails kills the session,
// and returns why the session ended.
func (s *session) write(r *websocketproto.OutRequest) error {
	ctx, cancel := context.WithTimeout(s.ctx, messageTimeout)
	defer cancel()
	if err := wsjson.Write(ctx, s.ws, r); err != nil {
		// A server that refused a message over its limit has said so with a close
		// status before it closed; the reader, which meets the broken connection
		// too, ends the session with it. Wait a little for that, so the call fails
		// with resource_exhausted rather than a broken pipe.
		t := time.NewTimer(closeStatusWait)
		select {
		case <-s.ctx.Done():
		case <-t.C:
		}
		t.Stop()
		s.kill(fmt.Errorf("%s connection: %w", websocketproto.Name, err))
		return context.Cause(s.ctx)
	}
	return nil
}

// closeStatusWait bounds the wait, after a failed write, for the reader to read why
// the connection ended.
const closeStatusWait = time.Second

// start registers call id, whose answers are queued up to buffer, and sends its
// request.
func (c *Client) start(ctx context.Context, op string, body any, buffer int) (*session, uint64, *pending, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, nil, fmt.Errorf("%s %s: %w", websocketproto.Name, op, err)
	}
	s, err := c.session(ctx)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s %s: %w", websocketproto.Name, op, err)
	}
	id := c.nextID.Add(1)
	p := &pending{answers: make(chan websocketproto.InAnswer, buffer), gone: make(chan struct{})}
	s.mu.Lock()
	s.calls[id] = p
	s.mu.Unlock()
	if err := s.write(&websocketproto.OutRequest{ID: id, Op: op, Body: body}); err != nil {
		s.done(id, p)
		return nil, 0, nil, s.failed(op)
	}
	return s, id, p, nil
}

// done unregisters call id, whose caller no longer waits.
func (s *session) done(id uint64, p *pending) {
	s.mu.Lock()
	delete(s.calls, id)
	s.mu.Unlock()
	close(p.gone)
}

// abandon unregisters call id and tells the server to cancel it, without waiting
// for that write.
func (s *session) abandon(id uint64, p *pending) {
	s.done(id, p)
	go s.write(&websocketproto.OutRequest{ID: id, Op: websocketproto.OpCancel})
}

// next waits for the next answer of call id. On an error (a refusal, which ends
// the call; the call's context ending, which abandons it; the session failing) the
// call is unregistered.
func (s *session) next(ctx context.Context, op string, id uint64, p *pending) (websocketproto.InAnswer, error) {
	select {
	case a := <-p.answers:
		if a.Error != nil {
			s.done(id, p)
			return a, fromWire(a.Error)
		}
		return a, nil
	case <-ctx.Done():
		s.abandon(id, p)
		return websocketproto.InAnswer{}, fmt.Errorf("%s %s: %w", websocketproto.Name, op, ctx.Err())
	case <-s.ctx.Done():
		s.done(id, p)
		return websocketproto.InAnswer{}, s.failed(op)
	}
}

// failed is the error of call op on a session that ended: a contract error (over a
// limit) as it is, so that its code shows.
func (s *session) failed(op string) error {
	err := context.Cause(s.ctx)
	var ce *contract.Error
	if errors.As(err, &ce) {
		return err
	}
	return fmt.Errorf("%s %s: %w", websocketproto.Name, op, err)
}

// fromWire is the error of a refusal: a *contract.Error for the contract's codes.
func fromWire(e *websocketproto.WireError) error {
	if e.Code.Valid() {
		return &contract.Error{Code: e.Code, Message: e.Message}
	}
	return fmt.Errorf("%s: the server refused the call with code %q: %s", websocketproto.Name, e.Code, e.Message)
}

// call makes a unary call of op with body and decodes its answer into out.
func (c *Client) call(ctx context.Context, op string, body, out any) error {
	s, id, p, err := c.start(ctx, op, body, 1)
	if err != nil {
		return err
	}
	a, err := s.next(ctx, op, id, p)
	if err != nil {
		return err
	}
	s.done(id, p)
	if a.End != nil || a.Body == nil {
		return fmt.Errorf("%s %s: an answer without a body", websocketproto.Name, op)
	}
	if err := json.Unmarshal(a.Body, out); err != nil {
		return fmt.Errorf("%s %s: answer: %w", websocketproto.Name, op, err)
	}
	return nil
}

// ListPersons calls listPersons.
func (c *Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	var out websocketproto.PersonList
	if err := c.call(ctx, websocketproto.OpListPersons, nil, &out); err != nil {
		return nil, err
	}
	return out.Persons, nil
}

// GetPerson calls getPerson; an unknown id fails with Code NotFound.
func (c *Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	var out contract.Person
	err := c.call(ctx, websocketproto.OpGetPerson, websocketproto.IDBody{ID: &id}, &out)
	return out, err
}

// GetPersonLinks calls getPersonLinks.
func (c *Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	var out websocketproto.LinkList
	if err := c.call(ctx, websocketproto.OpGetPersonLinks, websocketproto.IDBody{ID: &id}, &out); err != nil {
		return nil, err
	}
	return out.Links, nil
}

// CreatePerson calls createPerson.
func (c *Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	var out contract.Person
	err := c.call(ctx, websocketproto.OpCreatePerson, &p, &out)
	return out, err
}

// Echo calls echo. The payload travels as a JSON string: invalid UTF-8 in it
// becomes U+FFFD, as encoding/json writes it.
func (c *Client) Echo(ctx context.Context, payload string) (string, error) {
	var out websocketproto.EchoAnswer
	err := c.call(ctx, websocketproto.OpEcho, websocketproto.EchoBody{Payload: &payload}, &out)
	return out.Payload, err
}

// Stats calls stats.
func (c *Client) Stats(ctx context.Context) (contract.Stats, error) {
	var out contract.Stats
	err := c.call(ctx, websocketproto.OpStats, nil, &out)
	return out, err
}

// Increment calls increment.
func (c *Client) Increment(ctx context.Context, n int64) (int64, error) {
	var out websocketproto.ValueAnswer
	err := c.call(ctx, websocketproto.OpIncrement, websocketproto.ValueBody{Value: &n}, &out)
	return out.Value, err
}

// StreamTrades calls streamTrades and hands each trade to yield. When yield fails,
// the client sends a cancel for the call and returns yield's error at once; trades
// already on their way are dropped. A stream that ends with more or fewer than count
// trades is an error.
func (c *Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	s, id, p, err := c.start(ctx, websocketproto.OpStreamTrades, websocketproto.CountBody{Count: &count}, streamBuffer)
	if err != nil {
		return err
	}
	var (
		n  int64
		wt websocketproto.WireTrade
		t  contract.Trade
	)
	for {
		a, err := s.next(ctx, websocketproto.OpStreamTrades, id, p)
		if err != nil {
			return err
		}
		if a.End != nil {
			s.done(id, p)
			if n != count || a.End.Count != count {
				return fmt.Errorf("%s streamTrades: the stream ended after %d of %d trades (the server counted %d)", websocketproto.Name, n, count, a.End.Count)
			}
			return nil
		}
		if n == count {
			s.abandon(id, p)
			return fmt.Errorf("%s streamTrades: more than the %d trades asked for", websocketproto.Name, count)
		}
		wt = websocketproto.WireTrade{}
		if err := json.Unmarshal(a.Body, &wt); err != nil {
			s.abandon(id, p)
			return fmt.Errorf("%s streamTrades: trade %d: %w", websocketproto.Name, n, err)
		}
		if err := wt.Trade(&t); err != nil {
			s.abandon(id, p)
			return fmt.Errorf("%s streamTrades: trade %d: %w", websocketproto.Name, n, err)
		}
		if err := yield(&t); err != nil {
			s.abandon(id, p)
			return err
		}
		n++
	}
}

// StreamOriginalTrades refuses: this stack does not carry the original trade shape
// (its Stack.OriginalTrades is false, so a run asking for it is refused earlier).
func (c *Client) StreamOriginalTrades(context.Context, int64, func(*contract.OriginalTrade) error) error {
	return contract.NotCarried(Name)
}
