package grpcgo

import (
	"context"
	"errors"
	"io"

	"google.golang.org/grpc"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/stack/internal/grpcx"
)

// AvroClient is a contract.Service over one gRPC connection (one HTTP/2 connection) with
// Avro bodies: every call carries content-subtype "avro". It is safe for concurrent
// use by many goroutines. Close releases the connection; calls after Close fail at
// once.
type AvroClient struct {
	conn *grpcx.Conn
	// message is the Avro schema of the message workload's type (nil: none).
	message *grpcavro.MessageSchema
}

var _ protocol.Client = (*AvroClient)(nil)

// NewAvroClient connects to cfg.Address through cfg.Dial and waits until the connection is
// ready, within ctx. cfg.Options takes the options of grpcx.ClientOptionNames.
func NewAvroClient(ctx context.Context, cfg protocol.ClientConfig) (*AvroClient, error) {
	conn, err := grpcx.Dial(ctx, grpcavro.Name, cfg, grpc.WithDefaultCallOptions(grpc.CallContentSubtype(grpcavro.CodecName)))
	if err != nil {
		return nil, err
	}
	ms, err := avroSchema(cfg.Message)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return &AvroClient{conn: conn, message: ms}, nil
}

// Close closes the connection. It is safe to call more than once.
func (c *AvroClient) Close() error { return c.conn.Close() }

// invoke makes the unary call at path and maps its failure.
func (c *AvroClient) invoke(ctx context.Context, path, op string, in, out avrowire.Message) error {
	if err := c.conn.Invoke(ctx, path, in, out); err != nil {
		return c.conn.Err(ctx, op, err)
	}
	return nil
}

// ListPersons calls PersonService/ListPersons.
func (c *AvroClient) ListPersons(ctx context.Context) ([]contract.Person, error) {
	var out avrowire.PersonList
	if err := c.invoke(ctx, grpcavro.MethodListPersons, "ListPersons", &avrowire.ListPersonsRequest{}, &out); err != nil {
		return nil, err
	}
	return grpcavro.FromWirePersons(&out), nil
}

// GetPerson calls PersonService/GetPerson; an unknown id fails with Code NotFound.
func (c *AvroClient) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	var out avrowire.Person
	if err := c.invoke(ctx, grpcavro.MethodGetPerson, "GetPerson", &avrowire.PersonID{ID: id}, &out); err != nil {
		return contract.Person{}, err
	}
	var p contract.Person
	grpcavro.FromWirePerson(&out, &p)
	return p, nil
}

// GetPersonLinks calls PersonService/GetPersonLinks; an unknown id fails with Code
// NotFound.
func (c *AvroClient) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	var out avrowire.PersonLinkList
	if err := c.invoke(ctx, grpcavro.MethodGetPersonLinks, "GetPersonLinks", &avrowire.PersonID{ID: id}, &out); err != nil {
		return nil, err
	}
	return grpcavro.FromWireLinks(&out), nil
}

// CreatePerson calls PersonService/CreatePerson; a bad person fails with Code
// InvalidArgument.
func (c *AvroClient) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	var in, out avrowire.Person
	grpcavro.ToWirePerson(&p, &in)
	if err := c.invoke(ctx, grpcavro.MethodCreatePerson, "CreatePerson", &in, &out); err != nil {
		return contract.Person{}, err
	}
	var created contract.Person
	grpcavro.FromWirePerson(&out, &created)
	return created, nil
}

// Echo calls EchoService/Echo.
func (c *AvroClient) Echo(ctx context.Context, payload string) (string, error) {
	var out avrowire.EchoMessage
	if err := c.invoke(ctx, grpcavro.MethodEcho, "Echo", &avrowire.EchoMessage{Payload: payload}, &out); err != nil {
		return "", err
	}
	return out.Payload, nil
}

// Stats calls EchoService/Stats.
func (c *AvroClient) Stats(ctx context.Context) (contract.Stats, error) {
	var out avrowire.StatsReply
	if err := c.invoke(ctx, grpcavro.MethodStats, "Stats", &avrowire.StatsRequest{}, &out); err != nil {
		return contract.Stats{}, err
	}
	return contract.Stats{Calls: out.Calls, LastPayloadLen: out.LastPayloadLen}, nil
}

// Increment calls EchoService/Increment (one round trip: the ping-pong).
func (c *AvroClient) Increment(ctx context.Context, n int64) (int64, error) {
	var out avrowire.Number
	if err := c.invoke(ctx, grpcavro.MethodIncrement, "Increment", &avrowire.Number{Value: n}, &out); err != nil {
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
func (c *AvroClient) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	return streamAvro(ctx, c, &streamTradesDesc, grpcavro.MethodStreamTrades, count, new(avrowire.Trade), grpcavro.FromWireTrade, yield)
}

// StreamOriginalTrades is StreamTrades for the original's trade.
func (c *AvroClient) StreamOriginalTrades(ctx context.Context, count int64, yield func(*contract.OriginalTrade) error) error {
	return streamAvro(ctx, c, &streamOriginalTradesDesc, grpcavro.MethodStreamOriginalTrades, count, new(avrowire.OriginalTrade), grpcavro.FromWireOriginalTrade, yield)
}

// streamAvro calls the stream method of desc and hands each trade to yield.
func streamAvro[W, T any](ctx context.Context, c *AvroClient, desc *grpc.StreamDesc, method string, count int64, w *W,
	conv func(*W, *T) error, yield func(*T) error) error {
	name := desc.StreamName
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.conn.NewStream(sctx, desc, method)
	if err != nil {
		return c.conn.Err(ctx, name, err)
	}
	if err := stream.SendMsg(&avrowire.TradesRequest{Count: count}); err != nil && !errors.Is(err, io.EOF) {
		// io.EOF: the server ended the stream already; RecvMsg says why.
		return c.conn.Err(ctx, name, err)
	}
	if err := stream.CloseSend(); err != nil {
		return c.conn.Err(ctx, name, err)
	}
	return grpcx.RecvTrades(ctx, c.conn, stream, name, count, w, conv, yield)
}
