package grpcgo

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/protocol/grpcproto"
)

// registerMessages serves the message workload's echo (grpcproto.MessageService) of
// the user's message type md, when there is one: each request is decoded into a
// dynamic message of md by the server's codec (grpc-go's protobuf codec, as for every
// generated message), and that decoded value is the answer, encoded again.
func registerMessages(s *grpc.Server, md protoreflect.MessageDescriptor) {
	if md == nil {
		return
	}
	s.RegisterService(&grpc.ServiceDesc{
		ServiceName: grpcproto.MessageService,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{
			MethodName: "Echo",
			Handler: func(_ any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
				m := dynamicpb.NewMessage(md)
				if err := dec(m); err != nil {
					return nil, err
				}
				if icpt == nil {
					return m, nil
				}
				info := &grpc.UnaryServerInfo{FullMethod: grpcproto.MessageEchoPath}
				return icpt(ctx, m, info, func(_ context.Context, req any) (any, error) { return req, nil })
			},
		}},
	}, struct{}{})
}

var _ usermsg.Echoer = (*ProtoClient)(nil)

// EchoMessage calls MessageService/Echo with m and decodes the answer into a new
// message of m's type.
func (c *ProtoClient) EchoMessage(ctx context.Context, m proto.Message) (proto.Message, error) {
	out := dynamicpb.NewMessage(m.ProtoReflect().Descriptor())
	if err := c.conn.Invoke(ctx, grpcproto.MessageEchoPath, m, out); err != nil {
		return nil, c.conn.Err(ctx, "MessageService/Echo", err)
	}
	return out, nil
}
