package outside

import (
	"context"
	"errors"
	"fmt"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
)

// Client makes one outside call (spec.Call) per Call, over one connection (or, for
// HTTP/1.1, the pool of one http.Client). It is safe for concurrent use. It is a
// contract.Service only so that the engine can run it: every operation of the
// contract fails, and the workload "call" calls Call.
type Client struct {
	notContract
	call  func(ctx context.Context, seq uint64) error
	close func() error
}

var (
	_ contract.Caller = (*Client)(nil)
	_ protocol.Client = (*Client)(nil)
)

// Call makes the op seq (contract.Caller).
func (c *Client) Call(ctx context.Context, seq uint64) error { return c.call(ctx, seq) }

// Close releases the client's connections.
func (c *Client) Close() error { return c.close() }

// NewClient connects a client of call over protocol proto (grpc-proto, connect-proto,
// connect-json or grpc-web for an RPC; http-json for an HTTP call) to cfg.Address,
// through cfg.Dial (so that bytes are counted) and with cfg.TLS. A gRPC client waits,
// within ctx, until its connection is up, so a dead target fails here; the others
// connect on their first call (the worker's check before a run makes one).
func NewClient(ctx context.Context, proto string, call *spec.Call, cfg protocol.ClientConfig) (*Client, error) {
	if err := call.Validate(); err != nil {
		return nil, err
	}
	expect, err := parseExpect(call.Expect)
	if err != nil {
		return nil, err
	}
	if call.Kind == spec.CallHTTP {
		return newHTTPClient(ctx, call, expect, cfg)
	}
	md, err := MethodOf(call.Schema, call.Method)
	if err != nil {
		return nil, err
	}
	reqs, err := Requests(md, call.Data)
	if err != nil {
		return nil, err
	}
	r := &rpc{md: md, reqs: reqs, expect: expect}
	switch proto {
	case "grpc-proto":
		return newGRPCClient(ctx, r, call, cfg)
	case "connect-proto", "connect-json", "grpc-web":
		return newConnectClient(ctx, proto, r, call, cfg)
	}
	return nil, fmt.Errorf("an outside method is called over grpc-proto, connect-proto, connect-json or grpc-web, not %s", proto)
}

// errNotContract is what a contract operation of an outside call's client returns.
var errNotContract = errors.New("an outside call's client serves no contract operation")

// notContract fails every contract operation.
type notContract struct{}

func (notContract) ListPersons(context.Context) ([]contract.Person, error) {
	return nil, errNotContract
}
func (notContract) GetPerson(context.Context, int64) (contract.Person, error) {
	return contract.Person{}, errNotContract
}
func (notContract) GetPersonLinks(context.Context, int64) ([]contract.PersonLink, error) {
	return nil, errNotContract
}
func (notContract) CreatePerson(context.Context, contract.Person) (contract.Person, error) {
	return contract.Person{}, errNotContract
}
func (notContract) Echo(context.Context, string) (string, error) { return "", errNotContract }
func (notContract) Stats(context.Context) (contract.Stats, error) {
	return contract.Stats{}, errNotContract
}
func (notContract) Increment(context.Context, int64) (int64, error) { return 0, errNotContract }
func (notContract) StreamTrades(context.Context, int64, func(*contract.Trade) error) error {
	return errNotContract
}
func (notContract) StreamOriginalTrades(context.Context, int64, func(*contract.OriginalTrade) error) error {
	return errNotContract
}
