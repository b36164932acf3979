package protocol

import (
	"context"
	"fmt"

	"github.com/wirebench/wirebench/contract"
)

// PerCall returns a contract.Service each of whose calls is made by a new client of
// stack s for cfg, closed once the call returns: every call pays for opening a
// connection (TCP, the TLS handshake over the "tls" transport, the protocol's own
// setup such as HTTP/2's preface and settings or Cap'n Proto's bootstrap) and closing
// it, as a short-lived client or HTTP/1.1 without keep-alive does. It is for
// workloads with contract.Workload.NewConnection. It is safe for concurrent use.
func PerCall(s *Stack, cfg ClientConfig) contract.Service {
	cfg.NoProbe = true
	return &perCall{stack: s, cfg: cfg}
}

type perCall struct {
	stack *Stack
	cfg   ClientConfig
}

var _ contract.Service = (*perCall)(nil)

// call makes f's call on a new client, closing it after.
func call[T any](ctx context.Context, p *perCall, f func(Client) (T, error)) (T, error) {
	c, err := p.stack.NewClient(ctx, p.cfg)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s: new connection to %s: %w", p.stack.Protocol, p.cfg.Address, err)
	}
	defer c.Close()
	return f(c)
}

func (p *perCall) ListPersons(ctx context.Context) ([]contract.Person, error) {
	return call(ctx, p, func(c Client) ([]contract.Person, error) { return c.ListPersons(ctx) })
}

func (p *perCall) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	return call(ctx, p, func(c Client) (contract.Person, error) { return c.GetPerson(ctx, id) })
}

func (p *perCall) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	return call(ctx, p, func(c Client) ([]contract.PersonLink, error) { return c.GetPersonLinks(ctx, id) })
}

func (p *perCall) CreatePerson(ctx context.Context, person contract.Person) (contract.Person, error) {
	return call(ctx, p, func(c Client) (contract.Person, error) { return c.CreatePerson(ctx, person) })
}

func (p *perCall) Echo(ctx context.Context, payload string) (string, error) {
	return call(ctx, p, func(c Client) (string, error) { return c.Echo(ctx, payload) })
}

func (p *perCall) Stats(ctx context.Context) (contract.Stats, error) {
	return call(ctx, p, func(c Client) (contract.Stats, error) { return c.Stats(ctx) })
}

func (p *perCall) Increment(ctx context.Context, n int64) (int64, error) {
	return call(ctx, p, func(c Client) (int64, error) { return c.Increment(ctx, n) })
}

func (p *perCall) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	_, err := call(ctx, p, func(c Client) (struct{}, error) { return struct{}{}, c.StreamTrades(ctx, count, yield) })
	return err
}

func (p *perCall) StreamOriginalTrades(ctx context.Context, count int64, yield func(*contract.OriginalTrade) error) error {
	_, err := call(ctx, p, func(c Client) (struct{}, error) {
		return struct{}{}, c.StreamOriginalTrades(ctx, count, yield)
	})
	return err
}
