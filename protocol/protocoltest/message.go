package protocoltest

import (
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/conform"
	"github.com/wirebench/wirebench/protocol/transport"
)

// carriesMessages reports whether both stacks carry a user's message (the message
// workload), and says so in the log when not.
func carriesMessages(t *testing.T, name, server, client string) bool {
	s, c := stackPair(t, name, server, client)
	p, _ := protocol.Lookup(name)
	if p.InProcess || !s.CarriesMessages(protocol.ServerSide) || !c.CarriesMessages(protocol.ClientSide) {
		t.Logf("%s: %s server and %s client do not both carry a user's message: no message workload test", name, s.Name, c.Name)
		return false
	}
	return true
}

// AllKinds is the message workload's conformance schema (usermsg.AllKindsProto) with
// generated messages: each oneof member in turn, strings, bytes, lists and maps
// non-empty, and the empty message.
func AllKinds(t testing.TB) *usermsg.Schema {
	t.Helper()
	s, err := usermsg.AllKinds(Context(t), t.TempDir(), 1, 5, usermsg.Shape{StringLen: 12, BytesLen: 9, Repeated: 3})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testMessage echoes every message of the conformance schema through a server and a
// client given its type, each answer equal to what was sent, with bytes counted both
// ways; then runs the message workload's op, as a benchmark does; and a client of the
// type against a server given none (tg's) fails rather than answering.
func testMessage(t *testing.T, tg *Target) {
	s := AllKinds(t)
	mt := tg.again(t, nil, protocol.ServerConfig{Message: s.Desc})
	counter := new(transport.Counter)
	cl := mt.ClientConfig(t, protocol.ClientConfig{Message: s.Desc}, counter)
	diffs, err := conform.CheckMessages(Context(t), cl, s, conform.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diffs {
		t.Errorf("%s", d)
	}
	if sent, recv := counter.Sent(), counter.Received(); sent == 0 || recv == 0 {
		t.Errorf("bytes counted: sent %d, received %d; want both above 0", sent, recv)
	}
	w, err := contract.LookupWorkload("message")
	if err != nil {
		t.Fatal(err)
	}
	op, err := w.New(contract.Params{Messages: s}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for seq := range uint64(len(s.Messages)) {
		if err := op(Context(t), cl, seq); err != nil {
			t.Fatalf("message workload op %d: %v", seq, err)
		}
	}
	plain := tg.ClientConfig(t, protocol.ClientConfig{Message: s.Desc}, nil)
	if _, err := plain.(usermsg.Echoer).EchoMessage(Context(t), s.Messages[0]); err == nil {
		t.Error("a server given no message type answered EchoMessage")
	}
}
