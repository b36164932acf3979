package thriftgo

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/thriftwire"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
	"github.com/wirebench/wirebench/protocol/transport"
)

// ErrClosed is wrapped by the errors of calls on a closed client.
var ErrClosed = errors.New("client closed")

// Client is a contract.Service over a pool of Thrift connections, each with the
// generated client over the framed transport and the encoding. It is safe for
// concurrent use. A call takes the most recently used idle connection, or dials a new
// one, and holds it until its answer is read (a Thrift connection carries one call at
// a time), so N calls in flight use N connections; a stream holds one for all its
// pages. A connection goes back to the pool after an answer or a ServiceError; one
// that failed otherwise, or whose call's context ended (which closes it at once, so
// the call returns), is closed. Idle connections are kept, and dropped when idle for
// clientIdleLimit (below the server's idle timeout). Close closes every connection:
// calls in flight fail, and calls after Close fail at once.
type Client struct {
	proto   string
	dial    transport.DialFunc
	conf    *thrift.TConfiguration
	pf      thrift.TProtocolFactory
	compact bool // the encoding: compact, or binary

	mu     sync.Mutex
	closed bool
	idle   []*clientConn // most recently used last
	conns  map[*clientConn]struct{}
}

var _ protocol.Client = (*Client)(nil)

// clientConn is one connection of the pool.
type clientConn struct {
	sock      *thrift.TSocket
	wb        *thriftwire.WirebenchClient
	idleSince time.Time
}

// PageSize is the page size the client asks for in streamTrades.
const PageSize = DefaultPageSize

// NewClient returns a client of the named protocol (thriftrpc.Binary or
// thriftrpc.Compact) to cfg.Address, whose connections all come from cfg.Dial, over TLS
// when cfg.TLS is enabled (the handshake made when a connection is opened), refusing
// answers over cfg.MessageLimit() (plus thriftrpc.EnvelopeSlack). Unless cfg.NoProbe,
// it opens a connection and makes one stats call within ctx, so that a wrong or dead
// target fails here; the connection then stays in the pool. It has no options.
func NewClient(ctx context.Context, proto string, cfg protocol.ClientConfig) (*Client, error) {
	factory, ok := thriftrpc.Encoding(proto)
	if !ok {
		return nil, fmt.Errorf("%s: not a protocol of %s", proto, Name)
	}
	if err := protocol.CheckOptions(Name, cfg.Options); err != nil {
		return nil, err
	}
	if cfg.Dial == nil {
		return nil, fmt.Errorf("%s: ClientConfig.Dial is nil", proto)
	}
	dial := cfg.Dial
	if cfg.TLS.Enabled() {
		tc, err := cfg.TLS.ClientConfig()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", proto, err)
		}
		dial = transport.TLSDialer(dial, cfg.Address, tc)
	}
	conf := thriftrpc.Configuration(cfg.MessageLimit(), 0)
	c := &Client{proto: proto, dial: dial, conf: conf, pf: factory(conf), compact: proto == thriftrpc.Compact,
		conns: map[*clientConn]struct{}{}}
	if !cfg.NoProbe {
		if _, err := c.Stats(ctx); err != nil {
			c.Close()
			return nil, fmt.Errorf("%s: %s does not answer as a Thrift server of %s: %w", proto, cfg.Address, proto, err)
		}
	}
	return c, nil
}

// Close closes every connection; calls in flight fail. It is safe to call more than once.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	conns := c.conns
	c.conns = map[*clientConn]struct{}{}
	c.idle = nil
	c.mu.Unlock()
	for cn := range conns {
		cn.sock.Close()
	}
	return nil
}

// take returns an idle connection, or a new one.
func (c *Client) take(ctx context.Context) (*clientConn, error) {
	var stale []*clientConn
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	var cn *clientConn
	now := time.Now()
	for len(c.idle) > 0 && cn == nil {
		last := c.idle[len(c.idle)-1]
		c.idle = c.idle[:len(c.idle)-1]
		if now.Sub(last.idleSince) < clientIdleLimit {
			cn = last
		} else {
			delete(c.conns, last)
			stale = append(stale, last)
		}
	}
	c.mu.Unlock()
	for _, s := range stale {
		s.sock.Close()
	}
	if cn != nil {
		return cn, nil
	}
	return c.open(ctx)
}

// open dials a new connection of the pool.
func (c *Client) open(ctx context.Context) (*clientConn, error) {
	nc, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	sock := thrift.NewTSocketFromConnConf(nc, c.conf)
	checked := &checkedSocket{TSocket: sock, frames: thriftrpc.NewFrameCheck(c.compact, uint32(c.conf.GetMaxFrameSize()))}
	prot := c.pf.GetProtocol(thrift.NewTFramedTransportConf(checked, c.conf))
	cn := &clientConn{sock: sock, wb: thriftwire.NewWirebenchClient(thrift.NewTStandardClient(prot, prot))}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		sock.Close()
		return nil, ErrClosed
	}
	c.conns[cn] = struct{}{}
	return cn, nil
}

// checkedSocket is a client connection's socket with its answers' frames checked as
// they arrive (thriftrpc.FrameCheck): an answer over the client's limit fails with a
// frame-size error, which thriftrpc.ClientError maps to resource_exhausted.
type checkedSocket struct {
	*thrift.TSocket
	frames thriftrpc.FrameCheck
}

func (s *checkedSocket) Read(p []byte) (int, error) {
	n, err := s.TSocket.Read(p)
	if ferr := s.frames.Check(p[:n]); ferr != nil {
		return 0, thrift.NewTTransportExceptionFromError(ferr)
	}
	return n, err
}

// put returns a connection to the pool.
func (c *Client) put(cn *clientConn) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		cn.sock.Close()
		return
	}
	cn.idleSince = time.Now()
	c.idle = append(c.idle, cn)
	c.mu.Unlock()
}

// drop closes a connection that cannot be used again.
func (c *Client) drop(cn *clientConn) {
	c.mu.Lock()
	delete(c.conns, cn)
	c.mu.Unlock()
	cn.sock.Close()
}

// call is one exchange on a connection of the pool: its context's end closes the
// connection, ending a call blocked on it (the library's calls do not watch the
// context).
type call struct {
	c    *Client
	cn   *clientConn
	ctx  context.Context
	stop func() bool
	op   string
}

// begin takes a connection for a call of op.
func (c *Client) begin(ctx context.Context, op string) (*call, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s %s: %w", c.proto, op, err)
	}
	cn, err := c.take(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", c.proto, op, err)
	}
	sock := cn.sock
	return &call{c: c, cn: cn, ctx: ctx, op: op, stop: context.AfterFunc(ctx, func() { sock.Close() })}, nil
}

// end gives the connection back (after success or a ServiceError) or drops it, and
// returns the call's error as the contract's (thriftrpc.ClientError), or the context's when
// it ended the call.
func (k *call) end(err error) error {
	var se *thriftwire.ServiceError
	switch {
	case !k.stop():
		k.c.drop(k.cn)
		if err != nil && !errors.As(err, &se) {
			return fmt.Errorf("%s %s: %w", k.c.proto, k.op, k.ctx.Err())
		}
	case err == nil || errors.As(err, &se):
		k.c.put(k.cn)
	default:
		k.c.drop(k.cn)
	}
	if err != nil {
		return thriftrpc.ClientError(k.c.proto, k.op, err)
	}
	return nil
}

// answerError is the error of an answer that breaks the contract.
func (c *Client) answerError(op string, err error) error {
	return fmt.Errorf("%s %s: bad answer: %w", c.proto, op, err)
}

func (c *Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	k, err := c.begin(ctx, "listPersons")
	if err != nil {
		return nil, err
	}
	ws, err := k.cn.wb.ListPersons(ctx)
	if err = k.end(err); err != nil {
		return nil, err
	}
	ps, err := thriftrpc.FromWirePersons(ws)
	if err != nil {
		return nil, c.answerError("listPersons", err)
	}
	return ps, nil
}

func (c *Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	k, err := c.begin(ctx, "getPerson")
	if err != nil {
		return contract.Person{}, err
	}
	w, err := k.cn.wb.GetPerson(ctx, id)
	if err = k.end(err); err != nil {
		return contract.Person{}, err
	}
	return thriftrpc.FromWirePerson(w), nil
}

func (c *Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	k, err := c.begin(ctx, "getPersonLinks")
	if err != nil {
		return nil, err
	}
	ws, err := k.cn.wb.GetPersonLinks(ctx, id)
	if err = k.end(err); err != nil {
		return nil, err
	}
	links, err := thriftrpc.FromWireLinks(ws)
	if err != nil {
		return nil, c.answerError("getPersonLinks", err)
	}
	return links, nil
}

func (c *Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	k, err := c.begin(ctx, "createPerson")
	if err != nil {
		return contract.Person{}, err
	}
	w, err := k.cn.wb.CreatePerson(ctx, thriftrpc.ToWirePerson(&p))
	if err = k.end(err); err != nil {
		return contract.Person{}, err
	}
	return thriftrpc.FromWirePerson(w), nil
}

func (c *Client) Echo(ctx context.Context, payload string) (string, error) {
	k, err := c.begin(ctx, "echo")
	if err != nil {
		return "", err
	}
	out, err := k.cn.wb.Echo(ctx, payload)
	if err = k.end(err); err != nil {
		return "", err
	}
	return out, nil
}

func (c *Client) Stats(ctx context.Context) (contract.Stats, error) {
	k, err := c.begin(ctx, "stats")
	if err != nil {
		return contract.Stats{}, err
	}
	st, err := k.cn.wb.Stats(ctx)
	if err = k.end(err); err != nil {
		return contract.Stats{}, err
	}
	return contract.Stats{Calls: st.Calls, LastPayloadLen: st.LastPayloadLen}, nil
}

func (c *Client) Increment(ctx context.Context, n int64) (int64, error) {
	k, err := c.begin(ctx, "increment")
	if err != nil {
		return 0, err
	}
	out, err := k.cn.wb.Increment(ctx, n)
	if err = k.end(err); err != nil {
		return 0, err
	}
	return out, nil
}

// StreamTrades pulls the pages of a stream on one connection and hands their trades
// to yield. When yield fails before the last page, it cancels the stream
// (cancelTrades) and returns yield's error; the connection goes back to the pool
// when that call succeeded. A stream that ends with more or fewer than count trades
// is a bad answer.
func (c *Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	return pull(ctx, c, "streamTrades", "nextTrades", count,
		func(k *call) ([]*thriftwire.Trade, bool, error) {
			p, err := k.cn.wb.StreamTrades(ctx, count, PageSize)
			if err != nil {
				return nil, false, err
			}
			return p.Trades, p.Last, nil
		}, func(k *call) ([]*thriftwire.Trade, bool, error) {
			p, err := k.cn.wb.NextTrades(ctx)
			if err != nil {
				return nil, false, err
			}
			return p.Trades, p.Last, nil
		}, thriftrpc.FromWireTrade, yield)
}

// StreamOriginalTrades is StreamTrades for the original's trades
// (streamOriginalTrades, nextOriginalTrades).
func (c *Client) StreamOriginalTrades(ctx context.Context, count int64, yield func(*contract.OriginalTrade) error) error {
	return pull(ctx, c, "streamOriginalTrades", "nextOriginalTrades", count,
		func(k *call) ([]*thriftwire.OriginalTrade, bool, error) {
			p, err := k.cn.wb.StreamOriginalTrades(ctx, count, PageSize)
			if err != nil {
				return nil, false, err
			}
			return p.Trades, p.Last, nil
		}, func(k *call) ([]*thriftwire.OriginalTrade, bool, error) {
			p, err := k.cn.wb.NextOriginalTrades(ctx)
			if err != nil {
				return nil, false, err
			}
			return p.Trades, p.Last, nil
		}, thriftrpc.FromWireOriginalTrade, yield)
}

// pull runs a paged stream: first starts it (the call start) and returns its first
// page's trades and whether it is the last, next returns each next page (the call
// nextOp); each trade is converted by conv into one reused T and handed to yield.
func pull[W, T any](ctx context.Context, c *Client, start, nextOp string, count int64,
	first, next func(*call) ([]*W, bool, error), conv func(*W, *T) error, yield func(*T) error) error {
	k, err := c.begin(ctx, start)
	if err != nil {
		return err
	}
	trades, last, err := first(k)
	var t T
	var n int64
	for err == nil {
		for _, w := range trades {
			if n++; n > count {
				k.end(errors.New("stream overran"))
				return c.answerError(start, fmt.Errorf("more than the %d trades asked for", count))
			}
			if err := conv(w, &t); err != nil {
				k.end(err)
				return c.answerError(start, err)
			}
			if yerr := yield(&t); yerr != nil {
				if !last {
					k.op = "cancelTrades"
					err = k.cn.wb.CancelTrades(ctx)
				}
				k.end(err)
				return yerr
			}
		}
		if last {
			if err := k.end(nil); err != nil {
				return err
			}
			if n != count {
				return c.answerError(start, fmt.Errorf("the stream ended after %d of %d trades", n, count))
			}
			return nil
		}
		k.op = nextOp
		trades, last, err = next(k)
	}
	return k.end(err)
}
