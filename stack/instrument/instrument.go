// Package instrument is wirebench's instrument: a client stack ("instrument") of
// http-json, grpc-proto, grpc-avro, connect-proto and connect-json, and one
// ("instrument-h2") of http-json over HTTP/2, built to load a server for as little
// CPU as the load tools users know (wrk, h2load), while still checking every answer. It is a load
// generator, not a client a service would use, so it is of the tuned tier.
//
// Design:
//
//   - Every answer is checked, cheaply: the client remembers, per operation and
//     request (an id, an echo payload), the hash of an answer's bytes and the value
//     decoded from them (internal/answers: hash/maphash with a secret seed,
//     bounded tables). An answer with those bytes is accepted on the hash and the
//     remembered value is returned, so the workload's own check runs on it as on any
//     answer; an answer not seen before is decoded in full by the protocol's own
//     decoder (the tuned JSON codec, protobuf-go, twmb/avro) and remembered. Answers
//     that must differ between calls (CreatePerson, Increment, Stats, StreamTrades)
//     are decoded every time. Remembered values are shared between calls: callers
//     must not modify them (the workloads do not).
//   - http-json is the go-tuned-json stack's lean keep-alive HTTP/1.1 client with the
//     answers remembered (gotunedjson.ClientOptions.RememberAnswers): one connection per
//     call in flight, used by the calling goroutine itself, the request written by
//     the read of its answer (transport.WriteRead), nothing allocated per call.
//   - grpc-proto and grpc-avro frame gRPC over HTTP/2 themselves (h2conn.go, with
//     golang.org/x/net's HPACK): one connection per client; the calling goroutine
//     writes its request's frames (HEADERS from a cache of encoded header blocks, one
//     DATA) and waits on its stream's channel; one reader goroutine per connection
//     reads every frame, completes the answers and wakes their callers, then lets them
//     run and writes the requests they made in one system call with its own window
//     updates. grpc-status and the HTTP status and content type of every answer are
//     checked, and failures map to *contract.Error as grpc-go's clients map them
//     (stack/internal/grpcx). Flow control both ways, GOAWAY, RST_STREAM, PING,
//     SETTINGS and CONTINUATION are handled; a new connection is dialed when one
//     fails, is sent GOAWAY, or has used its stream ids.
//   - http-json over HTTP/2 (instrument-h2) and the Connect protocol (connect-proto,
//     connect-json: unary calls and server streams) are plain HTTP requests on the
//     same HTTP/2 connections, streams and reader as gRPC's (h2http.go): the tuned
//     JSON codec, protobuf-go or protojson for the bodies, and the answers' status,
//     content type and error bodies checked as the protocols' own clients check them.
//   - Every connection is opened through protocol.ClientConfig.Dial, so its bytes are
//     counted; with ClientConfig.TLS it is wrapped in TLS 1.3 (ALPN http/1.1 or h2)
//     and handshaken when opened (transport.TLSDialer).
package instrument

import (
	"context"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/connectproto"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/stack/gonethttpjson"
	"github.com/wirebench/wirebench/stack/gotunedjson"
)

// Name is the stack's registry name, the same for each protocol.
const Name = "instrument"

// H2Name is the instrument's stack of http-json over HTTP/2 (h2c, h2 over TLS), the
// counterpart of gonethttpjson.H2Name, beside its HTTP/1.1 stack named Name.
const H2Name = "instrument-h2"

// For is the instrument's client stack that loads a server of proto as client, a
// client stack of proto, would: the same protocol over the same HTTP version. It is
// "" when the instrument has no such stack.
func For(proto, client string) string {
	name := Name
	if proto == httpjson.Name && (client == gonethttpjson.H2Name || client == H2Name) {
		name = H2Name
	}
	if _, err := protocol.LookupStack(proto, name, protocol.ClientSide); err != nil {
		return ""
	}
	return name
}

var (
	protoCodec = codec{
		contentType:   "application/grpc",
		scratch:       func() scratch { return new(grpcproto.WireCodec) },
		decodePerson:  grpcproto.DecodePerson,
		decodePersons: grpcproto.DecodePersons,
		decodeLinks:   grpcproto.DecodeLinks,
		decodeEcho:    grpcproto.DecodeEcho,
	}
	jsonCodec = codec{
		scratch:       func() scratch { return new(jsonScratch) },
		decodePerson:  gotunedjson.DecodePerson,
		decodePersons: gotunedjson.DecodePersons,
		decodeLinks:   gotunedjson.DecodeLinks,
		decodeEcho:    gotunedjson.DecodeEcho,
	}
	connectJSONCodec = codec{
		scratch:       func() scratch { return new(connectproto.JSONWireCodec) },
		decodePerson:  connectproto.DecodeJSONPerson,
		decodePersons: connectproto.DecodeJSONPersons,
		decodeLinks:   connectproto.DecodeJSONLinks,
		decodeEcho:    connectproto.DecodeJSONEcho,
	}
	avroCodec = codec{
		contentType:   "application/grpc+" + grpcavro.CodecName,
		scratch:       func() scratch { return new(grpcavro.WireCodec) },
		decodePerson:  grpcavro.DecodePerson,
		decodePersons: grpcavro.DecodePersons,
		decodeLinks:   grpcavro.DecodeLinks,
		decodeEcho:    grpcavro.DecodeEcho,
	}
)

func init() {
	protocol.RegisterLoadClient(For)
	protocol.RegisterStack(&protocol.Stack{
		Name: Name, Protocol: httpjson.Name, Language: "go", Tier: protocol.Tuned, Worker: protocol.WorkerGo,
		Summary:   "load generator: the lean HTTP/1.1 client, answers checked by hash once decoded",
		Libraries: protocol.GoLibraries(),
		Sides:     protocol.ClientSide,
		TLS:       true,
		// go-tuned-json's client, which carries the original's trade.
		OriginalTrades: true,
		NewClient: func(ctx context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
			return gotunedjson.NewClientWith(ctx, cfg, gotunedjson.ClientOptions{RememberAnswers: true})
		},
	})
	protocol.RegisterStack(&protocol.Stack{
		Name: H2Name, Protocol: httpjson.Name, Language: "go", Tier: protocol.Tuned, Worker: protocol.WorkerGo,
		Summary:   "load generator: HTTP/2 framed by hand (h2c; h2 over TLS), streams multiplexed on one connection, the tuned JSON codec, answers checked by hash once decoded",
		Libraries: protocol.GoLibraries("golang.org/x/net"),
		Sides:     protocol.ClientSide,
		TLS:       true,
		NewClient: func(ctx context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
			return newH2Client(ctx, cfg, httpjson.Name, &jsonCodec, &jsonH2Wire)
		},
	})
	for _, p := range []struct {
		name  string
		codec *codec
		wire  *httpWire
		lib   string
	}{
		{connectproto.ConnectProto, &protoCodec, &connectProtoWire, "google.golang.org/protobuf"},
		{connectproto.ConnectJSON, &connectJSONCodec, &connectJSONWire, "google.golang.org/protobuf"},
	} {
		protocol.RegisterStack(&protocol.Stack{
			Name: Name, Protocol: p.name, Language: "go", Tier: protocol.Tuned, Worker: protocol.WorkerGo,
			Summary:   "load generator: the Connect protocol framed by hand over HTTP/2 (h2c; h2 over TLS), unary and server streams, answers checked by hash once decoded",
			Libraries: protocol.GoLibraries("golang.org/x/net", "connectrpc.com/connect", p.lib),
			Sides:     protocol.ClientSide,
			TLS:       true,
			NewClient: func(ctx context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
				return newH2Client(ctx, cfg, p.name, p.codec, p.wire)
			},
		})
	}
	for _, p := range []struct {
		name  string
		codec *codec
		lib   string
	}{
		{grpcproto.Name, &protoCodec, "google.golang.org/protobuf"},
		{grpcavro.Name, &avroCodec, "github.com/twmb/avro"},
	} {
		protocol.RegisterStack(&protocol.Stack{
			Name: Name, Protocol: p.name, Language: "go", Tier: protocol.Tuned, Worker: protocol.WorkerGo,
			Summary:   "load generator: gRPC framed by hand over HTTP/2, answers checked by hash once decoded",
			Libraries: protocol.GoLibraries("golang.org/x/net", p.lib),
			Sides:     protocol.ClientSide,
			TLS:       true,
			NewClient: func(ctx context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
				return newGRPCClient(ctx, cfg, p.name, p.codec)
			},
		})
	}
}
