package connectgo

import (
	"context"
	"fmt"
	"net/http"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/protocol/grpcproto"
)

// initDynamic makes connect-go decode into a dynamic message of md: connect-go's
// generic handlers and clients allocate a zero dynamicpb.Message, which has no type
// until it is given one.
func initDynamic(md protoreflect.MessageDescriptor) func(connect.Spec, any) error {
	return func(_ connect.Spec, m any) error {
		dm, ok := m.(*dynamicpb.Message)
		if !ok {
			return fmt.Errorf("connect-go: message %T, want a dynamic %s", m, md.FullName())
		}
		*dm = *dynamicpb.NewMessage(md)
		return nil
	}
}

// handleMessages serves the message workload's echo on mux (grpcproto's
// MessageService/Echo, the same path in each of the three protocols), when the
// server was given a message type: the decoded request is the answer.
func handleMessages(mux *http.ServeMux, md protoreflect.MessageDescriptor, opts connect.HandlerOption) {
	if md == nil {
		return
	}
	mux.Handle(grpcproto.MessageEchoPath, connect.NewUnaryHandler(grpcproto.MessageEchoPath,
		func(_ context.Context, req *connect.Request[dynamicpb.Message]) (*connect.Response[dynamicpb.Message], error) {
			return connect.NewResponse(req.Msg), nil
		}, opts, connect.WithRequestInitializer(initDynamic(md))))
}

// messageClient is the client of the echo, made for the client's message type (nil
// when it has none).
func newMessageClient(hc *http.Client, base string, md protoreflect.MessageDescriptor, opts []connect.ClientOption) *connect.Client[dynamicpb.Message, dynamicpb.Message] {
	if md == nil {
		return nil
	}
	return connect.NewClient[dynamicpb.Message, dynamicpb.Message](hc, base+grpcproto.MessageEchoPath,
		append(opts, connect.WithResponseInitializer(initDynamic(md)))...)
}

var _ usermsg.Echoer = (*Client)(nil)

// EchoMessage calls MessageService/Echo with m, in the protocol's codec.
func (c *Client) EchoMessage(ctx context.Context, m proto.Message) (proto.Message, error) {
	const op = "MessageService/Echo"
	if c.closed.Load() {
		return nil, c.closedErr(op)
	}
	dm, ok := m.(*dynamicpb.Message)
	if !ok || c.message == nil {
		return nil, fmt.Errorf("%s %s: the client was made for no message type, or for another", c.proto, op)
	}
	out, err := c.message.CallUnary(ctx, connect.NewRequest(dm))
	if err != nil {
		return nil, c.fail(ctx, op, err)
	}
	return out.Msg, nil
}
