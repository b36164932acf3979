package outside

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/contract"
)

// rpc is what the gRPC and Connect clients share: the method, its requests, and the
// check of its replies.
type rpc struct {
	md     protoreflect.MethodDescriptor
	reqs   []*dynamicpb.Message
	expect *expectation
}

// request is the op seq's request: the data's messages taken in turn.
func (r *rpc) request(seq uint64) *dynamicpb.Message { return r.reqs[seq%uint64(len(r.reqs))] }

// checkReply checks one reply against --expect (as protojson, names as in the
// .proto, so an expectation is written as the data is).
func (r *rpc) checkReply(m *dynamicpb.Message) error {
	if r.expect == nil {
		return nil
	}
	b, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
	if err != nil {
		return fmt.Errorf("%w: the reply does not encode as JSON: %v", contract.ErrWrongAnswer, err)
	}
	return r.expect.check(b)
}

// streamEnd is the end of a stream that has carried n replies: a wrong answer when a
// server-streaming method carried none and an expectation was given (nothing was
// checked then).
func (r *rpc) streamEnd(n int) error {
	if n == 0 && r.expect != nil {
		return fmt.Errorf("%w: the stream carried no reply to check against --expect", contract.ErrWrongAnswer)
	}
	return nil
}

var errNoReply = errors.New("no reply")
