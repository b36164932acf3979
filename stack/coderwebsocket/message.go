package coderwebsocket

import (
	"context"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/protocol/websocketproto"
)

// echoMessage is the server's side of echoMessage: the body decoded into a message
// of md, and that message encoded again as the answer's body.
func echoMessage(md protoreflect.MessageDescriptor, body json.RawMessage) (json.RawMessage, error) {
	m := dynamicpb.NewMessage(md)
	if err := protojson.Unmarshal(body, m); err != nil {
		return nil, contract.Errorf(contract.InvalidArgument, "%s body: %v", websocketproto.OpEchoMessage, err)
	}
	out, err := protojson.Marshal(m)
	if err != nil {
		return nil, err
	}
	return out, nil
}

var _ usermsg.Echoer = (*Client)(nil)

// EchoMessage calls echoMessage with m in the protobuf JSON mapping.
func (c *Client) EchoMessage(ctx context.Context, m proto.Message) (proto.Message, error) {
	in, err := protojson.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", websocketproto.Name, websocketproto.OpEchoMessage, err)
	}
	var raw json.RawMessage
	if err := c.call(ctx, websocketproto.OpEchoMessage, json.RawMessage(in), &raw); err != nil {
		return nil, err
	}
	out := dynamicpb.NewMessage(m.ProtoReflect().Descriptor())
	if err := protojson.Unmarshal(raw, out); err != nil {
		return nil, fmt.Errorf("%s %s: answer: %w", websocketproto.Name, websocketproto.OpEchoMessage, err)
	}
	return out, nil
}
