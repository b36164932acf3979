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
