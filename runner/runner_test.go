package runner

import (
	"errors"
	"testing"
	"time"

	"github.com/wirebench/wirebench/plan"
	"github.com/wirebench/wirebench/results"
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

// forkPlan counts a group's forks as a resume sees them: an interleaved group's forks
// are the forks its targets run together, any other group's each target's forks; a
// failed target runs no more, and a summarized one has all of them.
func TestForkPlan(t *testing.T) {
	bench := func(protocol string, method string) suite.Benchmark {
		s := spec.Default()
		s.Protocol, s.Method, s.Forks = protocol, method, 3
		return suite.Benchmark{Name: s.Name(), Spec: s}
	}
	forks := func(n int, failed bool) []*results.Fork {
		var out []*results.Fork
		for i := range n {
			out = append(out, &results.Fork{Index: i})
		}
		if failed {
			out[n-1].Err = errors.New("failed")
		}
		return out
	}
	for _, c := range []struct {
		name                    string
		method                  string
		done                    []bool
		forks                   map[int][]*results.Fork
		wantTotal, wantFinished int
	}{
		{"interleaved, fresh", spec.MethodInterleaved, nil, nil, 3, 0},
		{"interleaved, 2 forks journaled", spec.MethodInterleaved, nil, map[int][]*results.Fork{0: forks(2, false), 1: forks(2, false)}, 3, 2},
		{"interleaved, one target failed in fork 1", spec.MethodInterleaved, nil, map[int][]*results.Fork{0: forks(1, true), 1: forks(2, false)}, 3, 2},
		{"interleaved, summarized", spec.MethodInterleaved, []bool{true, true}, nil, 3, 3},
		{"sequential, first done, second 1 fork", spec.MethodSequential, []bool{true, false}, map[int][]*results.Fork{1: forks(1, false)}, 6, 4},
		{"sequential, first failed in fork 2", spec.MethodSequential, nil, map[int][]*results.Fork{0: forks(2, true)}, 6, 3},
	} {
		bs := []suite.Benchmark{bench("grpc-proto", c.method), bench("capnp", c.method)}
		done := map[string]results.Benchmark{}
		for k, d := range c.done {
			if d {
				done[bs[k].Name] = results.Benchmark{Name: bs[k].Name}
			}
		}
		byName := map[string][]*results.Fork{}
		for k, f := range c.forks {
			byName[bs[k].Name] = f
		}
		total, finished, each := forkPlan(bs, []int{0, 1}, plan.Build(bs, nil).Groups()[0].Estimate(), done, byName)
		if total != c.wantTotal || finished != c.wantFinished {
			t.Errorf("%s: %d of %d forks finished, want %d of %d", c.name, finished, total, c.wantFinished, c.wantTotal)
		}
		if want := plan.Build(bs, nil).Groups()[0].Estimate() / time.Duration(total); each != want {
			t.Errorf("%s: %v a fork, want %v", c.name, each, want)
		}
	}
}

// The time left is the plan of the forks left, scaled by how the forks run so far
// kept to theirs: twice as slow as planned, twice as long.
func TestPaceLeft(t *testing.T) {
	p := &pace{forks: 4, todo: 40 * time.Second, start: time.Now()}
	if got := p.left(); got != 40*time.Second {
		t.Errorf("before any fork: %v left, want the plan's 40s", got)
	}
	p.finished(1, 10*time.Second)
	p.start = time.Now().Add(-20 * time.Second) // the fork took 20 s
	if got := p.left(); got < 60*time.Second || got > 61*time.Second {
		t.Errorf("after a fork planned at 10 s that took 20 s: %v left, want 60s (30s planned, at half the speed)", got)
	}
	p.add(2, 10*time.Second)
	if p.forks != 6 || p.done != 1 {
		t.Errorf("forks %d, done %d after adding 2: want 6 and 1", p.forks, p.done)
	}
	// Two forks settled without running leave 30 s of plan, still at half the speed.
	p.dropped(2, 10*time.Second)
	if got := p.left(); p.done != 3 || got < 60*time.Second || got > 61*time.Second {
		t.Errorf("after 2 forks not run: done %d, %v left; want 3 and 60s (30s planned, at half the speed)", p.done, got)
	}
	// References take their set time, whatever the forks' speed.
	p.refs = 2 * time.Second
	if got := p.left(); got < 62*time.Second || got > 63*time.Second {
		t.Errorf("with 2 s of references left: %v left, want 62s", got)
	}
	p.referenced(time.Second)
	p.referenced(5 * time.Second)
	if got := p.left(); p.refs != 0 || got < 60*time.Second || got > 61*time.Second {
		t.Errorf("references measured: %v of them and %v left, want none and 60s", p.refs, got)
	}
}
