package runner

// Focused tests of the run's plan, kept apart from the CLI-driven tests of run_test.go:
// the forks a group counts (forkPlan), the pace that adds them up (newPace, finished,
// add), the refusal of a resume measured otherwise (sameSettings), and the results of
// a group an interruption cut short (partialGroup). Every expected value is worked out
// in the comments from the specs' settings, not from the code under test.

import (
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/plan"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	_ "github.com/wirebench/wirebench/stack/all" // summaries resolve their stacks
	"github.com/wirebench/wirebench/suite"
)

// planBench is a benchmark of protocol with 1 s of warmup, 2 rounds of 1 s and 3
// forks, measured by method: a fork of it on its own is planned at
// 1 s + 2 × (1 s + PhaseOverhead) + StartOverhead + its two processes'
// ProcessStartOverhead (no JVM worker).
func planBench(protocol, method string) suite.Benchmark {
	s := spec.Default()
	s.Protocol, s.Method = protocol, method
	s.Warmup, s.Rounds, s.SliceTime, s.Forks = time.Second, 2, time.Second, 3
	return suite.Benchmark{Name: s.Name(), Spec: s}
}

// cleanForks are forks 0..n-1 of a closed-loop benchmark, none failed.
func cleanForks(n int) []*results.Fork {
	var out []*results.Fork
	for i := range n {
		f := testFork(i, false)
		f.Err = nil
		out = append(out, f)
	}
	return out
}

// target is the planned time of one target in one fork: warmup and two rounds;
// paired, the same in an interleaved pair, whose handovers freeze the other target
// (FreezeOverhead); procs, starting a Go target's server and client processes.
const (
	target = time.Second + 2*(time.Second+plan.PhaseOverhead)
	paired = time.Second + 2*(time.Second+plan.PhaseOverhead+plan.FreezeOverhead)
	procs  = 2 * plan.ProcessStartOverhead
)

func TestForkPlanCases(t *testing.T) {
	capacity := planBench("grpc-proto", spec.MethodSequential)
	capacity.Spec.Capacity = spec.DefaultCapacity()
	for _, c := range []struct {
		name                    string
		bs                      []suite.Benchmark
		done                    []bool
		forks                   map[int][]*results.Fork
		wantTotal, wantFinished int
		wantEach                time.Duration
	}{
		// A capacity search is one fork, finished once summarized; planned at its
		// warmup, its budget and a start.
		{"capacity, fresh", []suite.Benchmark{capacity}, nil, nil, 1, 0,
			time.Second + spec.DefaultCapacityBudget + plan.StartOverhead},
		{"capacity, summarized", []suite.Benchmark{capacity}, []bool{true}, nil, 1, 1,
			time.Second + spec.DefaultCapacityBudget + plan.StartOverhead},
		// One benchmark whose method says interleaved has nothing to interleave
		// with: its 3 forks, 2 of them journaled.
		{"alone, interleaved method", []suite.Benchmark{planBench("grpc-proto", spec.MethodInterleaved)}, nil,
			map[int][]*results.Fork{0: cleanForks(2)}, 3, 2, target + plan.StartOverhead + procs},
		// --precision journaled more forks than its forks setting: the plan's 3 are all
		// finished, not 5.
		{"interleaved, forks beyond the plan", []suite.Benchmark{planBench("grpc-proto", spec.MethodInterleaved), planBench("capnp", spec.MethodInterleaved)}, nil,
			map[int][]*results.Fork{0: cleanForks(5), 1: cleanForks(5)}, 3, 3, 2*paired + plan.StartOverhead + 2*procs},
		// Sequential: each target's own forks, capped at its forks setting: 3 + 1.
		{"sequential, forks beyond the plan", []suite.Benchmark{planBench("grpc-proto", spec.MethodSequential), planBench("capnp", spec.MethodSequential)}, nil,
			map[int][]*results.Fork{0: cleanForks(4), 1: cleanForks(1)}, 6, 4, target + plan.StartOverhead + procs},
	} {
		done := map[string]results.Benchmark{}
		group := make([]int, len(c.bs))
		for k := range c.bs {
			group[k] = k
			if k < len(c.done) && c.done[k] {
				done[c.bs[k].Name] = results.Benchmark{Name: c.bs[k].Name}
			}
		}
		byName := map[string][]*results.Fork{}
		for k, f := range c.forks {
			byName[c.bs[k].Name] = f
		}
		total, finished, each := forkPlan(c.bs, group, plan.Build(c.bs, nil).Groups()[0].Estimate(), done, byName)
		if total != c.wantTotal || finished != c.wantFinished || each != c.wantEach {
			t.Errorf("%s: %d of %d forks finished, %v each; want %d of %d, %v each", c.name, finished, total, each, c.wantFinished, c.wantTotal, c.wantEach)
		}
	}
}

// The pace adds up the groups' plans, and counts forks finished and added.
func TestPaceArithmetic(t *testing.T) {
	bs := []suite.Benchmark{
		planBench("http-json", spec.MethodSequential),
		planBench("grpc-proto", spec.MethodInterleaved), planBench("capnp", spec.MethodInterleaved),
	}
	// http-json alone: 3 forks of target + StartOverhead + its processes, 2 journaled.
	// The interleaved pair: 3 forks of 2 paired targets + StartOverhead + their
	// processes, none journaled.
	forks := map[string][]*results.Fork{bs[0].Name: cleanForks(2)}
	alone, pair := target+plan.StartOverhead+procs, 2*paired+plan.StartOverhead+2*procs
	p := newPace(plan.Build(bs, nil), map[string]results.Benchmark{}, forks)
	if p.forks != 6 || p.done != 2 {
		t.Errorf("forks %d, done %d; want 6 (3 + 3) and 2", p.forks, p.done)
	}
	if want := alone + 3*pair; p.todo != want {
		t.Errorf("planned time left %v, want %v (one fork alone, three of the pair)", p.todo, want)
	}
	if got := p.left(); got != p.todo {
		t.Errorf("before any fork of this run: %v left, want the plan's %v", got, p.todo)
	}
	p.finished(1, alone)
	if p.done != 3 || p.todo != 3*pair || p.planned != alone {
		t.Errorf("after http-json's last fork: done %d, left %v, planned %v; want 3, %v, %v", p.done, p.todo, p.planned, 3*pair, alone)
	}
	// --precision adds 3 forks to the pair's plan.
	p.add(3, pair)
	if p.forks != 9 || p.todo != 6*pair {
		t.Errorf("after adding 3 forks: %d forks, %v left; want 9 and %v", p.forks, p.todo, 6*pair)
	}
	// More forks reported finished than planned leave nothing to do, never less.
	p.finished(7, pair)
	if p.done != 10 || p.todo != 0 || p.planned != alone+7*pair {
		t.Errorf("after 7 forks of the pair: done %d, left %v, planned %v; want 10, 0, %v", p.done, p.todo, p.planned, alone+7*pair)
	}
	if got := p.left(); got != 0 {
		t.Errorf("nothing planned left: %v, want 0", got)
	}
}

// A resume is refused when a benchmark, journaled (forks) or summarized (done), was
// measured otherwise than the suite now asks; a benchmark the journal does not hold
// may change freely.
func TestSameSettingsRefusesAChangedResume(t *testing.T) {
	b := planBench("grpc-proto", spec.MethodSequential) // 1 s warmup, 2 rounds of 1 s
	const asked = "1 s warmup and 2 rounds of 1 s slices"
	smoke := planBench("grpc-proto", spec.MethodSequential)
	smoke.Spec.Rounds = 1
	ops := planBench("grpc-proto", spec.MethodSequential)
	ops.Spec.SliceTime, ops.Spec.SliceOps = 0, 1000
	adaptive := planBench("grpc-proto", spec.MethodSequential)
	adaptive.Spec.WarmupMax = 30 * time.Second
	for _, c := range []struct {
		name  string
		b     suite.Benchmark
		done  *results.Benchmark
		forks string
		was   string // "" when the resume goes on
	}{
		{"journaled the same", b, nil, asked, ""},
		// A journal written before 2026-11-29 says iterations for rounds.
		{"journaled the same by an earlier build", b, nil, "1 s warmup and 2 iterations of 1 s", ""},
		{"journaled with 1 round", smoke, nil, asked, asked},
		{"journaled by an earlier build, 1 round now", smoke, nil, "1 s warmup and 2 iterations of 1 s", "1 s warmup and 2 iterations of 1 s"},
		// One round was written "1 rounds" before 2026-11-29, "1 iteration" before that.
		{"journaled 1 rounds by an earlier build", smoke, nil, "1 s warmup and 1 rounds of 1 s slices", ""},
		{"journaled 1 iterations by an earlier build", smoke, nil, "1 s warmup and 1 iterations of 1 s", ""},
		{"journaled 1 rounds by an earlier build, 2 now", b, nil, "1 s warmup and 1 rounds of 1 s slices", "1 s warmup and 1 rounds of 1 s slices"},
		{"not journaled", smoke, nil, "", ""},
		{"summarized the same", b, &results.Benchmark{WarmupSeconds: 1, Rounds: 2, SliceSeconds: 1}, "", ""},
		// The summary wins over forks journaled before it.
		{"summarized, ops now", ops, &results.Benchmark{WarmupSeconds: 1, Rounds: 2, SliceSeconds: 1},
			"1 s warmup and 2 rounds of 1000 ops slices", asked},
		{"summarized, adaptive warmup now", adaptive, &results.Benchmark{WarmupSeconds: 1, Rounds: 2, SliceSeconds: 1}, "", asked},
	} {
		done := map[string]results.Benchmark{}
		if c.done != nil {
			done[c.b.Name] = *c.done
		}
		forks := map[string]string{}
		if c.forks != "" {
			forks[c.b.Name] = c.forks
		}
		err := sameSettings("out", []suite.Benchmark{c.b}, done, forks)
		switch {
		case c.was == "" && err != nil:
			t.Errorf("%s: %v, want the resume to go on", c.name, err)
		case c.was != "" && err == nil:
			t.Errorf("%s: resume allowed, want it refused", c.name)
		case c.was != "" && !strings.Contains(err.Error(), "out holds "+c.b.Name+" measured with "+c.was+", but this run asks for "):
			t.Errorf("%s: %v, want it to name %s and %q", c.name, err, c.b.Name, c.was)
		}
	}
	// What each changed benchmark is asked for, written out.
	for _, c := range []struct {
		b    suite.Benchmark
		want string
	}{
		{smoke, "1 s warmup and 1 round of 1 s slices"},
		{ops, "1 s warmup and 2 rounds of 1000 ops slices"},
		{adaptive, "1 to 30 s adaptive warmup and 2 rounds of 1 s slices"},
	} {
		err := sameSettings("out", []suite.Benchmark{c.b}, nil, map[string]string{c.b.Name: "something else"})
		if err == nil || !strings.Contains(err.Error(), "this run asks for "+c.want+" (") {
			t.Errorf("%s: %v, want it to say the run asks for %q", c.b.Name, err, c.want)
		}
	}
}

// partialGroup keeps what the finished forks of a group cut short measured, each with
// a warning counting its forks: a sequential benchmark's own, an interleaved group's
// forks of all its targets together.
func TestPartialGroupWarnings(t *testing.T) {
	s := &suite.Suite{}
	t.Run("sequential", func(t *testing.T) {
		bs := []suite.Benchmark{planBench("grpc-proto", spec.MethodSequential), planBench("capnp", spec.MethodSequential), planBench("http-json", spec.MethodSequential)}
		// grpc-proto summarized, capnp 2 of its 3 forks, http-json none.
		done := map[string]results.Benchmark{bs[0].Name: {Name: bs[0].Name}}
		forks := map[string][]*results.Fork{bs[0].Name: cleanForks(3), bs[1].Name: cleanForks(2)}
		out := partialGroup(s, bs, []int{0, 1, 2}, done, forks)
		if len(out) != 1 || out[0].Name != bs[1].Name {
			t.Fatalf("%d results, want capnp's alone", len(out))
		}
		want := "interrupted: 2 of its 3 forks finished; resuming the run (run --resume) measures the rest"
		if !hasWarning(out[0], want) {
			t.Errorf("warnings %q, want %q", out[0].Warnings, want)
		}
		if out[0].Summary.Relative != nil {
			t.Errorf("a benchmark alone has a ratio: %+v", out[0].Summary.Relative)
		}
	})
	t.Run("interleaved", func(t *testing.T) {
		bs := []suite.Benchmark{planBench("grpc-proto", spec.MethodInterleaved), planBench("capnp", spec.MethodInterleaved)}
		// Fork 1 finished for grpc-proto, not yet for capnp: the group has 2 of
		// its 3 forks (one past the highest index).
		forks := map[string][]*results.Fork{bs[0].Name: cleanForks(2), bs[1].Name: cleanForks(1)}
		out := partialGroup(s, bs, []int{0, 1}, map[string]results.Benchmark{}, forks)
		if len(out) != 2 {
			t.Fatalf("%d results, want both targets'", len(out))
		}
		want := "interrupted: 2 of its group's 3 forks finished; resuming the run (run --resume) measures the rest"
		for _, b := range out {
			if !hasWarning(b, want) {
				t.Errorf("%s: warnings %q, want %q", b.Name, b.Warnings, want)
			}
		}
		// The targets are compared with each other: capnp against grpc-proto, the
		// first across a wire.
		if out[1].Summary.Relative == nil {
			t.Error("capnp has no ratio to grpc-proto")
		}
	})
	t.Run("nothing finished", func(t *testing.T) {
		bs := []suite.Benchmark{planBench("grpc-proto", spec.MethodInterleaved), planBench("capnp", spec.MethodInterleaved)}
		if out := partialGroup(s, bs, []int{0, 1}, map[string]results.Benchmark{}, nil); out != nil {
			t.Errorf("%d results of a group without a finished fork, want none", len(out))
		}
	})
}

func hasWarning(b results.Benchmark, w string) bool {
	for _, x := range b.Warnings {
		if x.String() == w {
			return true
		}
	}
	return false
}
