package spec

import "testing"

// RoundsGroup is Group for a suite that interleaves a whole group, and names the server
// for one that interleaves per server, so that two servers' clients never share rounds.
func TestRoundsGroup(t *testing.T) {
	s := Default()
	s.Protocol, s.Transport, s.Workload = "grpc-proto", TCP, "person.get"
	if got, want := s.RoundsGroup("tonic"), "person.get/closed-c50"; got != want {
		t.Errorf("without interleave_by: %q, want %q", got, want)
	}
	s.InterleaveBy = InterleaveServer
	for _, c := range []struct {
		server  string
		options map[string]string
		want    string
	}{
		{"tonic", nil, "person.get/closed-c50 on grpc-proto/tcp server tonic"},
		{"", nil, "person.get/closed-c50 on grpc-proto/tcp server default"},
		// Server options make another server: sorted k=v, after the stack.
		{"grpc-go", map[string]string{"b": "2", "a": "1"}, "person.get/closed-c50 on grpc-proto/tcp server grpc-go (a=1,b=2)"},
	} {
		s.ServerOptions = c.options
		if got := s.RoundsGroup(c.server); got != c.want {
			t.Errorf("RoundsGroup(%q) with %v = %q, want %q", c.server, c.options, got, c.want)
		}
	}
	s.ServerOptions = nil
	if got, want := s.Name(), "grpc-proto/tcp/person.get/closed-c50"; got != want {
		t.Errorf("Name() = %q, want %q: the rounds' key stays out of the name", got, want)
	}
	s.InterleaveBy = "client"
	if err := s.Validate(); err == nil {
		t.Error("Validate accepted interleave_by client")
	}
}

// An outside server's series is named by its address and call, so that it is never
// merged with wirebench's own server of the same protocol and workload, nor with
// another server or call.
func TestNameOfAnOutsideCall(t *testing.T) {
	s := Default()
	s.Protocol, s.Transport, s.Workload = "grpc-proto", TCP, CallWorkload
	s.Address = "tcp://127.0.0.1:50051"
	s.Call = &Call{Kind: CallRPC, Method: "helloworld.Greeter/SayHello", Schema: []byte{0}}
	if got, want := s.Name(), "grpc-proto[target=127.0.0.1:50051,call=helloworld.Greeter.SayHello]/tcp/call/closed-c50"; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}
	s.Call = &Call{Kind: CallHTTP, HTTPMethod: "POST", Path: "/v1/hello?x=1,2&y=a/b"}
	if got, want := s.Series(), "grpc-proto[target=127.0.0.1:50051,call=POST v1.hello?x=1;2&y=a.b]"; got != want {
		t.Errorf("Series() = %q, want %q", got, want)
	}
	if err := s.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	s.Workload = "echo"
	if err := s.Validate(); err == nil {
		t.Error("an outside call under a contract workload validates")
	}
	s.Workload, s.Call = CallWorkload, nil
	if err := s.Validate(); err == nil {
		t.Error("the call workload without a call validates")
	}
}
