package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
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
	batches [][]int // per call of MeasureBatch: the groups' sizes
	singles []int   // per call of MeasureGroup: the group's size
	// order is every call in turn: "reference", "batch" or "group".
	order []string
	// refs are the references' lengths and CPUs, per call of MeasureReference.
	refs []time.Duration
	cpus [][]int
}

// reference answers a reference with a speed of 1000 ops/s per call so far.
func (d *driverCalls) reference(_ context.Context, length time.Duration, cpus []int) (*results.ReferenceSample, error) {
	d.order = append(d.order, "reference")
	d.refs, d.cpus = append(d.refs, length), append(d.cpus, cpus)
	return &results.ReferenceSample{At: time.Now(), OpsS: 1000 * float64(len(d.refs)), Seconds: length.Seconds(),
		Workload: results.ReferenceWorkload}, nil
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
	d.order = append(d.order, "batch")
	return out
}

func (d *driverCalls) single(_ context.Context, specs []spec.Spec, opt driver.Options) []*results.Measured {
	d.singles = append(d.singles, len(specs))
	d.order = append(d.order, "group")
	return d.answer(specs, opt)
}

// runPlanned carries out p with the driver's calls recorded.
func runPlanned(t *testing.T, s *suite.Suite, p *plan.Plan) *driverCalls {
	calls, _ := runPlannedResults(t, s, p)
	return calls
}

// runPlannedResults is runPlanned, with the run's results.
func runPlannedResults(t *testing.T, s *suite.Suite, p *plan.Plan) (*driverCalls, *results.Results) {
	t.Helper()
	return runPlannedHosts(t, s, p, spec.Hosts{})
}

// runPlannedHosts is runPlannedResults with the workers placed by hosts.
func runPlannedHosts(t *testing.T, s *suite.Suite, p *plan.Plan, hosts spec.Hosts) (*driverCalls, *results.Results) {
	t.Helper()
	dir := t.TempDir()
	j, st, err := openJournal(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	calls := &driverCalls{}
	r := newGroupRuns(s, p, map[string]results.Benchmark{}, st, Options{Dir: dir, Hosts: hosts}, j)
	r.batch, r.single, r.reference = calls.batch, calls.single, calls.reference
	out := &Outcome{}
	if runErr, err := r.runPlan(context.Background(), out); runErr != nil || err != nil {
		t.Fatal(runErr, err)
	}
	res := r.results(&results.Environment{})
	if got := len(res.Benchmarks); got != len(s.Benchmarks) {
		t.Errorf("%d results, want one per benchmark (%d)", got, len(s.Benchmarks))
	}
	return calls, res
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
// group's start, 0.64 s a fork: 2 × (3.279 + 2.639) = 11.836 s against 13.116 s. Each
// batch adds its two references of 0.5 s (the default): 12.836 s against 15.116 s.
func TestOnePlanDrivesEstimateAndRun(t *testing.T) {
	s, err := suite.Parse("t.yaml", []byte(`
defaults: {warmup: 1s, rounds: 3, duration: 100ms, forks: 2, keep_alive: 0s}
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
	if got, want := p.Estimate(), 12836*time.Millisecond; got != want {
		t.Errorf("shared estimate %v, counted %v", got, want)
	}
	calls := runPlanned(t, s, p)
	if len(calls.batches) != 1 || len(calls.batches[0]) != 2 || len(calls.singles) != 0 {
		t.Errorf("shared plan: driver asked for batches %v and groups %v; want one batch of two groups", calls.batches, calls.singles)
	}

	// The same plan, its batch split in two by hand.
	ref := p.Batches[0].Reference
	p.Batches = []plan.Batch{{Groups: p.Batches[0].Groups[:1], Reference: ref}, {Groups: p.Batches[0].Groups[1:], Reference: ref}}
	// A group of its own starts its workers: two Go targets, a server and a client each.
	p.Batches[1].Groups[0].Fork.Start = plan.StartOverhead + 4*plan.ProcessStartOverhead
	if got, want := p.Estimate(), 15116*time.Millisecond; got != want {
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
defaults: {warmup: 1s, rounds: 3, duration: 100ms, forks: 2, keep_alive: 0s}
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

// TestReferenceAtEachBatchsEnds: the reference runs once before each batch's first
// group and once after its last, never between a batch's groups, on the server's CPUs
// for the setting's length; its figures reach the results, one record per batch;
// reference: 0s turns it off, and the estimate counts it only when on.
func TestReferenceAtEachBatchsEnds(t *testing.T) {
	const yaml = `
defaults: {warmup: 1s, rounds: 3, duration: 100ms, forks: 2, keep_alive: 0s%s}
targets: [http-json, grpc-proto]
workloads: [person.get, person.list]
`
	s, err := suite.Parse("t.yaml", []byte(fmt.Sprintf(yaml, ", reference: 300ms")))
	if err != nil {
		t.Fatal(err)
	}
	p := plan.Build(s.Benchmarks, nil)
	// One batch of two groups (see TestOnePlanDrivesEstimateAndRun: 11.836 s), and two
	// references of 0.3 s.
	if got, want := p.Estimate(), 12436*time.Millisecond; got != want {
		t.Errorf("estimate %v, counted %v", got, want)
	}
	// The time left before anything runs is the whole estimate, its references
	// included; none is left once all ran (the driver here is a counter).
	j, st, err := openJournal(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	r := newGroupRuns(s, p, map[string]results.Benchmark{}, st, Options{}, j)
	if got := r.p.left(); got != p.Estimate() {
		t.Errorf("time left at the start %v, want the estimate %v", got, p.Estimate())
	}
	counter := &driverCalls{}
	r.batch, r.single, r.reference = counter.batch, counter.single, counter.reference
	if runErr, err := r.runPlan(context.Background(), &Outcome{}); runErr != nil || err != nil {
		t.Fatal(runErr, err)
	}
	if r.p.refs != 0 {
		t.Errorf("%v of references left after the run", r.p.refs)
	}

	calls, res := runPlannedResults(t, s, p)
	if want := []string{"reference", "batch", "reference"}; !slices.Equal(calls.order, want) {
		t.Errorf("driver calls %v, want %v", calls.order, want)
	}
	for k, d := range calls.refs {
		if d != 300*time.Millisecond {
			t.Errorf("reference %d ran %v, want the setting's 300ms", k, d)
		}
	}
	if runtime.NumCPU() >= 2 {
		for k, c := range calls.cpus {
			if !slices.Equal(c, []int{0}) {
				t.Errorf("reference %d on CPUs %v, want the server's [0]", k, c)
			}
		}
	}
	if len(res.Reference) != 1 {
		t.Fatalf("results hold %d references, want one for the one batch: %+v", len(res.Reference), res.Reference)
	}
	ref := res.Reference[0]
	if ref.Batch != 0 || len(ref.Groups) != 2 || ref.Start == nil || ref.End == nil || ref.Start.OpsS != 1000 || ref.End.OpsS != 2000 || ref.Why != "" {
		t.Errorf("reference %+v; want batch 0 of 2 groups, start 1000 and end 2000 ops/s", ref)
	}

	// The batch split in two: a reference at each end of each.
	p.Batches = []plan.Batch{{Groups: p.Batches[0].Groups[:1], Reference: p.Batches[0].Reference},
		{Groups: p.Batches[0].Groups[1:], Reference: p.Batches[0].Reference}}
	calls, res = runPlannedResults(t, s, p)
	if want := []string{"reference", "group", "reference", "reference", "group", "reference"}; !slices.Equal(calls.order, want) {
		t.Errorf("split: driver calls %v, want %v", calls.order, want)
	}
	if len(res.Reference) != 2 || res.Reference[1].Batch != 1 {
		t.Errorf("split: references %+v, want batches 0 and 1", res.Reference)
	}

	s, err = suite.Parse("t.yaml", []byte(fmt.Sprintf(yaml, ", reference: 0s")))
	if err != nil {
		t.Fatal(err)
	}
	p = plan.Build(s.Benchmarks, nil)
	if got, want := p.Estimate(), 11836*time.Millisecond; got != want {
		t.Errorf("reference off: estimate %v, counted %v", got, want)
	}
	calls, res = runPlannedResults(t, s, p)
	if len(calls.refs) != 0 || len(res.Reference) != 0 {
		t.Errorf("reference off: %d references measured, %d in the results; want none", len(calls.refs), len(res.Reference))
	}
}

// A remote server worker: the reference runs where the driver does, so it is not
// measured and the results say why.
func TestReferenceRemoteServer(t *testing.T) {
	s, err := suite.Parse("t.yaml", []byte(`
defaults: {warmup: 1s, rounds: 3, duration: 100ms, keep_alive: 0s}
targets: [http-json, grpc-proto]
workloads: [person.get]
`))
	if err != nil {
		t.Fatal(err)
	}
	calls, res := runPlannedHosts(t, s, plan.Build(s.Benchmarks, nil), spec.Hosts{Server: "tcp://10.0.0.2:7000"})
	refs := res.Reference
	if len(calls.refs) != 0 || len(refs) != 1 || refs[0].Start != nil || !strings.Contains(refs[0].Why, "remote (tcp://10.0.0.2:7000)") {
		t.Errorf("%d measured, references %+v; want none measured and why", len(calls.refs), refs)
	}
}

// A resume keeps the references its journal holds (a batch's later line, its end,
// replacing its start) and numbers its own batches after them.
func TestReferenceJournaled(t *testing.T) {
	st := newJournalState()
	start := results.ReferenceRun{Batch: 0, Start: &results.ReferenceSample{OpsS: 1000, Workload: results.ReferenceWorkload}}
	whole := start
	whole.End = &results.ReferenceSample{OpsS: 900, Workload: results.ReferenceWorkload}
	for _, ref := range []results.ReferenceRun{start, whole} {
		line, err := json.Marshal(journalLine{Kind: "reference", Reference: &ref})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.add(line); err != nil {
			t.Fatal(err)
		}
	}
	if len(st.references) != 1 || st.references[0].End == nil || st.references[0].End.OpsS != 900 {
		t.Errorf("journaled references %+v, want batch 0 with its end", st.references)
	}
	if err := st.add([]byte(`{"kind":"reference"}`)); err == nil {
		t.Error("a reference line without its reference was read")
	}
}
