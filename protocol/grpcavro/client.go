package grpcavro

import (
	"context"
	"errors"
	"io"

	"google.golang.org/grpc"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
	"github.com/wirebench/wirebench/internal/grpcx"
	"github.com/wirebench/wirebench/protocol"
)

// Client is a contract.Service over one gRPC connection (one HTTP/2 connection) with
// Avro bodies: every call carries content-subtype "avro". It is safe for concurrent
// use by many goroutines. Close releases the connection; calls after Close fail at
// once.
type Client struct {
	conn *grpcx.Conn
}

var _ protocol.Client = (*Client)(nil)

// NewClient connects to cfg.Target through cfg.Dial and waits until the connection is
// ready, within ctx. cfg.Options takes the options of grpcx.ClientOptionNames.
func NewClient(ctx context.Context, cfg protocol.ClientConfig) (*Client, error) {
	conn, err := grpcx.Dial(ctx, Name, cfg, grpc.WithDefaultCallOptions(grpc.CallContentSubtype(CodecName)))
	if err != nil {
		return nil, err
	}
	return &Client{conn: conn}, nil
}

// Close closes the connection. It is safe to call more than once.
func (c *Client) Close() error { return c.conn.Close() }

// invoke makes the unary call at path and maps its failure.
func (c *Client) invoke(ctx context.Context, path, op string, in, out avrowire.Message) error {
	if err := c.conn.Invoke(ctx, path, in, out); err != nil {
		return c.conn.Err(ctx, op, err)
	}
	return nil
}

// ListPersons calls PersonService/ListPersons.
func (c *Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	var out avrowire.PersonList
	if err := c.invoke(ctx, methodListPersons, "ListPersons", &avrowire.ListPersonsRequest{}, &out); err != nil {
		return nil, err
	}
	return fromWirePersons(&out), nil
}

// GetPerson calls PersonService/GetPerson; an unknown id fails with Code NotFound.
func (c *Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	var out avrowire.Person
	if err := c.invoke(ctx, methodGetPerson, "GetPerson", &avrowire.PersonID{ID: id}, &out); err != nil {
		return contract.Person{}, err
	}
	var p contract.Person
	fromWirePerson(&out, &p)
	return p, nil
}

// GetPersonLinks calls PersonService/GetPersonLinks; an unknown id fails with Code
// NotFound.
func (c *Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	var out avrowire.PersonLinkList
	if err := c.invoke(ctx, methodGetPersonLinks, "GetPersonLinks", &avrowire.PersonID{ID: id}, &out); err != nil {
		return nil, err
	}
	return fromWireLinks(&out), nil
}

// CreatePerson calls PersonService/CreatePerson; a bad person fails with Code
// InvalidArgument.
func (c *Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	var in, out avrowire.Person
	toWirePerson(&p, &in)
	if err := c.invoke(ctx, methodCreatePerson, "CreatePerson", &in, &out); err != nil {
		return contract.Person{}, err
	}
	var created contract.Person
	fromWirePerson(&out, &created)
	return created, nil
}

// Echo calls EchoService/Echo.
func (c *Client) Echo(ctx context.Context, payload string) (string, error) {
	var out avrowire.EchoMessage
	if err := c.invoke(ctx, methodEcho, "Echo", &avrowire.EchoMessage{Payload: payload}, &out); err != nil {
		return "", err
	}
	return out.Payload, nil
}

// Stats calls EchoService/Stats.
func (c *Client) Stats(ctx context.Context) (contract.Stats, error) {
	var out avrowire.StatsReply
	if err := c.invoke(ctx, methodStats, "Stats", &avrowire.StatsRequest{}, &out); err != nil {
		return contract.Stats{}, err
	}
	return contract.Stats{Calls: out.Calls, LastPayloadLen: out.LastPayloadLen}, nil
}

// Increment calls EchoService/Increment (one round trip: the ping-pong).
func (c *Client) Increment(ctx context.Context, n int64) (int64, error) {
	var out avrowire.Number
	if err := c.invoke(ctx, methodIncrement, "Increment", &avrowire.Number{Value: n}, &out); err != nil {
		return 0, err
	}
	return out.Value, nil
}

// StreamTrades calls TradeService/StreamTrades and hands each trade to yield, decoded
// into one reused contract.Trade (the wire struct is reused too). When yield fails,
// the call's context is cancelled, which resets the stream (the server's Send fails
// and it stops), and the yield's error is returned at once, without reading what is
// still in flight. A stream that ends with more or fewer than count trades is an
// error.
func (c *Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.conn.NewStream(sctx, &streamTradesDesc, methodStreamTrades)
	if err != nil {
		return c.conn.Err(ctx, "StreamTrades", err)
	}
	if err := stream.SendMsg(&avrowire.TradesRequest{Count: count}); err != nil && !errors.Is(err, io.EOF) {
		// io.EOF: the server ended the stream already; RecvMsg says why.
		return c.conn.Err(ctx, "StreamTrades", err)
	}
	if err := stream.CloseSend(); err != nil {
		return c.conn.Err(ctx, "StreamTrades", err)
	}
	return grpcx.RecvTrades(ctx, c.conn, stream, count, new(avrowire.Trade), fromWireTrade, yield)
}
