package driver

import (
	"testing"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/spec"
)

// A benchmark of a suite that interleaves per server is in its server's group in the
// results, named after the stack the registry resolved (the spec leaves a default
// stack unnamed), and its name does not change.
func TestBenchmarkGroupPerServer(t *testing.T) {
	s := spec.Default()
	s.Protocol, s.Transport, s.Workload = "grpc-proto", spec.TCP, "person.get"
	s.ClientStack, s.InterleaveBy = "instrument", spec.InterleaveServer
	r, err := control.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	b := DescribeResolved(r)
	if want := "person.get/closed-c50 on grpc-proto/tcp server grpc-go"; b.Group != want {
		t.Errorf("group %q, want %q", b.Group, want)
	}
	if want := "grpc-proto[client=instrument]/tcp/person.get/closed-c50"; b.Name != want {
		t.Errorf("name %q, want %q", b.Name, want)
	}
	s.InterleaveBy = ""
	if r, err = control.Resolve(s); err != nil {
		t.Fatal(err)
	}
	if b := DescribeResolved(r); b.Group != "person.get/closed-c50" {
		t.Errorf("without interleave_by: group %q, want person.get/closed-c50", b.Group)
	}
}
