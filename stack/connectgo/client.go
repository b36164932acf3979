package connectgo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/pb"
	"github.com/wirebench/wirebench/contract/pb/pbconnect"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/stack/internal/grpcx"
	"github.com/wirebench/wirebench/stack/internal/h3x"
)

// ErrClosed is wrapped by the errors of calls on a closed client.
var ErrClosed = errors.New("client closed")

// Client is a contract.Service over connect-go's generated clients, speaking one of
// the package's protocols over HTTP/2. It is safe for concurrent use: calls are
// streams multiplexed on its connection. Close closes its connections; calls after
// Close fail at once.
type Client struct {
	proto string
	tr    interface{ CloseIdleConnections() } // the http.Client's Transport
	// shut closes what Close must beyond the idle connections (nil: nothing).
	shut   func() error
	person pbconnect.PersonServiceClient
	echo   pbconnect.EchoServiceClient
	trade  pbconnect.TradeServiceClient
	// message echoes the user's message of the message workload (nil: none).
	message *connect.Client[dynamicpb.Message, dynamicpb.Message]
	closed  atomic.Bool
}

var _ protocol.Client = (*Client)(nil)

// NewClient returns a client of protocol proto (one of the package's) to cfg.Address,
// whose connections all come from cfg.Dial, with the client options opts of the
// protocol (the codec, gRPC-Web). Unless cfg.NoProbe, it makes one Stats call within
// ctx so that a wrong or dead target fails here (and the connection is open). It has
// no options of its own.
func NewClient(ctx context.Context, proto string, cfg protocol.ClientConfig, opts ...connect.ClientOption) (*Client, error) {
	if err := protocol.CheckOptions(proto, cfg.Options); err != nil {
		return nil, err
	}
	if cfg.Dial == nil {
		return nil, fmt.Errorf("%s: ClientConfig.Dial is nil", proto)
	}
	tr, base, err := H2Transport(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", proto, err)
	}
	return newClient(ctx, proto, cfg, &http.Client{Transport: tr}, tr, nil, base, opts)
}

// H2Transport is the HTTP/2 transport of a client of cfg (h2c, or h2 over TLS with
// cfg.TLS), whose every connection comes from cfg.Dial (not nil), and the base URL
// of its target (a Unix socket's host is localhost).
func H2Transport(cfg protocol.ClientConfig) (*http.Transport, string, error) {
	dial := cfg.Dial
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true)
	protocols.SetHTTP2(true)
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) },
		Protocols:   &protocols,
	}
	host, scheme := cfg.Address.Address, "http://"
	if cfg.Address.Network != "tcp" || host == "" {
		host = "localhost" // a Unix socket has no host name
	}
	if cfg.TLS.Enabled() {
		var err error
		if tr.TLSClientConfig, err = cfg.TLS.ClientConfig("h2"); err != nil {
			return nil, "", err
		}
		scheme = "https://"
	}
	return tr, scheme + host, nil
}

// NewH3Client is NewClient over HTTP/3: connect-go's generated clients with net/http's
// Client over quic-go's http3.Transport (stack/internal/h3x: one counted UDP socket
// of cfg.Packet, cfg.TLS's CA required), for a udp target. Calls are streams of one
// QUIC connection. Close closes it at once: calls in flight fail.
func NewH3Client(ctx context.Context, proto string, cfg protocol.ClientConfig, opts ...connect.ClientOption) (*Client, error) {
	if err := protocol.CheckOptions(proto, cfg.Options); err != nil {
		return nil, err
	}
	noProbe := cfg.NoProbe
	cfg.NoProbe = true // the Stats call below is the probe
	h3, err := h3x.NewClient(ctx, proto+" "+H3Name, cfg)
	if err != nil {
		return nil, err
	}
	cfg.NoProbe = noProbe
	c, err := newClient(ctx, proto, cfg, &http.Client{Transport: h3.Transport}, h3.Transport, h3.Close, h3.Base, opts)
	if err != nil {
		h3.Close()
	}
	return c, err
}

// newClient is a client of the package's protocol proto over hc, whose Transport is
// tr, with shut closing what Close closes beyond tr's idle connections, calling URLs
// under base.
func newClient(ctx context.Context, proto string, cfg protocol.ClientConfig, hc *http.Client,
	tr interface{ CloseIdleConnections() }, shut func() error, base string, opts []connect.ClientOption) (*Client, error) {
	opts = append([]connect.ClientOption{
		connect.WithReadMaxBytes(cfg.MessageLimit()),
		// No gzip: connect-go's client otherwise accepts it and its server then gzips
		// every answer, so a comparison with grpc-proto (which compresses nothing by
		// default) would measure gzip, not the wire mapping.
		connect.WithAcceptCompression("gzip", nil, nil),
	}, opts...)
	c := &Client{
		proto:   proto,
		tr:      tr,
		shut:    shut,
		person:  pbconnect.NewPersonServiceClient(hc, base, opts...),
		echo:    pbconnect.NewEchoServiceClient(hc, base, opts...),
		trade:   pbconnect.NewTradeServiceClient(hc, base, opts...),
		message: newMessageClient(hc, base, cfg.Message, opts),
	}
	if !cfg.NoProbe {
		if _, err := c.Stats(ctx); err != nil {
			tr.CloseIdleConnections()
			return nil, fmt.Errorf("%s: connect to %s: %w", proto, cfg.Address, err)
		}
	}
	return c, nil
}

// Close closes the client's connections: over HTTP/2, idle ones at once and busy ones
// when their calls end; over HTTP/3, all at once. It is safe to call more than once.
func (c *Client) Close() error {
	c.closed.Store(true)
	c.tr.CloseIdleConnections()
	if c.shut != nil {
		return c.shut()
	}
	return nil
}

// fromConnect maps Connect's codes back to the contract's.
var fromConnect = map[connect.Code]contract.Code{
	connect.CodeNotFound:          contract.NotFound,
	connect.CodeInvalidArgument:   contract.InvalidArgument,
	connect.CodeResourceExhausted: contract.ResourceExhausted,
	connect.CodeInternal:          contract.Internal,
}

// fail maps the failure of call op: a contract code becomes a *contract.Error (the
// server answered); a call cut short by ctx wraps ctx.Err(); anything else names the
// protocol and op.
func (c *Client) fail(ctx context.Context, op string, err error) error {
	if code, ok := fromConnect[connect.CodeOf(err)]; ok {
		var ce *connect.Error
		msg := err.Error()
		if errors.As(err, &ce) {
			msg = ce.Message()
		}
		return &contract.Error{Code: code, Message: msg}
	}
	code := connect.CodeOf(err)
	if cerr := grpcx.AwaitExpiry(ctx, code == connect.CodeDeadlineExceeded || code == connect.CodeCanceled); cerr != nil {
		return fmt.Errorf("%s %s: %w (%w)", c.proto, op, cerr, err)
	}
	return fmt.Errorf("%s %s: %w", c.proto, op, err)
}

// closedErr is the error of a call on a closed client.
func (c *Client) closedErr(op string) error { return fmt.Errorf("%s %s: %w", c.proto, op, ErrClosed) }

// ListPersons calls PersonService/ListPersons.
func (c *Client) ListPersons(ctx context.Context) ([]contract.Person, error) {
	if c.closed.Load() {
		return nil, c.closedErr("ListPersons")
	}
	out, err := c.person.ListPersons(ctx, connect.NewRequest(&pb.ListPersonsRequest{}))
	if err != nil {
		return nil, c.fail(ctx, "ListPersons", err)
	}
	return grpcproto.FromPBPersons(out.Msg), nil
}

// GetPerson calls PersonService/GetPerson; an unknown id fails with Code NotFound.
func (c *Client) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	if c.closed.Load() {
		return contract.Person{}, c.closedErr("GetPerson")
	}
	out, err := c.person.GetPerson(ctx, connect.NewRequest(&pb.PersonId{Id: id}))
	if err != nil {
		return contract.Person{}, c.fail(ctx, "GetPerson", err)
	}
	return grpcproto.FromPBPerson(out.Msg), nil
}

// GetPersonLinks calls PersonService/GetPersonLinks.
func (c *Client) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	if c.closed.Load() {
		return nil, c.closedErr("GetPersonLinks")
	}
	out, err := c.person.GetPersonLinks(ctx, connect.NewRequest(&pb.PersonId{Id: id}))
	if err != nil {
		return nil, c.fail(ctx, "GetPersonLinks", err)
	}
	return grpcproto.FromPBLinks(out.Msg), nil
}

// CreatePerson calls PersonService/CreatePerson.
func (c *Client) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	if c.closed.Load() {
		return contract.Person{}, c.closedErr("CreatePerson")
	}
	out, err := c.person.CreatePerson(ctx, connect.NewRequest(grpcproto.ToPBPerson(&p)))
	if err != nil {
		return contract.Person{}, c.fail(ctx, "CreatePerson", err)
	}
	return grpcproto.FromPBPerson(out.Msg), nil
}

// Echo calls EchoService/Echo. The payload is a proto3 string, which must be valid
// UTF-8.
func (c *Client) Echo(ctx context.Context, payload string) (string, error) {
	if c.closed.Load() {
		return "", c.closedErr("Echo")
	}
	out, err := c.echo.Echo(ctx, connect.NewRequest(&pb.EchoMessage{Payload: payload}))
	if err != nil {
		return "", c.fail(ctx, "Echo", err)
	}
	return out.Msg.GetPayload(), nil
}

// Stats calls EchoService/Stats.
func (c *Client) Stats(ctx context.Context) (contract.Stats, error) {
	if c.closed.Load() {
		return contract.Stats{}, c.closedErr("Stats")
	}
	out, err := c.echo.Stats(ctx, connect.NewRequest(&pb.StatsRequest{}))
	if err != nil {
		return contract.Stats{}, c.fail(ctx, "Stats", err)
	}
	return contract.Stats{Calls: out.Msg.GetCalls(), LastPayloadLen: out.Msg.GetLastPayloadLen()}, nil
}

// Increment calls EchoService/Increment.
func (c *Client) Increment(ctx context.Context, n int64) (int64, error) {
	if c.closed.Load() {
		return 0, c.closedErr("Increment")
	}
	out, err := c.echo.Increment(ctx, connect.NewRequest(&pb.Number{Value: n}))
	if err != nil {
		return 0, c.fail(ctx, "Increment", err)
	}
	return out.Msg.GetValue(), nil
}

// StreamTrades calls TradeService/StreamTrades and hands each trade to yield. When
// yield fails, the stream is closed at once (resetting it, so the server's next Send
// fails) and yield's error returned. A stream that ends with more or fewer than
// count trades is an error.
func (c *Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	if c.closed.Load() {
		return c.closedErr("StreamTrades")
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.trade.StreamTrades(sctx, connect.NewRequest(&pb.TradesRequest{Count: count}))
	if err != nil {
		return c.fail(ctx, "StreamTrades", err)
	}
	defer stream.Close()
	var (
		n int64
		t contract.Trade
	)
	for stream.Receive() {
		if n == count {
			return fmt.Errorf("%s StreamTrades: more than the %d trades asked for", c.proto, count)
		}
		if err := grpcproto.FromPBTrade(stream.Msg(), &t); err != nil {
			return fmt.Errorf("%s StreamTrades: trade %d: %w", c.proto, n, err)
		}
		if err := yield(&t); err != nil {
			cancel()
			return err
		}
		n++
	}
	if err := stream.Err(); err != nil {
		return c.fail(ctx, "StreamTrades", err)
	}
	if n != count {
		return fmt.Errorf("%s StreamTrades: the stream ended after %d of %d trades", c.proto, n, count)
	}
	return nil
}

// StreamOriginalTrades refuses: this stack does not carry the original trade shape
// (its Stack.OriginalTrades is false, so a run asking for it is refused earlier).
func (c *Client) StreamOriginalTrades(context.Context, int64, func(*contract.OriginalTrade) error) error {
	return contract.NotCarried(Name)
}
