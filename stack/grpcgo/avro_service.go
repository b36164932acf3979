package grpcgo

import (
	"context"

	"google.golang.org/grpc"

	"github.com/wirebench/wirebench/contract/avrowire"
	"github.com/wirebench/wirebench/protocol/grpcavro"
)

// metadata names the schemas in the service descriptors (grpc-go reports it in
// GetServiceInfo; there is no reflection for Avro).
const metadata = "contract/schema/avro"

// The hand-written service descriptors: what protoc-gen-go-grpc generates from the
// .proto, with avrowire messages. The server implementation is *avroServer.
var (
	personServiceDesc = grpc.ServiceDesc{
		ServiceName: grpcavro.PersonService,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{
			unary(grpcavro.PersonService, "ListPersons", (*avroServer).listPersons),
			unary(grpcavro.PersonService, "GetPerson", (*avroServer).getPerson),
			unary(grpcavro.PersonService, "GetPersonLinks", (*avroServer).getPersonLinks),
			unary(grpcavro.PersonService, "CreatePerson", (*avroServer).createPerson),
		},
		Metadata: metadata,
	}
	echoServiceDesc = grpc.ServiceDesc{
		ServiceName: grpcavro.EchoService,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{
			unary(grpcavro.EchoService, "Echo", (*avroServer).echo),
			unary(grpcavro.EchoService, "Stats", (*avroServer).stats),
			unary(grpcavro.EchoService, "Increment", (*avroServer).increment),
		},
		Metadata: metadata,
	}
	tradeServiceDesc = grpc.ServiceDesc{
		ServiceName: grpcavro.TradeService,
		HandlerType: (*any)(nil),
		Streams: []grpc.StreamDesc{{
			StreamName:    "StreamTrades",
			ServerStreams: true,
			Handler: func(srv any, stream grpc.ServerStream) error {
				in := new(avrowire.TradesRequest)
				if err := stream.RecvMsg(in); err != nil {
					return err
				}
				return srv.(*avroServer).streamTrades(in, stream)
			},
		}, {
			StreamName:    "StreamOriginalTrades",
			ServerStreams: true,
			Handler: func(srv any, stream grpc.ServerStream) error {
				in := new(avrowire.TradesRequest)
				if err := stream.RecvMsg(in); err != nil {
					return err
				}
				return srv.(*avroServer).streamOriginalTrades(in, stream)
			},
		}},
		Metadata: metadata,
	}
	// streamTradesDesc is the client's view of StreamTrades.
	streamTradesDesc = grpc.StreamDesc{StreamName: "StreamTrades", ServerStreams: true}
	// streamOriginalTradesDesc is the client's view of StreamOriginalTrades.
	streamOriginalTradesDesc = grpc.StreamDesc{StreamName: "StreamOriginalTrades", ServerStreams: true}
)

// unary returns the descriptor of the unary method name of service, which decodes a
// Req, calls h and answers its result, through the server's interceptor when it has
// one, as generated handlers do.
func unary[Req any, Resp any, PReq interface {
	*Req
	avrowire.Message
}](service, name string, h func(*avroServer, context.Context, PReq) (*Resp, error)) grpc.MethodDesc {
	path := "/" + service + "/" + name
	return grpc.MethodDesc{
		MethodName: name,
		Handler: func(srv any, ctx context.Context, dec func(any) error, ic grpc.UnaryServerInterceptor) (any, error) {
			in := PReq(new(Req))
			if err := dec(in); err != nil {
				return nil, err
			}
			s := srv.(*avroServer)
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
