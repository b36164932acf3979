package runner

import (
	"context"
	"errors"
	"testing"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
)

// A resume forgets what failed: a fork that failed and the summary of a benchmark
// that failed are measured again; the forks that finished stay.
func TestResumeRetriesFailedForks(t *testing.T) {
	st := newJournalState()
	ok0, ok1 := cleanForks(2)[0], cleanForks(2)[1]
	failed := cleanForks(3)[2]
	failed.Err = &results.ForkError{Fork: 2, Phase: "round 3", Err: errors.New("worker gone")}
	st.forks["a"] = []*results.Fork{ok0, ok1, failed}
	st.benchmarks = []results.Benchmark{
		{Name: "a", Warnings: results.Warnings{results.Failure(failed.Err)}},
		{Name: "b"},
	}
	st.retryFailed()
	if got := st.forks["a"]; len(got) != 2 || got[0] != ok0 || got[1] != ok1 {
		t.Errorf("forks after retryFailed: %v, want the two that finished", got)
	}
	if len(st.benchmarks) != 1 || st.benchmarks[0].Name != "b" {
		t.Errorf("summaries after retryFailed: %v, want b's only (a failed)", st.benchmarks)
	}
}

// An interleaved group whose target lacks forks the others have (its failed fork
// dropped on resume) measures that many more forks of every target, numbered on from
// the group's last: a has forks 0-2 of 3, b forks 0 and 1 (its fork 2 failed), so
// forks 3 of both run, and b ends with 3 forks, a with 4.
func TestRunForksMakesUpAFailedTargetsForks(t *testing.T) {
	a, b := planBench("grpc-proto", spec.MethodInterleaved).Spec, planBench("capnp", spec.MethodInterleaved).Spec
	prev := []*results.Measured{{Forks: cleanForks(3)}, {Forks: cleanForks(2)}}
	var firsts, counts []int
	run := func(_ context.Context, specs []spec.Spec, opt driver.Options) []*results.Measured {
		firsts, counts = append(firsts, opt.FirstFork), append(counts, specs[0].Forks)
		calls := &driverCalls{}
		return calls.answer(specs, opt)
	}
	out := runForks(context.Background(), run, []spec.Spec{a, b}, driver.Options{}, prev, 3)
	if len(firsts) != 1 || firsts[0] != 3 || counts[0] != 1 {
		t.Fatalf("driver asked for forks from %v, %v of them; want one call from fork 3, 1 fork", firsts, counts)
	}
	if len(out[0].Forks) != 4 || len(out[1].Forks) != 3 || out[1].Forks[2].Index != 3 {
		t.Errorf("a has %d forks, b %d; want 4 and 3, b's last numbered 3", len(out[0].Forks), len(out[1].Forks))
	}
}
