package capacity

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/spec"
)

// The search against a target whose capacity is known: every rate up to it passes.
// It doubles from the start, then bisects on a log scale until the bracket is within
// the resolution, and the bracket holds the capacity.
func TestSearchFindsKnownCapacity(t *testing.T) {
	for _, capacity := range []float64{700, 1000, 37000, 123456} {
		s := NewSearch(1000, 0.05)
		var rates []float64
		for r := s.Next(); r != 0 && len(rates) < 100; r = s.Next() {
			rates = append(rates, r)
			s.Observe(r, r <= capacity)
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
	s := NewSearch(1000, 0.05)
	n := 0
	for r := s.Next(); r != 0; r = s.Next() {
		s.Observe(r, false)
		n++
	}
	if s.pass != 0 || n != 10 { // 1000, 500, ..., 1.95: 10 steps above minRate
		t.Errorf("nothing passes: pass %v after %d steps", s.pass, n)
	}
}

// A noisy verdict (a pass above a failure, or a failure below a pass) moves the
// bracket instead of leaving an impossible one.
func TestSearchNoisyVerdicts(t *testing.T) {
	s := NewSearch(1000, 0.05)
	s.Observe(1000, true)
	s.Observe(2000, false)
	s.Observe(1414, true)
	s.Observe(1189, false) // below a pass: the bracket now ends there
	if s.pass != 1000 || s.fail != 1189 {
		t.Errorf("bracket [%v, %v], want [1000, 1189]", s.pass, s.fail)
	}
	s.Observe(1500, true) // above the failure: the failure is forgotten
	if s.pass != 1500 || s.fail != 0 || s.Next() != 3000 {
		t.Errorf("bracket [%v, %v] next %v, want [1500, none] and 3000", s.pass, s.fail, s.Next())
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
		v, why := Judge(c, 1000, tt.iv)
		if v != tt.verdict || !strings.Contains(why, tt.why) {
			t.Errorf("case %d: %s (%s), want %s (%s)", i, v, why, tt.verdict, tt.why)
		}
	}
}

// A sweep measures every rate up from the start by the factor, and its answer is the
// last pass before the first failure; two failures running end it.
func TestSweep(t *testing.T) {
	s := &Sweep{next_: 1000, factor: 1.1}
	var rates []float64
	verdict := map[int]bool{0: true, 1: true, 2: true, 3: false, 4: true, 5: false, 6: false, 7: true}
	for i := 0; ; i++ {
		r := s.Next()
		if r == 0 {
			break
		}
		rates = append(rates, r)
		s.Observe(r, verdict[i])
	}
	// Steps 0–2 pass, 3 fails alone (noise under the edge), 4 passes, 5 and 6 fail:
	// done after step 6; the answer is step 4, the bracket's top step 5.
	if len(rates) != 7 {
		t.Fatalf("rates %v, want 7 steps", rates)
	}
	pass, fail := s.Bracket()
	if math.Abs(pass-1464.1) > 0.01 || math.Abs(fail-1610.51) > 0.01 {
		t.Errorf("bracket [%v, %v], want [1464.1, 1610.51]", pass, fail)
	}
}

// walk tries a failing step once more and keeps the second verdict: a lone failure
// far below the edge does not end the growth, two in a row do; a generator verdict
// twice running marks the search generator-bound.
func TestWalkRetriesFailures(t *testing.T) {
	c := &spec.Capacity{Step: time.Second, Budget: time.Minute, Resolution: 0.05}
	run := func(c *spec.Capacity, srch Stepper, verdicts map[float64][]string) (*results.Search, []float64) {
		out := &results.Search{}
		var rates []float64
		seen := map[float64]int{}
		_, err := Walk(c, srch, out, func(rate float64) (results.SearchStep, error) {
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
	out, rates := run(c, NewSearch(1000, 0.05), map[float64][]string{16000: {results.VerdictSLO, results.VerdictPass}})
	if rates[4] != 16000 || rates[5] != 16000 || rates[6] != 32000 || rates[7] != 64000 || rates[8] == 64000 {
		t.Fatalf("rates %v: want 16000 twice, then 32000, 64000 once", rates)
	}
	if low, high := out.Low, out.High; low != 0 || high != 0 {
		t.Fatalf("walk set the bracket (%v, %v); Capacity does", low, high)
	}
	// A generator verdict twice at one rate ends the search, generator-bound.
	out, rates = run(c, NewSearch(1000, 0.05), map[float64][]string{4000: {results.VerdictGenerator, results.VerdictGenerator}})
	if !out.GeneratorBound || rates[len(rates)-1] != 4000 || len(rates) != 4 {
		t.Fatalf("rates %v, generator-bound %v: want the search to end at 4000 after two generator verdicts", rates, out.GeneratorBound)
	}
	// A missed objective, then the generator blamed on the second try: a failure
	// of the target, not the generator's limit; the search goes on under 4000.
	out, rates = run(c, NewSearch(1000, 0.05), map[float64][]string{4000: {results.VerdictSLO, results.VerdictGenerator}})
	if out.GeneratorBound || len(rates) < 5 || rates[4] >= 4000 {
		t.Fatalf("rates %v, generator-bound %v: want a failure at 4000 and the search below it", rates, out.GeneratorBound)
	}
	// A sweep does not retry a failure (it needs two running anyway).
	sw := *c
	sw.Sweep = true
	_, rates = run(&sw, &Sweep{next_: 1000, factor: 2}, map[float64][]string{4000: {results.VerdictSLO}})
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
		if err := Confirm(c, out, spent, func(rate float64) (results.SearchStep, error) {
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
	if err := Confirm(c, out, 0, func(rate float64) (results.SearchStep, error) {
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

// The search's schedule, step by step, against a target whose capacity is 3000/s,
// from 1000/s with a 5 % resolution. Every bisection is the geometric mean of the
// bracket, so from the bracket [2000, 4000] on each rate is 2000·2^k: the exponent k
// halves the bracket's width in powers of two, which makes each row checkable by hand.
func TestSearchSchedule(t *testing.T) {
	s := NewSearch(1000, 0.05)
	for i, row := range []struct {
		rate float64 // what Next gives
		ok   bool    // rate ≤ 3000
	}{
		{1000, true},                       // the start
		{2000, true},                       // doubled: nothing failed yet
		{4000, false},                      // doubled again; over the capacity
		{2000 * math.Pow(2, 0.5), true},    // √(2000·4000) = 2828.4; bracket was ×2 wide
		{2000 * math.Pow(2, 0.75), false},  // √(2828.4·4000) = 3363.6
		{2000 * math.Pow(2, 0.625), false}, // √(2828.4·3363.6) = 3084.4; bracket was 2^¼ = 1.19 wide
		{2000 * math.Pow(2, 0.5625), true}, // 2952.4; bracket was 2^⅛ = 1.09 wide, over 1.05
	} {
		got := s.Next()
		if math.Abs(got-row.rate) > 1e-9*row.rate {
			t.Fatalf("step %d: rate %v, want %v", i+1, got, row.rate)
		}
		s.Observe(got, row.ok)
	}
	// The bracket [2952.4, 3084.4] is 2^(1/16) = 1.044 wide, within 5 %: done.
	pass, fail := s.Bracket()
	if r := s.Next(); r != 0 || math.Abs(pass-2000*math.Pow(2, 0.5625)) > 1e-6 || math.Abs(fail-2000*math.Pow(2, 0.625)) > 1e-6 {
		t.Errorf("after the schedule: next %v, bracket [%v, %v]; want done at [2952.4, 3084.4]", r, pass, fail)
	}
}

// A sweep's answer is the last pass before two failures running, whatever passed or
// failed alone before them.
func TestSweepBracket(t *testing.T) {
	for _, row := range []struct {
		name       string
		verdicts   []bool // of 100, 200, 400, ... (factor 2)
		pass, fail float64
	}{
		// 100 and 200 pass, 400 and 800 fail: the answer 200, the top 400.
		{"clean edge", []bool{true, true, false, false}, 200, 400},
		// 200 fails alone, 400 passes: noise under the edge; 800 and 1600 fail.
		{"a lone failure below", []bool{true, false, true, false, false}, 400, 800},
		// Nothing passes: no answer, the top the first of the two failures.
		{"nothing passes", []bool{false, false}, 0, 100},
	} {
		s := NewSweep(100, 2)
		for i, ok := range row.verdicts {
			r := s.Next()
			if want := 100 * math.Pow(2, float64(i)); r != want {
				t.Fatalf("%s: step %d at %v, want %v", row.name, i+1, r, want)
			}
			s.Observe(r, ok)
		}
		pass, fail := s.Bracket()
		if s.Next() != 0 || pass != row.pass || fail != row.fail {
			t.Errorf("%s: next %v, bracket [%v, %v]; want done at [%v, %v]", row.name, s.Next(), pass, fail, row.pass, row.fail)
		}
	}
}
