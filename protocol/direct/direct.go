// Package direct is the in-process protocol: the client calls the server's
// contract.Service as a Go method call, with no encoding and no wire. It is the floor
// that every other protocol's figures are read against.
//
// Unlike the other protocols, its one stack, go-call, lives here too: with no wire
// there is no mapping for stacks to share, and the method call is the whole protocol,
// so a stack package of its own would leave this one a name and nothing else.
package direct

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
)

// Name is the registry name of this protocol.
const Name = "direct"

// StackName is the stack of this package: the Go method call.
const StackName = "go-call"

func init() {
	protocol.Register(&protocol.Protocol{
		Name:          Name,
		Summary:       "in-process Go call of the service: no encoding, no wire (the floor)",
		InProcess:     true,
		DefaultClient: StackName,
		NoMessages:    "an in-process call encodes nothing: an echo of your message would measure no wire mapping, so it is not offered",
	})
	protocol.RegisterStack(&protocol.Stack{
		Name: StackName, Protocol: Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "a Go method call of the reference service",
		Libraries: protocol.GoLibraries(),
		Sides:     protocol.ClientSide, OriginalTrades: true,
		NewClient: func(_ context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
			if cfg.Local == nil {
				return nil, errors.New("direct: needs a local service (it cannot reach a remote target)")
			}
			if err := protocol.CheckOptions(Name, cfg.Options); err != nil {
				return nil, err
			}
			return &Client{svc: cfg.Local}, nil
		},
	})
}

// ErrClosed is returned by calls on a closed Client.
var ErrClosed = errors.New("direct: client closed")

// Client calls a contract.Service in-process. It is safe for concurrent use.
type Client struct {
	svc    contract.Service
	closed atomic.Bool
}

var _ protocol.Client = (*Client)(nil)

func (c *Client) Close() error { c.closed.Store(true); return nil }

func (c *Client) check(ctx context.Context) error {
	if c.closed.Load() {
		return ErrClosed
	}
	return ctx.Err()
}

func (c *Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	if err := c.check(ctx); err != nil {
		return nil, err
	}
	return c.svc.ListPersons(ctx)
}

func (c *Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	if err := c.check(ctx); err != nil {
		return contract.Person{}, err
	}
	return c.svc.GetPerson(ctx, id)
}

func (c *Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	if err := c.check(ctx); err != nil {
		return nil, err
	}
	return c.svc.GetPersonLinks(ctx, id)
}

func (c *Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	if err := c.check(ctx); err != nil {
		return contract.Person{}, err
	}
	return c.svc.CreatePerson(ctx, p)
}

func (c *Client) Echo(ctx context.Context, payload string) (string, error) {
	if err := c.check(ctx); err != nil {
		return "", err
	}
	return c.svc.Echo(ctx, payload)
}

func (c *Client) Stats(ctx context.Context) (contract.Stats, error) {
	if err := c.check(ctx); err != nil {
		return contract.Stats{}, err
	}
	return c.svc.Stats(ctx)
}

func (c *Client) Increment(ctx context.Context, n int64) (int64, error) {
	if err := c.check(ctx); err != nil {
		return 0, err
	}
	return c.svc.Increment(ctx, n)
}

func (c *Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	if err := c.check(ctx); err != nil {
		return err
	}
	return c.svc.StreamTrades(ctx, count, yield)
}

func (c *Client) StreamOriginalTrades(ctx context.Context, count int64, yield func(*contract.OriginalTrade) error) error {
	if err := c.check(ctx); err != nil {
		return err
	}
	return c.svc.StreamOriginalTrades(ctx, count, yield)
}
