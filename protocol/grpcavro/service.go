package grpcavro

import (
	"context"

	"google.golang.org/grpc"

	"github.com/wirebench/wirebench/contract/avrowire"
)

// The gRPC method paths, the same as grpc-proto's (wirebench.proto's services), so
// that the two differ only in the body encoding.
const (
	personService = "wirebench.v1.PersonService"
	echoService   = "wirebench.v1.EchoService"
	tradeService  = "wirebench.v1.TradeService"

	methodListPersons    = "/" + personService + "/ListPersons"
	methodGetPerson      = "/" + personService + "/GetPerson"
	methodGetPersonLinks = "/" + personService + "/GetPersonLinks"
	methodCreatePerson   = "/" + personService + "/CreatePerson"
	methodEcho           = "/" + echoService + "/Echo"
	methodStats          = "/" + echoService + "/Stats"
	methodIncrement      = "/" + echoService + "/Increment"
	methodStreamTrades   = "/" + tradeService + "/StreamTrades"
)

// metadata names the schemas in the service descriptors (grpc-go reports it in
// GetServiceInfo; there is no reflection for Avro).
const metadata = "contract/schema/avro"

// The hand-written service descriptors: what protoc-gen-go-grpc generates from the
// .proto, with avrowire messages. The server implementation is *server.
var (
	personServiceDesc = grpc.ServiceDesc{
		ServiceName: personService,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{
			unary(personService, "ListPersons", (*server).listPersons),
			unary(personService, "GetPerson", (*server).getPerson),
			unary(personService, "GetPersonLinks", (*server).getPersonLinks),
			unary(personService, "CreatePerson", (*server).createPerson),
		},
		Metadata: metadata,
	}
	echoServiceDesc = grpc.ServiceDesc{
		ServiceName: echoService,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{
			unary(echoService, "Echo", (*server).echo),
			unary(echoService, "Stats", (*server).stats),
			unary(echoService, "Increment", (*server).increment),
		},
		Metadata: metadata,
	}
	tradeServiceDesc = grpc.ServiceDesc{
		ServiceName: tradeService,
		HandlerType: (*any)(nil),
		Streams: []grpc.StreamDesc{{
			StreamName:    "StreamTrades",
			ServerStreams: true,
			Handler: func(srv any, stream grpc.ServerStream) error {
				in := new(avrowire.TradesRequest)
				if err := stream.RecvMsg(in); err != nil {
					return err
				}
				return srv.(*server).streamTrades(in, stream)
			},
		}},
		Metadata: metadata,
	}
	// streamTradesDesc is the client's view of StreamTrades.
	streamTradesDesc = grpc.StreamDesc{StreamName: "StreamTrades", ServerStreams: true}
)

// unary returns the descriptor of the unary method name of service, which decodes a
// Req, calls h and answers its result, through the server's interceptor when it has
// one, as generated handlers do.
func unary[Req any, Resp any, PReq interface {
	*Req
	avrowire.Message
}](service, name string, h func(*server, context.Context, PReq) (*Resp, error)) grpc.MethodDesc {
	path := "/" + service + "/" + name
	return grpc.MethodDesc{
		MethodName: name,
		Handler: func(srv any, ctx context.Context, dec func(any) error, ic grpc.UnaryServerInterceptor) (any, error) {
			in := PReq(new(Req))
			if err := dec(in); err != nil {
				return nil, err
			}
			s := srv.(*server)
			if ic == nil {
				return h(s, ctx, in)
			}
			info := &grpc.UnaryServerInfo{Server: srv, FullMethod: path}
			return ic(ctx, in, info, func(ctx context.Context, req any) (any, error) {
				return h(s, ctx, req.(PReq))
			})
		},
	}
}
