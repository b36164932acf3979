package cluster

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/record"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
)

// The search against a target whose capacity is known: every rate up to it passes.
// It doubles from the start, then bisects on a log scale until the bracket is within
// the resolution, and the bracket holds the capacity.
func TestSearchFindsKnownCapacity(t *testing.T) {
	for _, capacity := range []float64{700, 1000, 37000, 123456} {
		s := newSearch(1000, 0.05)
		var rates []float64
		for r := s.next(); r != 0 && len(rates) < 100; r = s.next() {
			rates = append(rates, r)
			s.observe(r, r <= capacity)
		}
		if !(s.pass <= capacity && capacity < s.fail) || s.fail/s.pass-1 > 0.05 {
			t.Errorf("capacity %v: bracket [%v, %v] after %v", capacity, s.pass, s.fail, rates)
		}
		// Doubling to the first failure, then log2(2)/log2(1.05) ≈ 14 halvings of the
		// bracket's log width at most: a handful of bisections.
		if len(rates) > 25 {
			t.Errorf("capacity %v: %d steps %v", capacity, len(rates), rates)
		}
	}
	// Nothing passes: halving down to the floor, then it stops with no answer.
	s := newSearch(1000, 0.05)
	n := 0
	for r := s.next(); r != 0; r = s.next() {
		s.observe(r, false)
		n++
	}
	if s.pass != 0 || n != 10 { // 1000, 500, ..., 1.95: 10 steps above minRate
		t.Errorf("nothing passes: pass %v after %d steps", s.pass, n)
	}
}

// A noisy verdict (a pass above a failure, or a failure below a pass) moves the
// bracket instead of leaving an impossible one.
func TestSearchNoisyVerdicts(t *testing.T) {
	s := newSearch(1000, 0.05)
	s.observe(1000, true)
	s.observe(2000, false)
	s.observe(1414, true)
	s.observe(1189, false) // below a pass: the bracket now ends there
	if s.pass != 1000 || s.fail != 1189 {
		t.Errorf("bracket [%v, %v], want [1000, 1189]", s.pass, s.fail)
	}
	s.observe(1500, true) // above the failure: the failure is forgotten
	if s.pass != 1500 || s.fail != 0 || s.next() != 3000 {
		t.Errorf("bracket [%v, %v] next %v, want [1500, none] and 3000", s.pass, s.fail, s.next())
	}
}

func TestJudgeStep(t *testing.T) {
	c := &spec.Capacity{SLOs: []spec.SLO{{Quantile: 99, Max: 10 * time.Millisecond}}, MaxErrorRate: 0.01}
	// step makes one second at rate with every response taking lat, and lag.
	step := func(ops int64, lat, lag time.Duration, errs, overflow int64, cpu time.Duration) *results.Interval {
		iv := record.NewInterval(true)
		r := record.NewRecorder(true)
		t0 := time.Unix(100, 0)
		for range ops {
			r.Record(t0, t0.Add(lag), t0.Add(lat))
		}
		r.Drain(iv)
		iv.Start, iv.End = t0, t0.Add(time.Second)
		iv.Errors[record.Timeout], iv.Overflow = errs, overflow
		return &results.Interval{Interval: iv, ClientCPU: cpu, ClientCPUs: 1}
	}
	ms := time.Millisecond
	tests := []struct {
		iv      *results.Interval
		verdict string
		why     string
	}{
		{step(1000, 2*ms, 10*time.Microsecond, 0, 0, 300*ms), results.VerdictPass, ""},
		{step(1000, 12*ms, 10*time.Microsecond, 0, 0, 300*ms), results.VerdictSLO, "p99 12"},
		{step(900, 2*ms, 10*time.Microsecond, 0, 0, 300*ms), results.VerdictRate, "achieved 900/s of 1000/s"},
		{step(980, 2*ms, 10*time.Microsecond, 20, 0, 300*ms), results.VerdictErrors, "2.00% of calls failed"},
		// A saturated client sets the result.
		{step(1000, 2*ms, 10*time.Microsecond, 0, 0, 950*ms), results.VerdictGenerator, "95% of its CPUs"},
		// Lag with a free caller: it decides only a verdict it caused. Within the
		// objective despite it: a pass.
		{step(1000, 5*ms, 3*ms, 0, 0, 300*ms), results.VerdictPass, ""},
		// Objective missed on response time (12 ms) but met on service time (9 ms).
		{step(1000, 12*ms, 3*ms, 0, 0, 300*ms), results.VerdictGenerator, "response time only"},
		// Missed on service time too (12 ms): the target's.
		{step(1000, 15*ms, 3*ms, 0, 0, 300*ms), results.VerdictSLO, "p99 15"},
		// The rate missed while the generator was late.
		{step(900, 2*ms, 3*ms, 0, 0, 300*ms), results.VerdictGenerator, "achieved 900/s of 1000/s with lag p99 3ms"},
		// Lag under 1 ms is never the generator's.
		{step(1000, 12*ms, 800*time.Microsecond, 0, 0, 300*ms), results.VerdictSLO, "p99 12"},
		// Lag with every caller busy (overflow) is the target's queue, judged as such.
		{step(1000, 15*ms, 3*ms, 0, 200, 300*ms), results.VerdictSLO, "p99"},
	}
	for i, tt := range tests {
		v, why := judgeStep(c, 1000, tt.iv)
		if v != tt.verdict || !strings.Contains(why, tt.why) {
			t.Errorf("case %d: %s (%s), want %s (%s)", i, v, why, tt.verdict, tt.why)
		}
	}
}

// A real search over worker processes: grpc-proto with a p99 objective a loopback
// server meets at low rates; a small budget ends it. The answer is bracketed by
// passing and failing steps, confirmed, and every step is recorded.
func TestCapacityRun(t *testing.T) {
	s := testSpec("grpc-proto", "tcp")
	s.Load.Kind, s.Load.Rate, s.Load.Concurrency, s.Load.Arrival = "open", 500, 100, "constant"
	s.Warmup = 100 * time.Millisecond
	s.Capacity = &spec.Capacity{SLOs: []spec.SLO{{Quantile: 99, Max: 50 * time.Millisecond}},
		Step: 150 * time.Millisecond, Confirm: 300 * time.Millisecond, Budget: 2 * time.Second, Resolution: 0.2}
	res, err := control.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	var seen int
	out, err := Capacity(t.Context(), res, Options{Binary: binary}, func(results.SearchStep) { seen++ })
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(out.Steps) || len(out.Steps) < 2 || out.Warmup == nil {
		t.Fatalf("%d steps observed, %d recorded, warmup %v", seen, len(out.Steps), out.Warmup != nil)
	}
	var measured time.Duration
	for _, st := range out.Steps {
		measured += time.Duration(st.Interval.Seconds() * float64(time.Second))
		if math.Abs(float64(st.Interval.Ops+st.Interval.ErrorCount())/st.Interval.Seconds()-st.Rate) > 0.5*st.Rate && st.Verdict == results.VerdictPass {
			t.Errorf("a passing step at %v/s made %d calls in %v", st.Rate, st.Interval.Ops, st.Interval.Seconds())
		}
	}
	if measured > 3*time.Second {
		t.Errorf("measured %v with a budget of 2s", measured)
	}
	t.Logf("steps: %s; rate %v [%v, %v] confirmed %v generator-bound %v", describe(out), out.Rate, out.Low, out.High, out.Confirmed, out.GeneratorBound)
	if out.Rate <= 0 && !out.GeneratorBound {
		t.Errorf("no answer: %s", describe(out))
	}
}

func describe(out *results.Search) string {
	var b strings.Builder
	for _, st := range out.Steps {
		fmt.Fprintf(&b, "%v:%s(%s) ", st.Rate, st.Verdict, st.Why)
	}
	return b.String()
}

// A sweep measures every rate up from the start by the factor, and its answer is the
// last pass before the first failure; two failures running end it.
func TestSweep(t *testing.T) {
	s := &sweep{next_: 1000, factor: 1.1}
	var rates []float64
	verdict := map[int]bool{0: true, 1: true, 2: true, 3: false, 4: true, 5: false, 6: false, 7: true}
	for i := 0; ; i++ {
		r := s.next()
		if r == 0 {
			break
		}
		rates = append(rates, r)
		s.observe(r, verdict[i])
	}
	// Steps 0–2 pass, 3 fails alone (noise under the edge), 4 passes, 5 and 6 fail:
	// done after step 6; the answer is step 4, the bracket's top step 5.
	if len(rates) != 7 {
		t.Fatalf("rates %v, want 7 steps", rates)
	}
	pass, fail := s.bracket()
	if math.Abs(pass-1464.1) > 0.01 || math.Abs(fail-1610.51) > 0.01 {
		t.Errorf("bracket [%v, %v], want [1464.1, 1610.51]", pass, fail)
	}
}

// walk tries a failing step once more and keeps the second verdict: a lone failure
// far below the edge does not end the growth, two in a row do; a generator verdict
// twice running marks the search generator-bound.
func TestWalkRetriesFailures(t *testing.T) {
	c := &spec.Capacity{Step: time.Second, Budget: time.Minute, Resolution: 0.05}
	run := func(c *spec.Capacity, srch stepper, verdicts map[float64][]string) (*results.Search, []float64) {
		out := &results.Search{}
		var rates []float64
		seen := map[float64]int{}
		_, err := walk(c, srch, out, func(rate float64) (results.SearchStep, error) {
			rates = append(rates, rate)
			v := results.VerdictPass
			if vs := verdicts[rate]; seen[rate] < len(vs) {
				v = vs[seen[rate]]
			}
			seen[rate]++
			if rate >= 64000 { // past the target's edge: it serves half the rate
				iv := record.NewInterval(true)
				iv.Start = time.Unix(100, 0)
				iv.End = iv.Start.Add(time.Second)
				iv.Ops = int64(rate / 2)
				return results.SearchStep{Rate: rate, Verdict: results.VerdictRate, Interval: &results.Interval{Interval: iv}}, nil
			}
			return results.SearchStep{Rate: rate, Verdict: v}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out, rates
	}
	// 16k fails once (noise), passes when tried again: growth goes on to 64k, which
	// is plainly past the edge (half the rate served) and not tried again.
	out, rates := run(c, newSearch(1000, 0.05), map[float64][]string{16000: {results.VerdictSLO, results.VerdictPass}})
	if rates[4] != 16000 || rates[5] != 16000 || rates[6] != 32000 || rates[7] != 64000 || rates[8] == 64000 {
		t.Fatalf("rates %v: want 16000 twice, then 32000, 64000 once", rates)
	}
	if low, high := out.Low, out.High; low != 0 || high != 0 {
		t.Fatalf("walk set the bracket (%v, %v); Capacity does", low, high)
	}
	// A generator verdict twice at one rate ends the search, generator-bound.
	out, rates = run(c, newSearch(1000, 0.05), map[float64][]string{4000: {results.VerdictGenerator, results.VerdictGenerator}})
	if !out.GeneratorBound || rates[len(rates)-1] != 4000 || len(rates) != 4 {
		t.Fatalf("rates %v, generator-bound %v: want the search to end at 4000 after two generator verdicts", rates, out.GeneratorBound)
	}
	// A missed objective, then the generator blamed on the second try: a failure
	// of the target, not the generator's limit; the search goes on under 4000.
	out, rates = run(c, newSearch(1000, 0.05), map[float64][]string{4000: {results.VerdictSLO, results.VerdictGenerator}})
	if out.GeneratorBound || len(rates) < 5 || rates[4] >= 4000 {
		t.Fatalf("rates %v, generator-bound %v: want a failure at 4000 and the search below it", rates, out.GeneratorBound)
	}
	// A sweep does not retry a failure (it needs two running anyway).
	sw := *c
	sw.Sweep = true
	_, rates = run(&sw, &sweep{next_: 1000, factor: 2}, map[float64][]string{4000: {results.VerdictSLO}})
	if want := []float64{1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000}; !slices.Equal(rates, want) {
		t.Fatalf("sweep rates %v, want %v", rates, want)
	}
}

// confirm steps down one resolution per failed run, down to half the answer and
// within the budget; a pass sets the answer and the bracket's top at the run that failed
// last; when none passes the search's answer stays, unconfirmed.
func TestConfirmStepsDown(t *testing.T) {
	c := &spec.Capacity{Step: time.Second, Confirm: 5 * time.Second, Budget: time.Minute, Resolution: 0.25}
	run := func(passAt float64, spent time.Duration) (*results.Search, []float64) {
		out := &results.Search{Rate: 1000, Low: 1000, High: 1100}
		var rates []float64
		if err := confirm(c, out, spent, func(rate float64) (results.SearchStep, error) {
			rates = append(rates, rate)
			if rate <= passAt {
				return results.SearchStep{Rate: rate, Verdict: results.VerdictPass}, nil
			}
			return results.SearchStep{Rate: rate, Verdict: results.VerdictSLO}, nil
		}); err != nil {
			t.Fatal(err)
		}
		return out, rates
	}
	out, rates := run(700, 0) // 1000 and 800 fail, 640 passes
	if !slices.Equal(rates, []float64{1000, 800, 640}) || !out.Confirmed || out.Rate != 640 || out.Low != 640 || out.High != 800 {
		t.Errorf("rates %v, answer %+v: want 640 confirmed, bracket 640–800", rates, out)
	}
	out, rates = run(100, 0) // none passes down to half the answer: 1000, 800, 640, 512
	if !slices.Equal(rates, []float64{1000, 800, 640, 512}) || out.Confirmed || out.Rate != 1000 || out.Low != 1000 || out.High != 1100 {
		t.Errorf("rates %v, answer %+v: want runs down to 512 and the search's answer, unconfirmed", rates, out)
	}
	// A confirming run set by the generator once is a failed run, not the end.
	out = &results.Search{Rate: 1000, Low: 1000, High: 1100}
	var got []float64
	verdicts := []string{results.VerdictGenerator, results.VerdictSLO, results.VerdictPass}
	if err := confirm(c, out, 0, func(rate float64) (results.SearchStep, error) {
		got = append(got, rate)
		return results.SearchStep{Rate: rate, Verdict: verdicts[len(got)-1]}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []float64{1000, 800, 640}) || !out.Confirmed || out.GeneratorBound || out.Rate != 640 {
		t.Errorf("rates %v, answer %+v: want 640 confirmed after a generator and a failed run", got, out)
	}
	out, rates = run(700, 52*time.Second) // room for one run only
	if len(rates) != 1 || out.Confirmed || !out.OutOfBudget {
		t.Errorf("rates %v, answer %+v: want one run, then out of budget", rates, out)
	}
}

// A generator-bound search advises the instrument client when the protocol has one
// and the search used another client; not when it used the instrument, nor for a
// protocol without it (direct calls the service in-process). The instrument advised
// speaks the HTTP version of the client it replaces.
func TestCheaperClient(t *testing.T) {
	for _, c := range []struct {
		protocol, client, want string
	}{
		{"http-json", "", "instrument"},
		{"http-json", "instrument", ""},
		{"http-json", "go-nethttp-json-h2", "instrument-h2"},
		{"http-json", "instrument-h2", ""},
		{"connect-json", "", "instrument"},
		{"direct", "", ""},
	} {
		s := spec.Default()
		s.Protocol, s.ClientStack = c.protocol, c.client
		res, err := control.Resolve(s)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.protocol, c.client, err)
		}
		if got := cheaperClient(res); got != c.want {
			t.Errorf("%s with client %q: cheaper client %q, want %q", c.protocol, c.client, got, c.want)
		}
	}
}
