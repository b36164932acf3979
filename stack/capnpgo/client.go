package capnpgo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"capnproto.org/go/capnp/v3/exc"
	"capnproto.org/go/capnp/v3/rpc"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/capnpwire"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/capnprpc"
	"github.com/wirebench/wirebench/protocol/transport"
)

// Client is a contract.Service over one Cap'n Proto RPC connection. It is safe for
// concurrent use by many goroutines: their calls are multiplexed on the connection
// and answered in any order. Close releases the connection; calls after Close, or
// after the connection died, fail at once. A Client does not reconnect: once its
// connection is gone, make a new one.
type Client struct {
	conn *rpc.Conn
	boot capnpwire.Wirebench

	closed    atomic.Bool
	closeOnce sync.Once

	// firstErr is the first error the connection reported (the peer's abort, a
	// frame we refused, ...), which says why it ended; tooBig is the first report of
	// a message over a size limit (ours or, in an abort, the peer's).
	firstErr atomic.Pointer[string]
	tooBig   atomic.Pointer[string]
}

var _ protocol.Client = (*Client)(nil)

// ErrClosed is returned by calls on a closed Client.
var ErrClosed = errors.New("capnp: client closed")

// errConnDied is returned by calls started after the connection ended.
var errConnDied = errors.New("capnp: connection closed")

// NewClient opens one connection through cfg.Dial, bootstraps the server's Wirebench
// capability and waits for it (so a wrong or dead target fails here), within ctx.
// cfg.Options may set OptionFlowWindow.
func NewClient(ctx context.Context, cfg protocol.ClientConfig) (*Client, error) {
	if err := protocol.CheckOptions(capnprpc.Name, cfg.Options, OptionFlowWindow); err != nil {
		return nil, err
	}
	window := 4 * int64(cfg.MessageLimit())
	if v, ok := cfg.Options[OptionFlowWindow]; ok {
		sz, err := units.ParseSize(v)
		if err != nil || sz < 1 {
			return nil, fmt.Errorf("%s: option %s: want a positive size such as 8MiB, got %q", capnprpc.Name, OptionFlowWindow, v)
		}
		window = int64(sz)
	}
	if cfg.Dial == nil {
		return nil, errors.New("capnp: ClientConfig.Dial is nil")
	}
	dial := cfg.Dial
	if cfg.TLS.Enabled() {
		tc, err := cfg.TLS.ClientConfig()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", capnprpc.Name, err)
		}
		dial = transport.TLSDialer(dial, cfg.Address, tc)
	}
	nc, err := dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("capnp: dial %s: %w", cfg.Address, err)
	}
	c := &Client{}
	c.conn = rpc.NewConn(newTransport(nc, cfg.MessageLimit(), nil), &rpc.Options{
		Logger: (*errLogger)(c),
	})
	// The bootstrap question must outlive ctx (which may end right after NewClient
	// returns), so it is asked with a background context and awaited with ctx.
	c.boot = capnpwire.Wirebench(c.conn.Bootstrap(context.Background()))
	if err := c.boot.Resolve(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("capnp: bootstrap %s: %w", cfg.Address, err)
	}
	// A peer that is no Cap'n Proto server ends the connection, which rejects the
	// bootstrap (Resolve does not report that) after the reason was recorded.
	if r := c.firstErr.Load(); r != nil || !c.boot.IsValid() {
		c.Close()
		return nil, fmt.Errorf("capnp: bootstrap %s: %s", cfg.Address, c.reason("no capability"))
	}
	c.boot.SetFlowLimiter(newLimiter(window))
	return c, nil
}

// Close releases the capability and closes the connection. It is safe to call more
// than once and concurrently with calls, which then fail.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.closed.Store(true)
		// Close the connection first: it fails the questions in flight, the
		// bootstrap's included, which Release would otherwise wait for.
		c.conn.Close() // an error here is about the connection being gone already
		c.boot.Release()
	})
	return nil
}

// errLogger is the rpc logger of clients: it prints nothing (a library never does)
// and keeps the errors that say why the connection ended.
type errLogger Client

func (*errLogger) Debug(string, ...any) {}
func (*errLogger) Info(string, ...any)  {}
func (*errLogger) Warn(string, ...any)  {}
func (l *errLogger) Error(msg string, _ ...any) {
	l.firstErr.CompareAndSwap(nil, &msg)
	if tooLarge(msg) {
		l.tooBig.CompareAndSwap(nil, &msg)
	}
}

func (c *Client) reason(def string) string {
	if r := c.firstErr.Load(); r != nil {
		return *r
	}
	return def
}

// begin fails a call that cannot start: client closed, connection gone, ctx done.
func (c *Client) begin(ctx context.Context) error {
	if c.closed.Load() {
		return ErrClosed
	}
	select {
	case <-c.conn.Done():
		return fmt.Errorf("%w: %s", errConnDied, c.reason("closed"))
	default:
	}
	return ctx.Err()
}

// callError maps the failure of a call: the contract error an exception carries (the
// server's answer), else an error matching ctx's when ctx ended, ResourceExhausted
// when the connection was aborted for a message over a limit, and otherwise the error
// itself, annotated.
func (c *Client) callError(ctx context.Context, op string, err error) error {
	if ce := capnprpc.DecodeError(err); ce != nil {
		return ce
	}
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(err, cerr) {
			return err
		}
		return fmt.Errorf("capnp %s: %w (%v)", op, cerr, err)
	}
	if c.closed.Load() {
		return fmt.Errorf("%w (%s: %v)", ErrClosed, op, err)
	}
	if exc.TypeOf(err) == exc.Disconnected || isSendFailure(err) {
		// The connection ended. Its reason may be reported an instant after the call
		// failed (a send can fail on the reset before the peer's abort is read).
		select {
		case <-c.conn.Done():
		case <-time.After(200 * time.Millisecond):
		}
		if r := c.tooBig.Load(); r != nil {
			return &contract.Error{Code: contract.ResourceExhausted, Message: "connection aborted: " + *r}
		}
	}
	return opError(op, err)
}

func isSendFailure(err error) bool {
	return exc.TypeOf(err) == exc.Failed && strings.Contains(err.Error(), "send message")
}

// ListPersons calls listPersons and converts the whole list to the model.
func (c *Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	if err := c.begin(ctx); err != nil {
		return nil, err
	}
	f, release := c.boot.ListPersons(ctx, nil)
	defer release()
	res, err := f.Struct()
	if err != nil {
		return nil, c.callError(ctx, "listPersons", err)
	}
	l, err := res.Persons()
	if err != nil {
		return nil, opError("listPersons", err)
	}
	ps, err := capnprpc.ReadPersons(l)
	if err != nil {
		return nil, opError("listPersons", err)
	}
	return ps, nil
}

// GetPerson calls getPerson; an unknown id fails with Code NotFound.
func (c *Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	var p contract.Person
	if err := c.begin(ctx); err != nil {
		return p, err
	}
	f, release := c.boot.GetPerson(ctx, func(a capnpwire.Wirebench_getPerson_Params) error {
		a.SetId(id)
		return nil
	})
	defer release()
	res, err := f.Struct()
	if err != nil {
		return p, c.callError(ctx, "getPerson", err)
	}
	w, err := res.Person()
	if err == nil {
		err = capnprpc.ReadPerson(w, &p)
	}
	if err != nil {
		return contract.Person{}, opError("getPerson", err)
	}
	return p, nil
}

// GetPersonLinks calls getPersonLinks; an unknown id fails with Code NotFound.
func (c *Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	if err := c.begin(ctx); err != nil {
		return nil, err
	}
	f, release := c.boot.GetPersonLinks(ctx, func(a capnpwire.Wirebench_getPersonLinks_Params) error {
		a.SetId(id)
		return nil
	})
	defer release()
	res, err := f.Struct()
	if err != nil {
		return nil, c.callError(ctx, "getPersonLinks", err)
	}
	l, err := res.Links()
	if err != nil {
		return nil, opError("getPersonLinks", err)
	}
	links, err := capnprpc.ReadLinks(l)
	if err != nil {
		return nil, opError("getPersonLinks", err)
	}
	return links, nil
}

// CreatePerson calls createPerson; a bad person fails with Code InvalidArgument.
func (c *Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	var out contract.Person
	if err := c.begin(ctx); err != nil {
		return out, err
	}
	f, release := c.boot.CreatePerson(ctx, func(a capnpwire.Wirebench_createPerson_Params) error {
		w, err := a.NewPerson()
		if err != nil {
			return err
		}
		return capnprpc.WritePerson(w, &p)
	})
	defer release()
	res, err := f.Struct()
	if err != nil {
		return out, c.callError(ctx, "createPerson", err)
	}
	w, err := res.Person()
	if err == nil {
		err = capnprpc.ReadPerson(w, &out)
	}
	if err != nil {
		return contract.Person{}, opError("createPerson", err)
	}
	return out, nil
}

// Echo calls echo with the payload as Text.
func (c *Client) Echo(ctx context.Context, payload string) (string, error) {
	if err := c.begin(ctx); err != nil {
		return "", err
	}
	f, release := c.boot.Echo(ctx, func(a capnpwire.Wirebench_echo_Params) error {
		return a.SetPayload(payload)
	})
	defer release()
	res, err := f.Struct()
	if err != nil {
		return "", c.callError(ctx, "echo", err)
	}
	out, err := res.Payload()
	if err != nil {
		return "", opError("echo", err)
	}
	return out, nil
}

// Stats calls stats.
func (c *Client) Stats(ctx context.Context) (contract.Stats, error) {
	if err := c.begin(ctx); err != nil {
		return contract.Stats{}, err
	}
	f, release := c.boot.Stats(ctx, nil)
	defer release()
	res, err := f.Struct()
	if err != nil {
		return contract.Stats{}, c.callError(ctx, "stats", err)
	}
	return contract.Stats{Calls: res.Calls(), LastPayloadLen: res.LastPayloadLen()}, nil
}

// Increment calls increment (one round trip: the ping-pong of the benchmarks).
func (c *Client) Increment(ctx context.Context, n int64) (int64, error) {
	if err := c.begin(ctx); err != nil {
		return 0, err
	}
	f, release := c.boot.Increment(ctx, func(a capnpwire.Wirebench_increment_Params) error {
		a.SetValue(n)
		return nil
	})
	defer release()
	res, err := f.Struct()
	if err != nil {
		return 0, c.callError(ctx, "increment", err)
	}
	return res.Value(), nil
}

// StreamTrades passes a TradeSink to the server and hands each pushed trade to yield,
// decoded into one reused contract.Trade. It returns nil once done(count) arrived and
// the call returned with every trade delivered; the yield error when yield failed
// (the sink then refuses every further push and the call is cancelled, which stops
// the server).
func (c *Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &sink{sinkState: sinkState[contract.Trade]{yield: yield, cancel: cancel}}
	sc := capnpwire.TradeSink_ServerToClient(s)
	defer sc.Release()
	f, release := c.boot.StreamTrades(ctx, func(a capnpwire.Wirebench_streamTrades_Params) error {
		a.SetCount(count)
		return a.SetSink(sc.AddRef()) // the message owns the reference it holds
	})
	_, err := f.Struct()
	release()
	return streamEnd(ctx, c, "streamTrades", &s.sinkState, count, err)
}

// StreamOriginalTrades is StreamTrades for the original's trades, through an
// OriginalTradeSink.
func (c *Client) StreamOriginalTrades(ctx context.Context, count int64, yield func(*contract.OriginalTrade) error) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &originalSink{sinkState: sinkState[contract.OriginalTrade]{yield: yield, cancel: cancel}}
	sc := capnpwire.OriginalTradeSink_ServerToClient(s)
	defer sc.Release()
	f, release := c.boot.StreamOriginalTrades(ctx, func(a capnpwire.Wirebench_streamOriginalTrades_Params) error {
		a.SetCount(count)
		return a.SetSink(sc.AddRef())
	})
	_, err := f.Struct()
	release()
	return streamEnd(ctx, c, "streamOriginalTrades", &s.sinkState, count, err)
}

// streamEnd is the end of a stream call of method that returned err: it waits for a
// push being handled (yield runs in it), lets no later one yield, and says how the
// stream went.
func streamEnd[T any](ctx context.Context, c *Client, method string, s *sinkState[T], count int64, err error) error {
	s.mu.Lock()
	s.finished = true
	yerr, n, done, doneCount := s.err, s.n, s.done, s.doneCount
	s.mu.Unlock()
	switch {
	case yerr != nil:
		return yerr
	case err != nil:
		return c.callError(ctx, method, err)
	case !done || n != count || doneCount != count:
		return fmt.Errorf("capnp %s: stream ended after %d of %d trades (done=%v, count %d)", method, n, count, done, doneCount)
	}
	return nil
}

// errStreamStopped is the push failure the server sees once the receiver stopped.
var errStreamStopped = errors.New("capnp: the receiver stopped the stream")

// sinkState is the client's side of one stream call, shared by both sinks. The rpc
// server behind a sink runs its methods one at a time, in order; mu makes the call
// wait for a push in progress before it returns, so yield is never called after that.
type sinkState[T any] struct {
	yield  func(*T) error
	cancel context.CancelFunc

	mu        sync.Mutex
	t         T     // reused for every trade
	n         int64 // trades delivered
	err       error // the yield's error
	finished  bool  // the stream call returned
	done      bool
	doneCount int64
}

// push hands the n trades of one batch to yield, in order, each decoded by read.
func (s *sinkState[T]) push(n int, read func(i int, t *T) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil || s.finished {
		return errStreamStopped
	}
	for i := range n {
		if err := read(i, &s.t); err != nil {
			s.err = opError("stream: decode trade", err)
			s.cancel()
			return errStreamStopped
		}
		if err := s.yield(&s.t); err != nil {
			s.err = err
			s.cancel() // cancels the stream call: the server stops at once
			return errStreamStopped
		}
		s.n++
	}
	return nil
}

// end records the end of the stream and its count.
func (s *sinkState[T]) end(count int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	s.doneCount = count
	return nil
}

// sink is the client's TradeSink for one StreamTrades call.
type sink struct{ sinkState[contract.Trade] }

// Push hands the trades of one batch to yield, in order.
func (s *sink) Push(_ context.Context, call capnpwire.TradeSink_push) error {
	l, err := call.Args().Trades()
	if err != nil {
		return err
	}
	return s.push(l.Len(), func(i int, t *contract.Trade) error { return capnprpc.ReadTrade(l.At(i), t) })
}

// Done records the end of the stream and its count.
func (s *sink) Done(_ context.Context, call capnpwire.TradeSink_done) error {
	return s.end(call.Args().Count())
}

// originalSink is the client's OriginalTradeSink for one StreamOriginalTrades call.
type originalSink struct {
	sinkState[contract.OriginalTrade]
}

// Push hands the trades of one batch to yield, in order.
func (s *originalSink) Push(_ context.Context, call capnpwire.OriginalTradeSink_push) error {
	l, err := call.Args().Trades()
	if err != nil {
		return err
	}
	return s.push(l.Len(), func(i int, t *contract.OriginalTrade) error { return capnprpc.ReadOriginalTrade(l.At(i), t) })
}

// Done records the end of the stream and its count.
func (s *originalSink) Done(_ context.Context, call capnpwire.OriginalTradeSink_done) error {
	return s.end(call.Args().Count())
}

// Compile-time checks of the capability implementations.
var (
	_ capnpwire.TradeSink_Server         = (*sink)(nil)
	_ capnpwire.OriginalTradeSink_Server = (*originalSink)(nil)
	_ capnpwire.Wirebench_Server         = (*handler)(nil)
)
