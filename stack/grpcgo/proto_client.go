package grpcgo

import (
	"context"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/pb"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/stack/internal/grpcx"
)

// ProtoClient is a contract.Service over one gRPC connection (one HTTP/2 connection),
// calling the generated stubs. It is safe for concurrent use by many goroutines: their
// calls are streams multiplexed on the connection. Close releases the connection;
// calls after Close fail at once.
type ProtoClient struct {
	conn   *grpcx.Conn
	person pb.PersonServiceClient
	echo   pb.EchoServiceClient
	trade  pb.TradeServiceClient
}

var _ protocol.Client = (*ProtoClient)(nil)

// NewProtoClient connects to cfg.Address through cfg.Dial and waits until the connection is
// ready, within ctx. cfg.Options takes the options of grpcx.ClientOptionNames.
func NewProtoClient(ctx context.Context, cfg protocol.ClientConfig) (*ProtoClient, error) {
	conn, err := grpcx.Dial(ctx, grpcproto.Name, cfg)
	if err != nil {
		return nil, err
	}
	return &ProtoClient{
		conn:   conn,
		person: pb.NewPersonServiceClient(conn),
		echo:   pb.NewEchoServiceClient(conn),
		trade:  pb.NewTradeServiceClient(conn),
	}, nil
}

// Close closes the connection. It is safe to call more than once.
func (c *ProtoClient) Close() error { return c.conn.Close() }

// ListPersons calls PersonService/ListPersons.
func (c *ProtoClient) ListPersons(ctx context.Context) ([]contract.Person, error) {
	out, err := c.person.ListPersons(ctx, &pb.ListPersonsRequest{})
	if err != nil {
		return nil, c.conn.Err(ctx, "ListPersons", err)
	}
	return grpcproto.FromPBPersons(out), nil
}

// GetPerson calls PersonService/GetPerson; an unknown id fails with Code NotFound.
func (c *ProtoClient) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	out, err := c.person.GetPerson(ctx, &pb.PersonId{Id: id})
	if err != nil {
		return contract.Person{}, c.conn.Err(ctx, "GetPerson", err)
	}
	return grpcproto.FromPBPerson(out), nil
}

// GetPersonLinks calls PersonService/GetPersonLinks; an unknown id fails with Code
// NotFound.
func (c *ProtoClient) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	out, err := c.person.GetPersonLinks(ctx, &pb.PersonId{Id: id})
	if err != nil {
		return nil, c.conn.Err(ctx, "GetPersonLinks", err)
	}
	return grpcproto.FromPBLinks(out), nil
}

// CreatePerson calls PersonService/CreatePerson; a bad person fails with Code
// InvalidArgument.
func (c *ProtoClient) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	out, err := c.person.CreatePerson(ctx, grpcproto.ToPBPerson(&p))
	if err != nil {
		return contract.Person{}, c.conn.Err(ctx, "CreatePerson", err)
	}
	return grpcproto.FromPBPerson(out), nil
}

// Echo calls EchoService/Echo. The payload travels as a proto3 string, which must be
// valid UTF-8: another payload fails to marshal (Code Internal).
func (c *ProtoClient) Echo(ctx context.Context, payload string) (string, error) {
	out, err := c.echo.Echo(ctx, &pb.EchoMessage{Payload: payload})
	if err != nil {
		return "", c.conn.Err(ctx, "Echo", err)
	}
	return out.GetPayload(), nil
}

// Stats calls EchoService/Stats.
func (c *ProtoClient) Stats(ctx context.Context) (contract.Stats, error) {
	out, err := c.echo.Stats(ctx, &pb.StatsRequest{})
	if err != nil {
		return contract.Stats{}, c.conn.Err(ctx, "Stats", err)
	}
	return contract.Stats{Calls: out.GetCalls(), LastPayloadLen: out.GetLastPayloadLen()}, nil
}

// Increment calls EchoService/Increment (one round trip: the ping-pong).
func (c *ProtoClient) Increment(ctx context.Context, n int64) (int64, error) {
	out, err := c.echo.Increment(ctx, &pb.Number{Value: n})
	if err != nil {
		return 0, c.conn.Err(ctx, "Increment", err)
	}
	return out.GetValue(), nil
}

// StreamTrades calls TradeService/StreamTrades and hands each trade to yield, decoded
// into one reused contract.Trade (the protobuf message is reused too). When yield
// fails, the call's context is cancelled, which resets the stream (the server's Send
// fails and it stops), and the yield's error is returned at once, without reading
// what is still in flight. A stream that ends with more or fewer than count trades
// is an error.
func (c *ProtoClient) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.trade.StreamTrades(sctx, &pb.TradesRequest{Count: count})
	if err != nil {
		return c.conn.Err(ctx, "StreamTrades", err)
	}
	return grpcx.RecvTrades(ctx, c.conn, stream, "StreamTrades", count, new(pb.Trade), grpcproto.FromPBTrade, yield)
}

// StreamOriginalTrades is StreamTrades for the original's trade.
func (c *ProtoClient) StreamOriginalTrades(ctx context.Context, count int64, yield func(*contract.OriginalTrade) error) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.trade.StreamOriginalTrades(sctx, &pb.TradesRequest{Count: count})
	if err != nil {
		return c.conn.Err(ctx, "StreamOriginalTrades", err)
	}
	return grpcx.RecvTrades(ctx, c.conn, stream, "StreamOriginalTrades", count, new(pb.OriginalTrade), grpcproto.FromPBOriginalTrade, yield)
}
