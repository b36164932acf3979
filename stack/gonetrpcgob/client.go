package gonetrpcgob

import (
	"context"
	"errors"
	"fmt"
	"net/rpc"
	"sync/atomic"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/netrpcgob"
	"github.com/wirebench/wirebench/protocol/transport"
)

// Client is a contract.Service over one net/rpc connection. It is safe for concurrent
// use by many goroutines: net/rpc multiplexes their calls on the connection, matched
// by sequence number. Close releases the connection; calls after Close, or after the
// connection died, fail at once. A Client does not reconnect (rpc.Client does not):
// once its connection is gone, make a new one.
type Client struct {
	rc     *rpc.Client
	codec  *clientCodec
	closed atomic.Bool
}

var _ protocol.Client = (*Client)(nil)

// ErrClosed is returned by calls on a closed Client.
var ErrClosed = errors.New("netrpc-gob: client closed")

// NewClient opens one connection through cfg.Dial (with the TLS handshake when
// cfg.TLS is set) within ctx. An answer message over cfg.MessageLimit() plus
// netrpcgob.Envelope bytes is refused. The client has no options.
func NewClient(ctx context.Context, cfg protocol.ClientConfig) (*Client, error) {
	if err := protocol.CheckOptions(netrpcgob.Name, cfg.Options); err != nil {
		return nil, err
	}
	if cfg.Dial == nil {
		return nil, errors.New("netrpc-gob: ClientConfig.Dial is nil")
	}
	dial := cfg.Dial
	if cfg.TLS.Enabled() {
		tc, err := cfg.TLS.ClientConfig()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", netrpcgob.Name, err)
		}
		dial = transport.TLSDialer(dial, cfg.Address, tc)
	}
	nc, err := dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("netrpc-gob: dial %s: %w", cfg.Address, err)
	}
	codec := &clientCodec{newGobConn(nc, cfg.MessageLimit()+netrpcgob.Envelope)}
	return &Client{rc: rpc.NewClientWithCodec(codec), codec: codec}, nil
}

// Close closes the connection; calls in flight fail. A second Close does nothing.
func (c *Client) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	err := c.rc.Close()
	if errors.Is(err, rpc.ErrShutdown) {
		return nil // the connection had already died
	}
	return err
}

// call makes one call and waits for its answer or for ctx to end; a call whose
// context ends is left to net/rpc, which decodes its answer into reply when it comes
// (net/rpc cannot cancel a call), so after an error the caller must not read reply.
func (c *Client) call(ctx context.Context, method string, args, reply any) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	call := c.rc.Go(method, args, reply, make(chan *rpc.Call, 1))
	select {
	case <-call.Done:
		return c.callError(call.Error)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// callError maps a failed call to the contract: a server's error that carries a
// contract code becomes that *contract.Error; every failure on a connection that
// met an answer over the limit is resource_exhausted (net/rpc ends every call in
// flight on it with the codec's error as text).
func (c *Client) callError(err error) error {
	if err == nil {
		return nil
	}
	var se rpc.ServerError
	if errors.As(err, &se) {
		if ce := protocol.ReasonError(string(se)); ce != nil {
			return ce
		}
		return fmt.Errorf("netrpc-gob: the server failed the call: %w", err)
	}
	if over := c.codec.in.Over(); over != nil {
		return contract.Errorf(contract.ResourceExhausted, "answer: %v", over)
	}
	if c.closed.Load() {
		return ErrClosed
	}
	return fmt.Errorf("netrpc-gob: %w", err)
}

func (c *Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	var reply netrpcgob.Persons
	if err := c.call(ctx, netrpcgob.ListPersons, netrpcgob.Empty{}, &reply); err != nil {
		return nil, err
	}
	return reply.Persons, nil
}

func (c *Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	var reply contract.Person
	if err := c.call(ctx, netrpcgob.GetPerson, id, &reply); err != nil {
		return contract.Person{}, err
	}
	return reply, nil
}

func (c *Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	var reply netrpcgob.Links
	if err := c.call(ctx, netrpcgob.GetPersonLinks, id, &reply); err != nil {
		return nil, err
	}
	return reply.Links, nil
}

func (c *Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	var reply contract.Person
	if err := c.call(ctx, netrpcgob.CreatePerson, p, &reply); err != nil {
		return contract.Person{}, err
	}
	return reply, nil
}

func (c *Client) Echo(ctx context.Context, payload string) (string, error) {
	var reply string
	if err := c.call(ctx, netrpcgob.Echo, payload, &reply); err != nil {
		return "", err
	}
	return reply, nil
}

func (c *Client) Stats(ctx context.Context) (contract.Stats, error) {
	var reply contract.Stats
	if err := c.call(ctx, netrpcgob.Stats, netrpcgob.Empty{}, &reply); err != nil {
		return contract.Stats{}, err
	}
	return reply, nil
}

func (c *Client) Increment(ctx context.Context, n int64) (int64, error) {
	var reply int64
	if err := c.call(ctx, netrpcgob.Increment, n, &reply); err != nil {
		return 0, err
	}
	return reply, nil
}

// StreamTrades pulls the stream's pages of netrpcgob.DefaultPageSize trades, one call
// each. When yield fails, or ctx ends between pages, it cancels the stream on the
// server without waiting for the answer.
func (c *Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	page := new(netrpcgob.TradePage)
	if err := c.call(ctx, netrpcgob.StreamTrades, netrpcgob.StreamArgs{Count: count, PageSize: netrpcgob.DefaultPageSize}, page); err != nil {
		return err
	}
	id := page.Stream
	for {
		for i := range page.Trades {
			if err := yield(&page.Trades[i]); err != nil {
				c.cancelStream(id)
				return err
			}
		}
		if page.Last {
			return nil
		}
		// A new page each time: the answer of a call abandoned by its context may
		// still be decoded into the old one.
		page = new(netrpcgob.TradePage)
		if err := c.call(ctx, netrpcgob.NextTrades, id, page); err != nil {
			if ctx.Err() != nil {
				c.cancelStream(id)
			}
			return err
		}
	}
}

// cancelStream asks the server to end a stream, without waiting for its answer.
func (c *Client) cancelStream(id uint64) {
	if !c.closed.Load() {
		c.rc.Go(netrpcgob.CancelTrades, id, new(netrpcgob.Empty), make(chan *rpc.Call, 1))
	}
}

// StreamOriginalTrades refuses: netrpc-gob does not carry the original's trade.
func (c *Client) StreamOriginalTrades(context.Context, int64, func(*contract.OriginalTrade) error) error {
	return contract.NotCarried(Name)
}
