package thriftgo

import (
	"context"

	"github.com/apache/thrift/lib/go/thrift"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
)

// echoMessage is the processor function of thriftrpc.MessageMethod, added to the
// generated processor's map when the server has a message type: it reads the
// argument struct into a dynamic message of md and answers with that message, as a
// generated processor function does for a method of the IDL (a request that does not
// decode gets a PROTOCOL_ERROR exception and ends the connection).
type echoMessage struct {
	md protoreflect.MessageDescriptor
}

func (e echoMessage) Process(ctx context.Context, seqID int32, in, out thrift.TProtocol) (bool, thrift.TException) {
	args := thriftrpc.MessageArgs{Msg: dynamicpb.NewMessage(e.md)}
	if err := args.Read(ctx, in); err != nil {
		in.ReadMessageEnd(ctx)
		x := thrift.NewTApplicationException(thrift.PROTOCOL_ERROR, err.Error())
		out.WriteMessageBegin(ctx, thriftrpc.MessageMethod, thrift.EXCEPTION, seqID)
		x.Write(ctx, out)
		out.WriteMessageEnd(ctx)
		out.Flush(ctx)
		return false, thrift.WrapTException(err)
	}
	if err := in.ReadMessageEnd(ctx); err != nil {
		return false, thrift.WrapTException(err)
	}
	result := thriftrpc.MessageResult{Msg: args.Msg}
	if err := out.WriteMessageBegin(ctx, thriftrpc.MessageMethod, thrift.REPLY, seqID); err != nil {
		return false, thrift.WrapTException(err)
	}
	if err := result.Write(ctx, out); err != nil {
		return false, thrift.WrapTException(err)
	}
	if err := out.WriteMessageEnd(ctx); err != nil {
		return false, thrift.WrapTException(err)
	}
	if err := out.Flush(ctx); err != nil {
		return false, thrift.WrapTException(err)
	}
	return true, nil
}

var _ usermsg.Echoer = (*Client)(nil)

// EchoMessage calls echoMessage with m on a connection of the pool, through the
// generated client's TClient (the method is not in the IDL: its types are the user's).
func (c *Client) EchoMessage(ctx context.Context, m proto.Message) (proto.Message, error) {
	k, err := c.begin(ctx, thriftrpc.MessageMethod)
	if err != nil {
		return nil, err
	}
	args := thriftrpc.MessageArgs{Msg: m.ProtoReflect()}
	result := thriftrpc.MessageResult{Msg: dynamicpb.NewMessage(m.ProtoReflect().Descriptor())}
	_, err = k.cn.wb.Client_().Call(ctx, thriftrpc.MessageMethod, &args, &result)
	if err = k.end(err); err != nil {
		return nil, err
	}
	return result.Msg.Interface(), nil
}
