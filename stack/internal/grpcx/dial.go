package grpcx

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
)

// Conn is one gRPC client connection of an adapter: a *grpc.ClientConn over exactly
// one HTTP/2 connection at a time, opened through the config's dialer (so its bytes
// are counted). It is safe for concurrent use. When the connection breaks, grpc-go
// dials a new one (through the same dialer) for later calls.
type Conn struct {
	*grpc.ClientConn
	proto  string
	closed atomic.Bool
}

// Dial returns the connection of a client of protocol proto to cfg.Address, connected
// and ready (a dead or non-gRPC target fails here, within ctx), configured by cfg:
// responses over cfg.MessageLimit() fail with ResourceExhausted, and cfg.Options are
// the client options of ClientOptionNames. extra options come last. Connections are
// opened with cfg.Dial (filled in from cfg.Address when nil), in plain text, or with
// TLS 1.3 (grpc-go's TLS credentials, ALPN h2) when cfg.TLS is enabled.
//
// The target is "passthrough:///" and the address, so grpc-go resolves nothing and
// balances nothing: one subchannel, one connection. Several connections are several
// clients.
func Dial(ctx context.Context, proto string, cfg protocol.ClientConfig, extra ...grpc.DialOption) (*Conn, error) {
	opts, err := ClientOptions(proto, cfg.Options)
	if err != nil {
		return nil, err
	}
	dial := cfg.Dial
	if dial == nil {
		if cfg.Address.Network == "" {
			return nil, fmt.Errorf("%s: ClientConfig needs a Target or a Dial", proto)
		}
		dial = transport.Dialer(cfg.Address, nil)
	}
	var (
		mu      sync.Mutex
		dialErr error // the last failure to dial, which says why a connection failed
	)
	creds := insecure.NewCredentials()
	if cfg.TLS.Enabled() {
		// grpc-go's TLS credentials over the counting dialer's connection: the bytes
		// counted are the TLS records, and the server name is the authority's host.
		tc, err := cfg.TLS.ClientConfig("h2")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", proto, err)
		}
		creds = credentials.NewTLS(tc)
	}
	opts = append([]grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			nc, err := dial(ctx)
			mu.Lock()
			dialErr = err
			mu.Unlock()
			return nc, err
		}),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(cfg.MessageLimit())),
	}, opts...)
	cc, err := grpc.NewClient("passthrough:///"+authority(cfg.Address), append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", proto, err)
	}
	c := &Conn{ClientConn: cc, proto: proto}
	cc.Connect()
	for {
		st := cc.GetState()
		switch st {
		case connectivity.Ready:
			return c, nil
		case connectivity.TransientFailure, connectivity.Shutdown:
			cc.Close()
			mu.Lock()
			why := dialErr
			mu.Unlock()
			if why == nil {
				why = errors.New("the connection failed: is it a gRPC server?")
			}
			return nil, fmt.Errorf("%s: connect to %s: %w", proto, cfg.Address, why)
		}
		if !cc.WaitForStateChange(ctx, st) {
			cc.Close()
			return nil, fmt.Errorf("%s: connect to %s: %w", proto, cfg.Address, ctx.Err())
		}
	}
}

// authority is the :authority of the calls: host:port for TCP, "localhost" for a
// Unix socket (whose path is no host name).
func authority(a transport.Addr) string {
	if a.Network == "tcp" && a.Address != "" {
		return a.Address
	}
	return "localhost"
}

// Close closes the connection; calls in flight fail, and later calls fail at once with
// an error wrapping ErrClosed. It is safe to call more than once.
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	return c.ClientConn.Close()
}

// Err maps the failure of the call op made with ctx (see ClientError); once the
// client is closed, a failure wraps ErrClosed.
func (c *Conn) Err(ctx context.Context, op string, err error) error {
	if err != nil && c.closed.Load() {
		return fmt.Errorf("%s %s: %w (%v)", c.proto, op, ErrClosed, err)
	}
	return ClientError(ctx, c.proto, op, err)
}
