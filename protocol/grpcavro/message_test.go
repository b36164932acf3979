package grpcavro

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/contract/usermsg"
)

// TestMessageRoundTrip encodes generated messages of the schema holding every kind
// (contract/usermsg/testdata/allkinds.proto) in the derived Avro schema and decodes
// them back equal, as proto.Equal sees them.
func TestMessageRoundTrip(t *testing.T) {
	s, err := usermsg.Load(context.Background(), usermsg.Source{
		Proto: "../../contract/usermsg/allkinds.proto", Message: "wbtest.v1.AllKinds",
		Seed: 7, Count: 8, Shape: usermsg.Shape{StringLen: 5, BytesLen: 3, Repeated: 3}})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := NewMessageSchema(s.Desc)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range s.Messages {
		b, err := ms.Encode(nil, m.ProtoReflect())
		if err != nil {
			t.Fatalf("message %d: encode: %v", i, err)
		}
		got := dynamicpb.NewMessage(s.Desc)
		if err := ms.Decode(b, got); err != nil {
			t.Fatalf("message %d: decode: %v", i, err)
		}
		if !proto.Equal(got, m) {
			t.Fatalf("message %d: decoded differs:\n got %v\nwant %v", i, got, m)
		}
	}
	if err := ms.Decode([]byte{0xff, 0xff}, dynamicpb.NewMessage(s.Desc)); err == nil {
		t.Fatal("garbage decoded without an error")
	}
}
