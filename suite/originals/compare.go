package originals

import (
	"fmt"
	"math"
	"strings"
)

// Bench is what Compare reads of one benchmark of a results file: a projection of
// results.Benchmark (package report builds it), so this package depends on no other.
type Bench struct {
	Name, Protocol, Transport, ServerStack, ClientStack, Label, Workload string
	// Load is "open" or "closed".
	Load string
	// Payload is the echo payload in bytes; Increments and Trades the workload's other
	// parameters (0: not a parameter of the workload).
	Payload, Increments, Trades int64
	Concurrency, Connections    int64
	Rate                        float64
	// Avgt: the score is a time per op (ms/op), not a rate (ops/s).
	Avgt bool
	// Steady is the benchmark's steady-state class (results.Benchmark.Steady).
	Steady string
	// Score and ScoreError are the score in its mode and the half-width of its interval
	// (0: none).
	Score, ScoreError float64
	// Latency is the response time in µs by metric name ("mean", "p50", ... "max").
	Latency map[string]float64
	// Relative is the score's ratio to its comparison group's baseline (nil: none).
	Relative *Relative
	// Pair gives the benchmark's ratio over another of its comparison group, of a
	// metric ("score", or a latency as Ours.Metric names it), paired by fork and
	// round as the group's ratios to its baseline are; nil when the two were not
	// measured in one group's rounds or their group does not pair that metric. A nil
	// Pair pairs nothing beyond Relative. Safe for concurrent use.
	Pair func(over *Bench, metric string) *Relative
	// StillWarming is the warning (as printed) that said the benchmark was still
	// warming up (results.WarnStillWarming), for results written before its
	// steady-state class (Steady) was recorded; "" when there was none.
	StillWarming string
}

// Relative is a paired ratio with its confidence interval.
type Relative struct {
	Baseline        string
	Mean, Low, High float64
}

// Row is one finding set beside our results.
type Row struct {
	Finding *Finding
	// Of and Over are the benchmarks that reproduce the finding (nil: not found).
	Of, Over *Bench
	// Ours is our ratio in the original's terms (times over times, or rates over rates),
	// with its interval [Low, High]; Low == High == Mean when it has none.
	Ours Estimate
	// Paired: Ours is a ratio paired by fork and round within one comparison group;
	// otherwise it is the ratio of two figures measured apart.
	Paired bool
	// RatioOfRatios is Ours.Mean over the original's ratio; 0 when there is no Ours.
	RatioOfRatios float64
	// Claim is the original's ratio with its interval (ClaimOf); zero when the finding
	// was not judged.
	Claim Claim
	// Load is the load model the finding was judged under when the original's two
	// figures came from two (Ours.SameLoad); "" otherwise.
	Load    string
	Verdict Verdict
	// Why says why the verdict, in a sentence.
	Why string
}

// Estimate is a ratio and its interval.
type Estimate struct {
	Mean, Low, High float64
}

// Compare sets each finding of o's setup ("" for every setup) beside the benchmarks bs,
// in file order.
func Compare(o *Original, setup string, bs []Bench) []Row {
	var rows []Row
	for _, f := range o.FindingsOf(setup) {
		rows = append(rows, compare(f, bs))
	}
	return rows
}

func compare(f *Finding, bs []Bench) Row {
	r := Row{Finding: f}
	notComparable := func(format string, args ...any) Row {
		r.Verdict, r.Why = NotComparable, fmt.Sprintf(format, args...)
		return r
	}
	if of, over := f.Ours.Of.Load, f.Ours.Over.Load; of != "" && over != "" && of != over {
		// The original set a figure of one load model over a figure of another: its
		// ratio is judged only against ours with both under one (SameLoad), never
		// against our pair of the two models.
		mixed := fmt.Sprintf("the original's figures were measured under two load models (%s loop over %s loop), so their ratio mixes the two", of, over)
		var whys []string
		for _, m := range f.Ours.SameLoad {
			sof, sover := f.Ours.under(m)
			var why string
			if r.Of, r.Over, why = pickTwo(sof, sover, bs); why == "" {
				r.Load = m
				break
			}
			whys = append(whys, fmt.Sprintf("both %s: %s", m, why))
		}
		if r.Load == "" {
			r.Of, r.Over = nil, nil
			if len(whys) == 0 {
				return notComparable("%s; the finding names no load model to judge it under", mixed)
			}
			return notComparable("%s, and this run has not measured both under one (%s)", mixed, strings.Join(whys, "; "))
		}
	} else {
		var why string
		if r.Of, r.Over, why = pickTwo(f.Ours.Of, f.Ours.Over, bs); why != "" {
			return notComparable("%s", why)
		}
	}
	for _, b := range []*Bench{r.Of, r.Over} {
		if ok, why := Steady(b); !ok {
			return notComparable("%s: %s", b.Name, why)
		}
	}
	var ok bool
	var why string
	r.Ours, r.Paired, ok, why = ours(f, r.Of, r.Over)
	if !ok {
		return notComparable("%s", why)
	}
	r.Claim = ClaimOf(f)
	r.RatioOfRatios = r.Ours.Mean / r.Claim.Ratio
	r.Verdict, r.Why = Judge(r.Claim, r.Ours)
	if r.Load != "" {
		r.Why = fmt.Sprintf("judged on ours with both under the %s loop (the original's figures: %s loop over %s loop): %s",
			r.Load, f.Ours.Of.Load, f.Ours.Over.Load, r.Why)
	}
	return r
}

// pickTwo picks the benchmarks of and over select, or says why not (both reasons when
// neither is there).
func pickTwo(of, over Selector, bs []Bench) (a, b *Bench, why string) {
	a, ofWhy := pick(of, bs)
	b, overWhy := pick(over, bs)
	switch {
	case ofWhy != "" && overWhy != "":
		return nil, nil, ofWhy + "; " + overWhy
	case ofWhy != "":
		return nil, nil, ofWhy
	case overWhy != "":
		return nil, nil, overWhy
	}
	return a, b, ""
}

// under returns the finding's two selectors with both under load model m: the open
// loop's rate is that of the selector that was under m (none for a closed loop).
func (o Ours) under(m string) (of, over Selector) {
	src := o.Of
	if o.Over.Load == m {
		src = o.Over
	}
	of, over = o.Of, o.Over
	of.Load, over.Load = m, m
	of.Rate, over.Rate = src.Rate, src.Rate
	return of, over
}

// pick returns the one benchmark s selects, or why there is none: "not run" when none
// has its identity, "not run at the original's setup" when those that have it ran
// otherwise.
func pick(s Selector, bs []Bench) (*Bench, string) {
	var same []*Bench
	for i := range bs {
		if s.identifies(&bs[i]) {
			same = append(same, &bs[i])
		}
	}
	if len(same) == 0 {
		return nil, "not run: no benchmark " + s.String()
	}
	var at []*Bench
	var differs string
	for _, b := range same {
		if d := s.setupDiffers(b); d == "" {
			at = append(at, b)
		} else if differs == "" {
			differs = b.Name + ": " + d
		}
	}
	switch len(at) {
	case 0:
		return nil, "not run at the original's setup (" + differs + ")"
	case 1:
		return at[0], ""
	}
	names := make([]string, len(at))
	for i, b := range at {
		names[i] = b.Name
	}
	return nil, fmt.Sprintf("%d benchmarks match %s (%s): the finding's selector needs more", len(at), s, strings.Join(names, ", "))
}

func (s Selector) identifies(b *Bench) bool {
	eq := func(want, got string) bool { return want == "" || want == got }
	return eq(s.Name, b.Name) && eq(s.Protocol, b.Protocol) && eq(s.Transport, b.Transport) &&
		eq(s.ServerStack, b.ServerStack) && eq(s.ClientStack, b.ClientStack) && eq(s.Label, b.Label) &&
		eq(s.Workload, b.Workload) && eq(s.Load, b.Load) && (s.Payload == "" || payloadBytes(s.Payload) == b.Payload)
}

// setupDiffers says how b ran otherwise than the original, or "".
func (s Selector) setupDiffers(b *Bench) string {
	var out []string
	check := func(what string, want, got int64) {
		if want != 0 && want != got {
			out = append(out, fmt.Sprintf("%s %d, the original's %d", what, got, want))
		}
	}
	check("increments", s.Increments, b.Increments)
	check("trades", s.Trades, b.Trades)
	check("concurrency", s.Concurrency, b.Concurrency)
	check("connections", s.Connections, b.Connections)
	if s.Rate != 0 && s.Rate != b.Rate {
		out = append(out, fmt.Sprintf("rate %g/s, the original's %g/s", b.Rate, s.Rate))
	}
	return strings.Join(out, ", ")
}

func (s Selector) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("name", s.Name)
	add("protocol", s.Protocol)
	add("transport", s.Transport)
	add("server_stack", s.ServerStack)
	add("client_stack", s.ClientStack)
	add("label", s.Label)
	add("workload", s.Workload)
	add("load", s.Load)
	add("payload", s.Payload)
	return "{" + strings.Join(parts, " ") + "}"
}

// payloadBytes is a payload size as suites write it ("11B", "1KiB", "100KiB"), in bytes;
// -1 when it is not one.
func payloadBytes(s string) int64 {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}} {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			var v int64
			if _, err := fmt.Sscan(n, &v); err == nil {
				return v * u.mult
			}
			return -1
		}
	}
	return -1
}

// NoSteadyState is the steady-state class of a benchmark that did not settle in some
// fork (results.SteadyNone; a test keeps them equal).
const NoSteadyState = "no steady state"

// Steady reports whether b reached a steady state, and why not: from its class (a
// class it had in a quarter of its forks or more), or in results written before the
// class, from its warnings.
func Steady(b *Bench) (bool, string) {
	if b.Steady != "" {
		if b.Steady == NoSteadyState {
			return false, "no steady state in a quarter of its forks or more"
		}
		return true, ""
	}
	if b.StillWarming != "" {
		return false, "no steady state (" + b.StillWarming + ")"
	}
	return true, ""
}

// ours returns our ratio in the finding's terms: paired (pairedRatio) when the two
// benchmarks were measured in one comparison group's rounds and the group pairs the
// finding's metric; otherwise the ratio of the two figures, for a score with its
// interval from their errors (the widest the two intervals allow). A figure's unit
// and ours must be of one kind (times or rates), except that in two closed loops of
// the same number of callers a time per op is callers over the rate, so the ratio of
// times is the inverse of the ratio of rates.
func ours(f *Finding, of, over *Bench) (e Estimate, paired, ok bool, why string) {
	want := units[f.Of.Unit]
	if m := f.Ours.Metric; m != "score" {
		a, b := of.Latency[m], over.Latency[m]
		if want != timeKind {
			return e, false, false, fmt.Sprintf("unit mismatch: the original's figures are %s, ours a latency", f.Of.Unit)
		}
		if p := pairedRatio(of, over, m); p != nil {
			return *p, true, true, ""
		}
		if !(a > 0 && b > 0) {
			return e, false, false, fmt.Sprintf("no %s latency in %s or %s", m, of.Name, over.Name)
		}
		r := a / b
		return Estimate{r, r, r}, false, true, ""
	}
	have := rate
	if of.Avgt {
		have = timeKind
	}
	if of.Avgt != over.Avgt {
		return e, false, false, fmt.Sprintf("unit mismatch: %s and %s score in different modes", of.Name, over.Name)
	}
	if p := pairedRatio(of, over, "score"); p != nil {
		e, paired = *p, true
	} else if of.Score > 0 && over.Score > 0 {
		m := of.Score / over.Score
		e = Estimate{m, m, m}
		if of.ScoreError > 0 && over.ScoreError > 0 && over.Score > over.ScoreError && of.Score > of.ScoreError {
			e = ratioOf(of.Score, of.ScoreError, over.Score, over.ScoreError)
		}
	} else {
		return e, false, false, fmt.Sprintf("no score for %s or %s", of.Name, over.Name)
	}
	if have != want {
		if of.Load != "closed" || over.Load != "closed" || of.Concurrency != over.Concurrency {
			return e, false, false, fmt.Sprintf("unit mismatch: the original's figures are %s, ours %s, and not two closed loops of equal callers", f.Of.Unit, unitOf(have))
		}
		e = Estimate{1 / e.Mean, 1 / e.High, 1 / e.Low}
	}
	return e, paired, true, ""
}

// pairedRatio is of's metric over over's, paired by fork and round, or nil: the
// score's ratio to the group's baseline as the results hold it (Relative) when one is
// the other's baseline, else what of.Pair gives.
func pairedRatio(of, over *Bench, metric string) *Estimate {
	if metric == "score" {
		ro, rv := withInterval(of.Relative), withInterval(over.Relative)
		switch {
		case ro != nil && ro.Baseline == over.Name && ro.Mean > 0:
			return &Estimate{ro.Mean, ro.Low, ro.High}
		case rv != nil && rv.Baseline == of.Name && rv.Mean > 0:
			return &Estimate{1 / rv.Mean, 1 / rv.High, 1 / rv.Low}
		}
	}
	if of.Pair == nil {
		return nil
	}
	if r := withInterval(of.Pair(over, metric)); r != nil && r.Mean > 0 {
		return &Estimate{r.Mean, r.Low, r.High}
	}
	return nil
}

// withInterval returns r, its interval the point itself when it has none (fewer than
// two rounds: the results file then holds zeros), so a paired ratio is never judged
// by an interval that is not there.
func withInterval(r *Relative) *Relative {
	if r == nil || (r.Low > 0 && r.High >= r.Low) {
		return r
	}
	c := *r
	c.Low, c.High = c.Mean, c.Mean
	return &c
}

func unitOf(k kind) string {
	if k == timeKind {
		return "ms/op"
	}
	return "ops/s"
}

// finite reports whether f is a usable number.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
