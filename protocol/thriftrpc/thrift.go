// Package thriftrpc is the Apache Thrift wire mapping: the service Wirebench of
// contract/schema/wirebench.thrift, with the code the Thrift compiler generates into
// contract/thriftwire for Thrift's Go library (github.com/apache/thrift), over
// Thrift's framed transport. Its Go stack, thrift-go, lives in stack/thriftgo.
// Thrift's two binary encodings are two protocols of wirebench's own, so that they
// compare as targets of one group:
//
//   - "thrift-binary": TBinaryProtocol (strict writes, as every Thrift library sends);
//   - "thrift-compact": TCompactProtocol (varints and field-id deltas).
//
// Client and server must agree on the encoding beforehand (nothing on the wire
// negotiates it), which makes each one a wire mapping of its own rather than a setting
// of one; and a stack option would mark the stack tuned (protocol.Stack.TierWith),
// where both encodings are stock Thrift.
//
// The mapping:
//
//   - Errors: the contract's codes travel as the exception ServiceError with the
//     ErrorCode of the same name and the service's message, and come back as
//     *contract.Error (ServerError, ClientError).
//   - Message limit: TConfiguration's MaxMessageSize and MaxFrameSize, on both sides,
//     are the message limit plus EnvelopeSlack (Configuration); a frame over them is
//     refused from its 4-byte length, before it is read, and a frame whose first bytes
//     begin no message of the encoding is refused as they arrive (FrameCheck).
//   - StreamTrades: Thrift calls are request and response, so the server stream is a
//     sequence of pages pulled on one connection (streamTrades, then nextTrades until a
//     page is the last; cancelTrades to stop early).
package thriftrpc

import (
	"math"
	"time"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/wirebench/wirebench/protocol"
)

// The protocols of this package.
const (
	Binary  = "thrift-binary"
	Compact = "thrift-compact"
)

// DefaultStack is the stack of both sides when a benchmark names none: thrift-go,
// registered by stack/thriftgo.
const DefaultStack = "thrift-go"

// CompilerVersion is the version of the Thrift compiler that generated
// contract/thriftwire (its files' first line says so; a test checks it).
const CompilerVersion = "0.17.0"

// EnvelopeSlack is added to the message limit to make Thrift's frame and message
// limits: a message of the limit's size (an echo payload, a list of persons) travels
// with a method name, a sequence id and field headers around it.
const EnvelopeSlack = 64 << 10

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

// Configuration returns the Thrift configuration of one side: frames and messages of
// at most limit + EnvelopeSlack bytes, and the given socket timeout (0: none).
func Configuration(limit int, socketTimeout time.Duration) *thrift.TConfiguration {
	frame := int32(min(int64(limit)+EnvelopeSlack, math.MaxInt32))
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
			DefaultServer: DefaultStack, DefaultClient: DefaultStack,
		})
	}
}

// Encoding returns the protocol factory of the protocol called name (Binary or
// Compact), which takes the configuration of one side.
func Encoding(name string) (factory func(conf *thrift.TConfiguration) thrift.TProtocolFactory, ok bool) {
	for _, v := range variants {
		if v.name == name {
			return v.factory, true
		}
	}
	return nil, false
}
