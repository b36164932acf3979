package suite

import (
	"strings"
	"testing"
)

// SetTransport moves the benchmarks across a wire (renamed after their new transport),
// leaves direct in process, with tlsOnly turns tcp into tls and leaves unix, and
// refuses a transport a stack cannot take, leaving the suite as it was.
func TestSetTransport(t *testing.T) {
	names := func(s *Suite) string {
		var out []string
		for _, b := range s.Benchmarks {
			out = append(out, b.Name)
		}
		return strings.Join(out, " ")
	}
	load := func() *Suite {
		s, err := Parse("t.yaml", []byte("name: t\ndescription: d\ntargets:\n  - {protocol: http-json, transports: [tcp, unix]}\n  - protocol: direct\nworkloads: [person.get]\n"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := load()
	if err := s.SetTransport("", true); err != nil {
		t.Fatal(err)
	}
	if got, want := names(s), "http-json/tls/person.get/closed-c50 http-json/unix/person.get/closed-c50 direct/inproc/person.get/closed-c50"; got != want {
		t.Errorf("--tls: %s, want %s", got, want)
	}
	// tcp and unix both on tls become one benchmark, run once.
	s = load()
	if err := s.SetTransport("tls", false); err != nil {
		t.Fatal(err)
	}
	if got, want := names(s), "http-json/tls/person.get/closed-c50 direct/inproc/person.get/closed-c50"; got != want {
		t.Errorf("--transport tls: %s, want %s", got, want)
	}
	s = load()
	before := names(s)
	if err := s.SetTransport("quic", false); err == nil || !strings.Contains(err.Error(), "http-json/tcp/person.get/closed-c50 on quic") {
		t.Errorf("quic: %v", err)
	}
	if names(s) != before {
		t.Errorf("a refused transport changed the suite: %s", names(s))
	}
}
