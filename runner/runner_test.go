package runner

import (
	"testing"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// A group's baseline is the suite's when it names one of the group's targets; else
// the first target across a wire, never the in-process floor; else the first.
func TestBaselineOf(t *testing.T) {
	bench := func(protocol, transport string) suite.Benchmark {
		s := spec.Default()
		s.Protocol, s.Transport = protocol, transport
		return suite.Benchmark{Name: s.Name(), Spec: s}
	}
	bs := []suite.Benchmark{bench("direct", spec.InProc), bench("grpc-proto", "tcp"), bench("capnp", "tcp")}
	group := []int{0, 1, 2}
	if got := baselineOf(&suite.Suite{}, bs, group); got != 1 {
		t.Errorf("no baseline: got target %d, want 1 (grpc-proto, the first across a wire)", got)
	}
	if got := baselineOf(&suite.Suite{Baseline: "capnp"}, bs, group); got != 2 {
		t.Errorf("baseline capnp: got target %d, want 2", got)
	}
	if got := baselineOf(&suite.Suite{}, bs, []int{0}); got != 0 {
		t.Errorf("only in-process targets: got %d, want 0", got)
	}
}
