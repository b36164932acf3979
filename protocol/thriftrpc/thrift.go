// Package thriftrpc is the Apache Thrift adapter: the service Wirebench of
// contract/schema/wirebench.thrift, served and called with Thrift's Go library
// (github.com/apache/thrift) and the code the Thrift compiler generates into
// contract/thriftwire, over Thrift's framed transport. Thrift's two binary encodings
// are two protocols of wirebench's own, so that they compare as targets of one group:
//
//   - "thrift-binary": TBinaryProtocol (strict writes, as every Thrift library sends);
//   - "thrift-compact": TCompactProtocol (varints and field-id deltas).
//
// Client and server must agree on the encoding beforehand (nothing on the wire
// negotiates it), which makes each one a wire mapping of its own rather than a setting
// of one; and a stack option would mark the stack tuned (protocol.Stack.TierWith),
// where both encodings are stock Thrift.
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
//   - Errors: the contract's codes travel as the exception ServiceError with the
//     ErrorCode of the same name and the service's message, and come back as
//     *contract.Error. Calls cut short by their context satisfy
//     errors.Is(err, ctx.Err()).
//   - Message limit: TConfiguration's MaxMessageSize and MaxFrameSize, on both sides,
//     are the message limit plus envelopeSlack; a frame over them is refused from its
//     4-byte length, before it is read, and ends its connection (see server.go).
//   - StreamTrades: Thrift calls are request and response, so the server stream is a
//     sequence of pages pulled on one connection (streamTrades, then nextTrades until a
//     page is the last; cancelTrades to stop early), made by the server one page
//     ahead of the client. See stream.go.
package thriftrpc

import (
	"context"
	"math"
	"time"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
)

// The protocols of this package.
const (
	Binary  = "thrift-binary"
	Compact = "thrift-compact"
)

// StackName is the stack of this package, the same for both protocols.
const StackName = "thrift-go"

// CompilerVersion is the version of the Thrift compiler that generated
// contract/thriftwire (its files' first line says so; a test checks it).
const CompilerVersion = "0.17.0"

// envelopeSlack is added to the message limit to make Thrift's frame and message
// limits: a message of the limit's size (an echo payload, a list of persons) travels
// with a method name, a sequence id and field headers around it.
const envelopeSlack = 64 << 10

// idleTimeout is the server's socket timeout: a connection on which no byte arrives
// for this long, between calls or within a frame, is closed (http-json's idle
// timeout). Clients drop idle connections after clientIdleLimit, well before it.
const (
	idleTimeout     = 2 * time.Minute
	clientIdleLimit = time.Minute
)

// variant is one of Thrift's encodings.
type variant struct {
	name    string
	summary string
	// factory returns the encoding's protocol factory with conf.
	factory func(conf *thrift.TConfiguration) thrift.TProtocolFactory
}

var variants = []variant{
	{Binary, "Apache Thrift, binary protocol, framed transport (apache/thrift Go library)",
		func(conf *thrift.TConfiguration) thrift.TProtocolFactory {
			return thrift.NewTBinaryProtocolFactoryConf(conf)
		}},
	{Compact, "Apache Thrift, compact protocol, framed transport (apache/thrift Go library)",
		func(conf *thrift.TConfiguration) thrift.TProtocolFactory {
			return thrift.NewTCompactProtocolFactoryConf(conf)
		}},
}

// configuration returns the Thrift configuration of one side: frames and messages of
// at most limit + envelopeSlack bytes, and the given socket timeout (0: none).
func configuration(limit int, socketTimeout time.Duration) *thrift.TConfiguration {
	frame := int32(min(int64(limit)+envelopeSlack, math.MaxInt32))
	return &thrift.TConfiguration{
		MaxMessageSize: frame,
		MaxFrameSize:   frame,
		SocketTimeout:  socketTimeout,
	}
}

func init() {
	for _, v := range variants {
		protocol.Register(&protocol.Protocol{
			Name: v.name, Summary: v.summary,
			DefaultServer: StackName, DefaultClient: StackName,
		})
		libs := protocol.GoLibraries("github.com/apache/thrift")
		libs["thrift-compiler"] = CompilerVersion // of the generated code
		protocol.RegisterStack(&protocol.Stack{
			Name: StackName, Protocol: v.name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
			Summary:   "Thrift's TSimpleServer with the generated processor; a pool of generated clients, one connection per call in flight",
			Libraries: libs,
			Sides:     protocol.ServerSide | protocol.ClientSide, TLS: true,
			NewServer: func(svc contract.Service, cfg protocol.ServerConfig) (protocol.Server, error) {
				s, err := NewServer(svc, v.name, cfg)
				if err != nil {
					return nil, err
				}
				return s, nil
			},
			NewClient: func(ctx context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
				c, err := NewClient(ctx, v.name, cfg)
				if err != nil {
					return nil, err
				}
				return c, nil
			},
		})
	}
}

// lookup returns the variant called name.
func lookup(name string) (variant, bool) {
	for _, v := range variants {
		if v.name == name {
			return v, true
		}
	}
	return variant{}, false
}
