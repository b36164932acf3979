package instrument

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/answers"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/internal/grpcx"
)

// codec is what differs between the gRPC protocols: the content type and the
// message encoding (grpcproto's and grpcavro's WireCodec and Decode functions).
type codec struct {
	contentType   string
	scratch       func() scratch
	decodePerson  func([]byte) (contract.Person, error)
	decodePersons func([]byte) ([]contract.Person, error)
	decodeLinks   func([]byte) ([]contract.PersonLink, error)
	decodeEcho    func([]byte) (string, error)
}

// scratch encodes requests and decodes the answers that are decoded every time into
// messages it reuses; each stream has its own.
type scratch interface {
	AppendPersonID(b []byte, id int64) ([]byte, error)
	AppendNumber(b []byte, n int64) ([]byte, error)
	AppendTradesRequest(b []byte, count int64) ([]byte, error)
	AppendPerson(b []byte, p *contract.Person) ([]byte, error)
	AppendEcho(b []byte, payload string) ([]byte, error)
	DecodeNumber(b []byte) (int64, error)
	DecodeStats(b []byte) (contract.Stats, error)
	DecodeTrade(b []byte, t *contract.Trade) error
}

// Bounds of the answers a client remembers: a slot per id up to answerSlots, and
// answerBudget bytes of answers per operation (internal/answers).
const (
	answerSlots  = 4096
	echoSlots    = 64
	answerBudget = 32 << 20
)

// h2Client is a contract.Service over one HTTP/2 connection at a time, framing gRPC
// (or, with a wire, plain HTTP requests: h2http.go) itself. It is safe for
// concurrent use: calls are streams of the connection. When
// the connection fails, is sent GOAWAY or has used its stream ids, the next call
// dials a new one. Close closes the connections; calls in flight then fail, and
// later calls fail at once with an error wrapping grpcx.ErrClosed.
type h2Client struct {
	proto     string
	codec     *codec
	wire      *httpWire // nil: gRPC; else the HTTP mapping of the calls (h2http.go)
	dial      transport.DialFunc
	target    transport.Addr
	authority string
	scheme    string // of the requests: https over TLS
	limit     int

	cur    atomic.Pointer[h2conn]
	closed atomic.Bool
	mu     sync.Mutex // dialing; conns
	conns  []*h2conn  // every connection not yet closed, for Close

	fmu  sync.Mutex
	free []*stream

	persons *answers.Table[[]contract.Person]
	byID    *answers.Table[contract.Person]
	links   *answers.Table[[]contract.PersonLink]
	echoes  *answers.Table[string]
}

var _ protocol.Client = (*h2Client)(nil)

func newGRPCClient(ctx context.Context, cfg protocol.ClientConfig, proto string, cd *codec) (*h2Client, error) {
	return newH2Client(ctx, cfg, proto, cd, nil)
}

// newH2Client returns a client of proto that frames gRPC (wire nil) or wire's HTTP
// mapping, and opens its first connection within ctx.
func newH2Client(ctx context.Context, cfg protocol.ClientConfig, proto string, cd *codec, wire *httpWire) (*h2Client, error) {
	if err := protocol.CheckOptions(proto, cfg.Options); err != nil {
		return nil, err // the instrument has no options: it sets what it needs
	}
	dial := cfg.Dial
	if dial == nil {
		if cfg.Address.Network == "" {
			return nil, fmt.Errorf("%s: ClientConfig needs a Target or a Dial", proto)
		}
		dial = transport.Dialer(cfg.Address, nil)
	}
	authority := "localhost" // a Unix socket's path is no host name
	if cfg.Address.Network == "tcp" && cfg.Address.Address != "" {
		authority = cfg.Address.Address
	}
	scheme := "http"
	if cfg.TLS.Enabled() {
		tc, err := cfg.TLS.ClientConfig("h2")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", proto, err)
		}
		dial, scheme = transport.TLSDialer(dial, cfg.Address, tc), "https"
	}
	c := &h2Client{proto: proto, codec: cd, wire: wire, dial: dial, target: cfg.Address, authority: authority, scheme: scheme, limit: cfg.MessageLimit(),
		persons: answers.New[[]contract.Person](1, answerBudget),
		byID:    answers.New[contract.Person](answerSlots, answerBudget),
		links:   answers.New[[]contract.PersonLink](answerSlots, answerBudget),
		echoes:  answers.New[string](echoSlots, answerBudget),
	}
	if _, err := c.conn(ctx); err != nil {
		return nil, fmt.Errorf("%s: connect to %s: %w", proto, cfg.Address, err)
	}
	return c, nil
}

// conn returns the current connection, dialing a new one when it takes no new calls.
func (c *h2Client) conn(ctx context.Context) (*h2conn, error) {
	if cn := c.cur.Load(); cn != nil && cn.usable.Load() {
		return cn, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed.Load() {
		return nil, grpcx.ErrClosed
	}
	if cn := c.cur.Load(); cn != nil && cn.usable.Load() {
		return cn, nil
	}
	cn, err := dialConn(ctx, c)
	if err != nil {
		return nil, err
	}
	live := c.conns[:0]
	for _, o := range c.conns {
		if !o.closedOrIdle() {
			live = append(live, o)
		}
	}
	c.conns = append(live, cn)
	c.cur.Store(cn)
	return cn, nil
}

// Close closes every connection. It is safe to call more than once.
func (c *h2Client) Close() error {
	c.mu.Lock()
	c.closed.Store(true)
	conns := c.conns
	c.conns = nil
	c.mu.Unlock()
	for _, cn := range conns {
		cn.close()
	}
	return nil
}

// stream returns a stream from the free list, or a new one.
func (c *h2Client) stream() *stream {
	c.fmu.Lock()
	if n := len(c.free); n > 0 {
		st := c.free[n-1]
		c.free = c.free[:n-1]
		c.fmu.Unlock()
		return st
	}
	c.fmu.Unlock()
	return &stream{wake: make(chan struct{}, 1), codec: c.codec.scratch(), grpcStatus: noStatus}
}

// release puts a stream whose call is over back on the free list, and closes its
// connection if it was retired and this was its last call.
func (c *h2Client) release(cn *h2conn, st *stream) {
	st.reset()
	c.fmu.Lock()
	c.free = append(c.free, st)
	c.fmu.Unlock()
	if cn != nil && !cn.usable.Load() {
		cn.closeIfIdle()
	}
}

// args are a request's parameters; encoder appends the request message made of them.
type args struct {
	n int64
	s string
	p *contract.Person
}

type encoder func(w scratch, b []byte, a args) ([]byte, error)

func encPersonID(w scratch, b []byte, a args) ([]byte, error) { return w.AppendPersonID(b, a.n) }
func encNumber(w scratch, b []byte, a args) ([]byte, error)   { return w.AppendNumber(b, a.n) }
func encTradesRequest(w scratch, b []byte, a args) ([]byte, error) {
	return w.AppendTradesRequest(b, a.n)
}
func encPerson(w scratch, b []byte, a args) ([]byte, error) { return w.AppendPerson(b, a.p) }
func encEcho(w scratch, b []byte, a args) ([]byte, error)   { return w.AppendEcho(b, a.s) }

// encEmpty is ListPersonsRequest's and StatsRequest's encoding: a message without
// fields is no bytes in protobuf and Avro alike.
func encEmpty(_ scratch, b []byte, _ args) ([]byte, error) { return b, nil }

// decoding says how a unary answer is decoded: into the stream's reused messages
// (reused), or into fresh ones (fresh), then remembered in table under key (a nil
// table remembers nothing).
type decoding[T any] struct {
	table  *answers.Table[T]
	key    uint64
	fresh  func([]byte) (T, error)
	reused func(scratch, []byte) (T, error)
}

func (d decoding[T]) decode(w scratch, b []byte) (T, error) {
	if d.reused != nil {
		return d.reused(w, b)
	}
	return answers.Get(d.table, d.key, b, d.fresh)
}

func decNumber(w scratch, b []byte) (int64, error)         { return w.DecodeNumber(b) }
func decStats(w scratch, b []byte) (contract.Stats, error) { return w.DecodeStats(b) }

// start opens a stream for a call of m and sends its request.
func (c *h2Client) start(ctx context.Context, m *method, enc encoder, a args, streaming bool) (*h2conn, *stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, status.FromContextError(err).Err()
	}
	st := c.stream()
	st.streaming = streaming
	var (
		msg []byte
		err error
	)
	if c.wire == nil || c.wire.routes[m.index].body {
		msg, err = enc(st.codec, st.req[:0], a)
		st.req = msg
		if c.wire != nil && err == nil {
			if len(msg) == 0 && !streaming {
				msg = append(msg, c.wire.empty...)
			}
			if msg == nil {
				msg = []byte{} // a body of no bytes is still a body
			}
		}
	}
	if err != nil {
		c.release(nil, st)
		return nil, nil, status.Errorf(codes.Internal, "grpc: error while marshaling: %v", err)
	}
	for attempt := 0; ; attempt++ {
		cn, err := c.conn(ctx)
		if err != nil {
			c.release(nil, st)
			return nil, nil, err
		}
		if c.wire != nil {
			err = cn.openRequest(ctx, st, c.wire, m, a.n, msg, streaming)
		} else {
			err = cn.openStream(ctx, st, m, msg)
		}
		if errors.Is(err, errRetire) && attempt < 2 {
			continue // it stopped taking calls meanwhile: the next try dials another
		}
		if err != nil {
			c.release(cn, st)
			return nil, nil, err
		}
		return cn, st, nil
	}
}

// unary makes a unary call of m and decodes its answer.
func unary[T any](c *h2Client, ctx context.Context, m *method, enc encoder, a args, d decoding[T]) (T, error) {
	var v T
	cn, st, err := c.start(ctx, m, enc, a, false)
	if err != nil {
		return v, c.fail(ctx, m.name, err)
	}
	if err = cn.await(ctx, st); err == nil {
		var body []byte
		if c.wire != nil {
			body, err = c.wire.answer(st)
		} else {
			body, err = st.message(c.limit)
		}
		if err == nil {
			if v, err = d.decode(st.codec, body); err != nil {
				err = status.Errorf(codes.Internal, "grpc: failed to unmarshal the received message: %v", err)
			}
		}
	}
	c.release(cn, st)
	if err != nil {
		var zero T
		return zero, c.fail(ctx, m.name, err)
	}
	return v, nil
}

// fail maps the failure of a call as the grpc-go clients do (grpcx), wrapping
// grpcx.ErrClosed once the client is closed.
func (c *h2Client) fail(ctx context.Context, op string, err error) error {
	if c.closed.Load() {
		return fmt.Errorf("%s %s: %w (%v)", c.proto, op, grpcx.ErrClosed, err)
	}
	return grpcx.ClientError(ctx, c.proto, op, err)
}

// ListPersons calls PersonService/ListPersons.
func (c *h2Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	return unary(c, ctx, &mListPersons, encEmpty, args{}, decoding[[]contract.Person]{table: c.persons, fresh: c.codec.decodePersons})
}

// GetPerson calls PersonService/GetPerson; an unknown id fails with Code NotFound.
func (c *h2Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	return unary(c, ctx, &mGetPerson, encPersonID, args{n: id}, decoding[contract.Person]{table: c.byID, key: uint64(id), fresh: c.codec.decodePerson})
}

// GetPersonLinks calls PersonService/GetPersonLinks; an unknown id fails with Code
// NotFound.
func (c *h2Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	return unary(c, ctx, &mGetPersonLinks, encPersonID, args{n: id}, decoding[[]contract.PersonLink]{table: c.links, key: uint64(id), fresh: c.codec.decodeLinks})
}

// CreatePerson calls PersonService/CreatePerson, whose answer (a new id each time) is
// decoded every time.
func (c *h2Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	return unary(c, ctx, &mCreatePerson, encPerson, args{p: &p}, decoding[contract.Person]{fresh: c.codec.decodePerson})
}

// Echo calls EchoService/Echo.
func (c *h2Client) Echo(ctx context.Context, payload string) (string, error) {
	return unary(c, ctx, &mEcho, encEcho, args{s: payload}, decoding[string]{table: c.echoes, key: c.echoes.Key(payload), fresh: c.codec.decodeEcho})
}

// Stats calls EchoService/Stats (decoded every time).
func (c *h2Client) Stats(ctx context.Context) (contract.Stats, error) {
	return unary(c, ctx, &mStats, encEmpty, args{}, decoding[contract.Stats]{reused: decStats})
}

// Increment calls EchoService/Increment (decoded every time).
func (c *h2Client) Increment(ctx context.Context, n int64) (int64, error) {
	return unary(c, ctx, &mIncrement, encNumber, args{n: n}, decoding[int64]{reused: decNumber})
}

// StreamTrades calls TradeService/StreamTrades and hands each trade, decoded into one
// reused contract.Trade, to yield. When yield fails, the stream is reset (the server
// stops) and the yield's error is returned as it is. A stream with more or fewer
// than count trades is an error.
func (c *h2Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	cn, st, err := c.start(ctx, &mStreamTrades, encTradesRequest, args{n: count}, true)
	if err != nil {
		return c.fail(ctx, mStreamTrades.name, err)
	}
	var yerr error
	if c.wire != nil {
		yerr, err = c.httpTrades(ctx, cn, st, count, yield)
	} else {
		yerr, err = c.trades(ctx, cn, st, count, yield)
	}
	c.release(cn, st)
	switch {
	case yerr != nil:
		return yerr
	case err != nil:
		return c.fail(ctx, mStreamTrades.name, err)
	}
	return nil
}

// trades reads the trade messages of stream st as they come. It returns yield's
// error in yerr, any other failure in err.
func (c *h2Client) trades(ctx context.Context, cn *h2conn, st *stream, count int64, yield func(*contract.Trade) error) (yerr, err error) {
	var (
		t contract.Trade
		n int64
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
		off := 0
		for {
			body, used, err := nextMessage(st.msg[off:], c.limit)
			if err != nil {
				return nil, stop(err)
			}
			if body == nil {
				break
			}
			off += used
			if n == count {
				return nil, stop(fmt.Errorf("the server sent more than the %d trades asked for", count))
			}
			if err := st.codec.DecodeTrade(body, &t); err != nil {
				return nil, stop(status.Errorf(codes.Internal, "grpc: failed to unmarshal the received message: %v", err))
			}
			if err := yield(&t); err != nil {
				return stop(err), nil
			}
			n++
		}
		st.msg = st.msg[:copy(st.msg, st.msg[off:])]
		if !ended {
			continue
		}
		switch {
		case st.failure() != nil:
			return nil, st.failure()
		case len(st.msg) > 0:
			return nil, status.Errorf(codes.Internal, "the stream ended inside a message (%d bytes left)", len(st.msg))
		case n != count:
			return nil, fmt.Errorf("the stream ended after %d of %d trades", n, count)
		}
		return nil, nil
	}
}

// StreamOriginalTrades refuses: the instrumented stacks do not carry the original
// trade shape (their Stack.OriginalTrades is false).
func (c *h2Client) StreamOriginalTrades(context.Context, int64, func(*contract.OriginalTrade) error) error {
	return contract.NotCarried(Name)
}
