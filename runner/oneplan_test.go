package runner

import (
	"context"
	"testing"
	"time"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/plan"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// driverCalls records what the runner asks of the driver, and answers each target
// with its forks measured (clean forks, numbered from the call's first).
type driverCalls struct {
	batches [][]int // per call of RunBatch: the groups' sizes
	singles []int   // per call of RunGroup: the group's size
}

func (d *driverCalls) answer(specs []spec.Spec, opt driver.Options) []*results.Measured {
	out := make([]*results.Measured, len(specs))
	for k, s := range specs {
		out[k] = &results.Measured{Method: s.Method}
		for i := opt.FirstFork; i < opt.FirstFork+s.Forks; i++ {
			f := testFork(i, false)
			f.Err = nil
			out[k].Forks = append(out[k].Forks, f)
		}
	}
	return out
}

func (d *driverCalls) batch(_ context.Context, groups [][]spec.Spec, opts []driver.Options) [][]*results.Measured {
	var sizes []int
	out := make([][]*results.Measured, len(groups))
	for g, specs := range groups {
		sizes = append(sizes, len(specs))
		out[g] = d.answer(specs, opts[g])
	}
	d.batches = append(d.batches, sizes)
	return out
}

func (d *driverCalls) single(_ context.Context, specs []spec.Spec, opt driver.Options) []*results.Measured {
	d.singles = append(d.singles, len(specs))
	return d.answer(specs, opt)
}

// runPlanned carries out p with the driver's calls recorded.
func runPlanned(t *testing.T, s *suite.Suite, p *plan.Plan) *driverCalls {
	t.Helper()
	dir := t.TempDir()
	j, st, err := openJournal(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	calls := &driverCalls{}
	r := newGroupRuns(s, p, map[string]results.Benchmark{}, st, Options{Dir: dir}, j)
	r.batch, r.single = calls.batch, calls.single
	out := &Outcome{}
	if runErr, err := r.runPlan(context.Background(), out); runErr != nil || err != nil {
		t.Fatal(runErr, err)
	}
	if got := len(r.results(&results.Environment{}).Benchmarks); got != len(s.Benchmarks) {
		t.Errorf("%d results, want one per benchmark (%d)", got, len(s.Benchmarks))
	}
	return calls
}

// TestOnePlanDrivesEstimateAndRun: the estimate and the driver's schedule are the same
// value. Two groups of the same two Go targets share each fork's workers; split into
// two batches, the estimate grows by what a second start-up and cold warm-ups cost,
// and the driver is asked for two groups of their own instead of one batch.
//
// Counted by hand, per fork (2 forks), fixed 1 s warm-ups, 3 rounds of 100 ms
// (+2 ms a handover, +4.5 ms freezing the other target) per target, no JVM: the start
// 0.4 s + 4 processes × 60 ms = 0.64 s; shared, person.get 0.64 + 2 × 1 + 2 × 0.3195
// = 3.279 s and person.list on its workers 2 × 1 + 0.639 = 2.639 s; split, each group
// 3.279 s. Fixed warm-ups are the same warm or cold, so the difference is the second
// group's start, 0.64 s a fork: 2 × (3.279 + 2.639) = 11.836 s against 13.116 s.
func TestOnePlanDrivesEstimateAndRun(t *testing.T) {
	s, err := suite.Parse("t.yaml", []byte(`
defaults: {warmup: 1s, iterations: 3, duration: 100ms, forks: 2, keep_alive: 0s}
targets: [http-json, grpc-proto]
workloads: [person.get, person.list]
`))
	if err != nil {
		t.Fatal(err)
	}
	p := plan.Build(s.Benchmarks, nil)
	if len(p.Batches) != 1 || !p.Batches[0].Shared() {
		t.Fatalf("plan %+v: want the two groups in one batch", p.Batches)
	}
	if got, want := p.Estimate(), 11836*time.Millisecond; got != want {
		t.Errorf("shared estimate %v, counted %v", got, want)
	}
	calls := runPlanned(t, s, p)
	if len(calls.batches) != 1 || len(calls.batches[0]) != 2 || len(calls.singles) != 0 {
		t.Errorf("shared plan: driver asked for batches %v and groups %v; want one batch of two groups", calls.batches, calls.singles)
	}

	// The same plan, its batch split in two by hand.
	p.Batches = []plan.Batch{{Groups: p.Batches[0].Groups[:1]}, {Groups: p.Batches[0].Groups[1:]}}
	// A group of its own starts its workers: two Go targets, a server and a client each.
	p.Batches[1].Groups[0].Fork.Start = plan.StartOverhead + 4*plan.ProcessStartOverhead
	if got, want := p.Estimate(), 13116*time.Millisecond; got != want {
		t.Errorf("split estimate %v, counted %v", got, want)
	}
	calls = runPlanned(t, s, p)
	if len(calls.batches) != 0 || len(calls.singles) != 2 {
		t.Errorf("split plan: driver asked for batches %v and groups %v; want two groups of their own", calls.batches, calls.singles)
	}
}

// A resumed group runs in a batch of its own, on new workers: the plan counts its
// start, and the rest of the batch still shares.
func TestPlanResumedGroupAlone(t *testing.T) {
	s, err := suite.Parse("t.yaml", []byte(`
defaults: {warmup: 1s, iterations: 3, duration: 100ms, forks: 2, keep_alive: 0s}
targets: [http-json, grpc-proto]
workloads: [person.get, person.list, person.links]
`))
	if err != nil {
		t.Fatal(err)
	}
	first := s.Benchmarks[0].Name // person.get over http-json
	p := plan.Build(s.Benchmarks, func(name string) bool { return name == first })
	if len(p.Batches) != 2 || p.Batches[0].Shared() || len(p.Batches[1].Groups) != 2 {
		t.Fatalf("batches of %d, %d groups; want the resumed group alone, then two sharing", len(p.Batches[0].Groups), len(p.Batches[1].Groups))
	}
	if p.Batches[1].Groups[0].Fork.Start != plan.StartOverhead+4*plan.ProcessStartOverhead || p.Batches[1].Groups[1].Fork.Start != 0 {
		t.Errorf("starts %v, %v: the second batch starts its workers once", p.Batches[1].Groups[0].Fork.Start, p.Batches[1].Groups[1].Fork.Start)
	}
}
