package grpcgo

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/grpcproto"
)

// registerMessages serves the message workload's echo (grpcproto.MessageService) with
// requests made by newReq: each is decoded by the server's codec (grpc-go's protobuf
// codec into a dynamic message, as for every generated message; the Avro codec into a
// grpcavro.Message), and that decoded value is the answer, encoded again.
func registerMessages(s *grpc.Server, newReq func() any) {
	s.RegisterService(&grpc.ServiceDesc{
		ServiceName: grpcproto.MessageService,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{
			MethodName: "Echo",
			Handler: func(_ any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
				m := newReq()
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

// protoMessages registers the echo of md's messages in protobuf, when md is set.
func protoMessages(s *grpc.Server, md protoreflect.MessageDescriptor) {
	if md != nil {
		registerMessages(s, func() any { return dynamicpb.NewMessage(md) })
	}
}

// avroMessages registers the echo of ms's messages in Avro, when ms is set.
func avroMessages(s *grpc.Server, ms *grpcavro.MessageSchema) {
	if ms != nil {
		registerMessages(s, func() any { return &grpcavro.Message{Schema: ms, Msg: dynamicpb.NewMessage(ms.Desc)} })
	}
}

// avroSchema is the Avro schema of md, or nil for none.
func avroSchema(md protoreflect.MessageDescriptor) (*grpcavro.MessageSchema, error) {
	if md == nil {
		return nil, nil
	}
	return grpcavro.NewMessageSchema(md)
}

var (
	_ usermsg.Echoer = (*ProtoClient)(nil)
	_ usermsg.Echoer = (*AvroClient)(nil)
)

// EchoMessage calls MessageService/Echo with m and decodes the answer into a new
// message of m's type.
func (c *ProtoClient) EchoMessage(ctx context.Context, m proto.Message) (proto.Message, error) {
	out := dynamicpb.NewMessage(m.ProtoReflect().Descriptor())
	if err := c.conn.Invoke(ctx, grpcproto.MessageEchoPath, m, out); err != nil {
		return nil, c.conn.Err(ctx, "MessageService/Echo", err)
	}
	return out, nil
}

// EchoMessage calls MessageService/Echo with m in Avro (the schema derived from m's
// type, grpcavro.NewMessageSchema) and decodes the answer into a new message.
func (c *AvroClient) EchoMessage(ctx context.Context, m proto.Message) (proto.Message, error) {
	if c.message == nil || c.message.Desc != m.ProtoReflect().Descriptor() {
		return nil, fmt.Errorf("%s MessageService/Echo: the client was made for no message type, or for another", grpcavro.Name)
	}
	in := &grpcavro.Message{Schema: c.message, Msg: m.ProtoReflect()}
	out := &grpcavro.Message{Schema: c.message, Msg: dynamicpb.NewMessage(c.message.Desc)}
	if err := c.conn.Invoke(ctx, grpcavro.MessageEchoPath, in, out); err != nil {
		return nil, c.conn.Err(ctx, "MessageService/Echo", err)
	}
	return out.Msg.Interface(), nil
}
