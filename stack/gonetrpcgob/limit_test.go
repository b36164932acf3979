package gonetrpcgob_test

import (
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/netrpcgob"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

// A request over the server's limit is refused with resource_exhausted (the
// conformance suite only asks that it fails), and the server serves new connections.
func TestRequestOverServerLimit(t *testing.T) {
	tg := protocoltest.Start(t, netrpcgob.Name, "tcp", nil, protocol.ServerConfig{MaxMessageSize: 1 << 20})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	// The limit with its envelope passes; twice the limit does not.
	if got, err := cl.Echo(ctx, contract.Payload(1<<20)); err != nil || len(got) != 1<<20 {
		t.Fatalf("Echo of the limit: %d bytes, %v", len(got), err)
	}
	_, err := cl.Echo(ctx, contract.Payload(2<<20))
	if contract.CodeOf(err) != contract.ResourceExhausted {
		t.Errorf("Echo of 2 MiB to a server limited to 1 MiB: %v, want resource_exhausted", err)
	}
	if _, err := tg.Client(t, nil).GetPerson(ctx, 1); err != nil {
		t.Errorf("GetPerson on a new client: %v", err)
	}
}

// An answer over the client's limit fails with resource_exhausted, refused from its
// length.
func TestAnswerOverClientLimit(t *testing.T) {
	tg := protocoltest.Start(t, netrpcgob.Name, "tcp", nil, protocol.ServerConfig{})
	ctx := protocoltest.Context(t)
	cl := tg.ClientConfig(t, protocol.ClientConfig{MaxMessageSize: 1 << 20}, nil)
	if _, err := cl.Echo(ctx, contract.Payload(2<<20)); contract.CodeOf(err) != contract.ResourceExhausted {
		t.Errorf("an answer of 2 MiB to a client limited to 1 MiB: %v, want resource_exhausted", err)
	}
}
