package httpjson

import (
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/contract"
)

// The message workload's route: POST /message/echo with a user's own message as its
// body, in the protobuf JSON mapping (protojson, as Connect's and grpc-gateway's JSON:
// lowerCamelCase field names, int64 and uint64 as strings, bytes as base64, enums by
// name, well-known types in their JSON forms), answered with the decoded message
// encoded again (200, application/json). A body that is not the message is 400
// (invalid_argument). Served only by servers given a message type
// (protocol.ServerConfig.Message).
const (
	PathMessageEcho = "/message/echo"
	OpMessageEcho   = "message echo"
)

// EchoMessageBody is the server's side of the route: the body decoded into a message
// of md, and that message encoded again.
func EchoMessageBody(md protoreflect.MessageDescriptor, body []byte) ([]byte, *contract.Error) {
	m := dynamicpb.NewMessage(md)
	if err := protojson.Unmarshal(body, m); err != nil {
		return nil, BadBody(err)
	}
	out, err := protojson.Marshal(m)
	if err != nil {
		return nil, &contract.Error{Code: contract.Internal, Message: "encoding the answer: " + err.Error()}
	}
	return out, nil
}

// DecodeMessage is the client's side: an answer's body decoded into a new message of
// sent's type.
func DecodeMessage(sent proto.Message, body []byte) (proto.Message, error) {
	out := dynamicpb.NewMessage(sent.ProtoReflect().Descriptor())
	if err := protojson.Unmarshal(body, out); err != nil {
		return nil, DecodeFailed(OpMessageEcho, err)
	}
	return out, nil
}
