// Package connectgo holds the connect-go stacks of the three Connect wire mappings
// (protocol/connectproto): connect-go's (connectrpc.com/connect) handlers and
// clients, with the code protoc-gen-connect-go generates into contract/pb/pbconnect.
// One handler speaks every protocol connect-go has, so the same server answers all
// three. (The handler also speaks gRPC itself, so grpcurl and grpc-go call it too;
// the grpc-proto protocol with its grpc-go stack is that comparison.)
//
// Design:
//
//   - Server: net/http with connect-go's handlers on a ServeMux, speaking HTTP/1.1,
//     h2c (prior knowledge) and, over TLS, h2 or http/1.1 by ALPN; the server timeouts
//     of http-json. Requests over the message limit are refused with
//     resource_exhausted (connect.WithReadMaxBytes).
//   - Client: connect-go's generated clients over net/http's HTTP/2 (h2c with prior
//     knowledge, h2 over TLS), every connection from the counting dialer: one client
//     is one HTTP/2 connection carrying every call in flight, as a grpc-go client is.
//   - No compression: connect-go's client accepts gzip by default, and its server then
//     gzips every answer (no minimum size). The client here removes gzip, the one
//     setting it changes, so that the three protocols compare with grpc-proto (which
//     compresses nothing by default) on their wire mapping rather than on gzip. The
//     server keeps connect-go's defaults and compresses for clients that ask.
//   - Errors: the contract codes travel as the Connect codes of the same names and
//     come back as *contract.Error; calls cut short by their context satisfy
//     errors.Is(err, ctx.Err()).
//   - HTTP/3: the stack connect-go-h3 serves the same handlers with quic-go's
//     http3.Server and calls them with the same clients over quic-go's
//     http3.Transport (stack/internal/h3x), over the quic transport only: connect-go
//     takes any http.Client, and its three protocols need nothing of HTTP/2.
//   - StreamTrades: when yield fails, the client closes the stream (resetting it) and
//     returns at once.
package connectgo

import (
	"context"

	"connectrpc.com/connect"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/connectproto"
)

// Name is the stack's registry name, the same for each protocol.
const Name = "connect-go"

// H3Name is the same handlers and clients over HTTP/3 (quic-go), on the quic
// transport only.
const H3Name = "connect-go-h3"

// variant is how a client speaks: the protocol and the codec.
type variant struct {
	name string
	opts []connect.ClientOption
}

var variants = []variant{
	{connectproto.ConnectProto, nil},
	{connectproto.ConnectJSON, []connect.ClientOption{connect.WithProtoJSON()}},
	{connectproto.GRPCWeb, []connect.ClientOption{connect.WithGRPCWeb()}},
}

func init() {
	for _, v := range variants {
		protocol.RegisterStack(&protocol.Stack{
			Name: Name, Protocol: v.name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
			Summary:   "connect-go handlers on net/http (HTTP/1.1, h2c, h2), its clients over HTTP/2",
			Libraries: protocol.GoLibraries("connectrpc.com/connect", "google.golang.org/protobuf", "net/http"),
			Sides:     protocol.ServerSide | protocol.ClientSide, TLS: true, Messages: true,
			NewServer: protocol.Servers(NewServer),
			NewClient: func(ctx context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
				return NewClient(ctx, v.name, cfg, v.opts...)
			},
		})
		protocol.RegisterStack(&protocol.Stack{
			Name: H3Name, Protocol: v.name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
			Summary:   "connect-go handlers and clients over HTTP/3 (quic-go http3.Server and http3.Transport); quic transport only",
			Libraries: protocol.GoLibraries("connectrpc.com/connect", "google.golang.org/protobuf", "github.com/quic-go/quic-go", "net/http"),
			Sides:     protocol.ServerSide | protocol.ClientSide, QUIC: true, Messages: true,
			NewServer: protocol.Servers(NewH3Server),
			NewClient: func(ctx context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
				return NewH3Client(ctx, v.name, cfg, v.opts...)
			},
		})
	}
}
