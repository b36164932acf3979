// Package thriftgo is the thrift-go stack of the two Thrift wire mappings,
// thrift-binary and thrift-compact (protocol/thriftrpc): a server and a client on
// Thrift's Go library (github.com/apache/thrift) with the generated code of
// contract/thriftwire.
//
// Design:
//
//   - Server: thrift.TSimpleServer (a goroutine per connection, one call at a time on
//     each) with the generated processor, the framed transport and the encoding, over a
//     TServerTransport of the listener it is given (TCP or a Unix socket, TLS 1.3 on
//     top when configured, without ALPN: Thrift has no registered identifier). Each
//     connection gets its own processor, whose handler holds the connection's trade
//     stream and whose calls' contexts end when the connection or the server closes.
//   - Client: a pool of connections, as Thrift's Go users pool clients (a Thrift client
//     carries one call at a time): a call takes the most recently used idle connection
//     or dials a new one through the counting dialer, so N calls in flight use N
//     connections. See client.go.
//   - Errors are the mapping's (thriftrpc.ServerError, thriftrpc.ClientError). Calls
//     cut short by their context satisfy errors.Is(err, ctx.Err()).
//   - Message limit: the mapping's (thriftrpc.Configuration); a frame over it is
//     refused from its 4-byte length, before it is read, and ends its connection (see
//     server.go).
//   - StreamTrades: the server makes the pages one page ahead of the client. See
//     stream.go.
package thriftgo

import (
	"context"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
)

// Name is the stack's registry name, the same for both protocols.
const Name = "thrift-go"

// idleTimeout is the server's socket timeout: a connection on which no byte arrives
// for this long, between calls or within a frame, is closed (http-json's idle
// timeout). Clients drop idle connections after clientIdleLimit, well before it.
const (
	idleTimeout     = 2 * time.Minute
	clientIdleLimit = time.Minute
)

func init() {
	for _, proto := range []string{thriftrpc.Binary, thriftrpc.Compact} {
		libs := protocol.GoLibraries("github.com/apache/thrift")
		libs["thrift-compiler"] = thriftrpc.CompilerVersion // of the generated code
		protocol.RegisterStack(&protocol.Stack{
			Name: Name, Protocol: proto, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
			Summary:   "Thrift's TSimpleServer with the generated processor; a pool of generated clients, one connection per call in flight",
			Libraries: libs,
			Sides:     protocol.ServerSide | protocol.ClientSide, TLS: true, OriginalTrades: true, Messages: true,
			NewServer: func(svc contract.Service, cfg protocol.ServerConfig) (protocol.Server, error) {
				s, err := NewServer(svc, proto, cfg)
				if err != nil {
					return nil, err
				}
				return s, nil
			},
			NewClient: func(ctx context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
				c, err := NewClient(ctx, proto, cfg)
				if err != nil {
					return nil, err
				}
				return c, nil
			},
		})
	}
}
