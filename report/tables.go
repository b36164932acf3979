package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/results"
)

// table is one table of a report, built once and rendered as Markdown or HTML,
// so both formats always show the same figures.
type table struct {
	// Title is the heading above the table, empty for none; Note follows it
	// (how the figures were measured or are to be read).
	Title, Note string
	Head        []string
	// Align has one letter per column: l or r.
	Align string
	Rows  [][]string
	// Shade, when set, is a background colour (#rrggbb, "" for none) per cell of
	// Rows, drawn by the HTML report only (the matrix view's heat map).
	Shade [][]string
}

// notAvailable stands for a figure that is unknown or has no value (a NaN,
// an infinity, a server figure of an outside target); no renderer prints NaN.
const notAvailable = "n/a"

// scoreTable is JMH's table: Benchmark, Mode, Cnt, Score, Error, Units.
func scoreTable(bs []results.Benchmark) table {
	t := table{
		Head:  []string{"Benchmark", "Mode", "Cnt", "Score", "Error", "Units"},
		Align: "llrrrl",
	}
	for _, b := range bs {
		score, errS, units := b.Score()
		n := scoreN(&b)
		cell, e := scoreNum(score), ""
		if n >= 2 {
			e = "± " + scoreNum(errS)
		}
		if n >= 2 && n-1 < results.MinIntervalDF {
			// Student's t at 99.9 % over 8.6: the error says how few samples there
			// were more than anything of the score (bench -i 2: ±8000 %).
			e += " (too few)"
		}
		if unmeasured(&b) {
			cell = notAvailable
		}
		name := b.Name
		if b.Tuned() {
			name += results.TunedMark
		}
		t.Rows = append(t.Rows, []string{name, b.Mode, strconv.Itoa(n), cell, e, units})
	}
	return t
}

// comparisonTables has one table per operation (Group): each target's score ±
// error, its ratio to the group's baseline (paired by round, with the interval's
// half-width) or, for results without one, to the group's best, latency, CPU and
// bytes per op.
func comparisonTables(bs []results.Benchmark) []table {
	var ts []table
	for _, g := range results.Groups(bs) {
		units := ""
		for i, b := range g.Benchmarks {
			_, _, u := b.Score()
			if i == 0 {
				units = u
			} else if u != units {
				units = ""
			}
		}
		scoreHead := "Score"
		if units != "" {
			scoreHead = "Score, " + units
		}
		t := table{
			Title: g.Name, Note: groupNote(g),
			Head: []string{"Target", scoreHead, "Relative", "Steady", "p50 µs", "p99 µs",
				"Client CPU µs/op", "Server CPU µs/op", "Sent B/op", "Received B/op"},
			Align: "lrrlrrrrrr",
		}
		rel := relativeCells(g)
		for i, b := range g.Benchmarks {
			s := b.Summary
			score, errS, u := b.Score()
			cell := scoreNum(score)
			if n := scoreN(&b); n >= 2 {
				cell += " ± " + scoreNum(errS)
			}
			if units == "" {
				cell += " " + u
			}
			server := notAvailable
			if s.ServerCPUUsPerOp != nil {
				server = fixed(*s.ServerCPUUsPerOp, 2)
			}
			row := []string{results.SeriesLabel(&b), cell, rel[i], steadyCell(&b),
				latencyUs(s.LatencyUs.P50), latencyUs(s.LatencyUs.P99),
				fixed(s.ClientCPUUsPerOp, 2), server,
				bytesCell(&s, s.BytesSentPerOp), bytesCell(&s, s.BytesRecvPerOp)}
			if unmeasured(&b) {
				row = unmeasuredRow(&b, row)
			}
			t.Rows = append(t.Rows, row)
		}
		ts = append(ts, t)
	}
	return ts
}

// steadyCell is a benchmark's steady-state class over its forks, with the longest
// time a fork took to warm up during the rounds: "flat", "warmed up 2.1 s", "no
// steady state"; "-" when not classified. An adaptive warm-up adds how long the
// forks' warm-ups lasted and how many stopped at their cap: "flat; warm-up 18–30 s,
// 2 capped".
func steadyCell(b *results.Benchmark) string {
	cell := b.Steady
	switch b.Steady {
	case "":
		cell = "-"
	case results.SteadyUnknown:
		cell = "too few"
	case results.SteadyWarmedUp, results.SteadySlowdown:
		var after float64
		for _, t := range b.Forks {
			if t.Steady != nil {
				after = max(after, t.Steady.AfterSeconds)
			}
		}
		cell = fmt.Sprintf("%s %.1f s", b.Steady, after)
	}
	lo, hi, capped, n := math.Inf(1), 0.0, 0, 0
	for _, t := range b.Forks {
		if w := t.Warmup; w != nil && w.Adaptive {
			lo, hi, n = min(lo, w.Seconds), max(hi, w.Seconds), n+1
			if !w.Settled {
				capped++
			}
		}
	}
	if n == 0 {
		return cell
	}
	span := fmt.Sprintf("%.0f s", hi)
	if math.Round(lo) != math.Round(hi) {
		span = fmt.Sprintf("%.0f–%.0f s", lo, hi)
	}
	cell += "; warm-up " + span
	if capped > 0 {
		cell += fmt.Sprintf(", %d capped", capped)
	}
	return cell
}

// bytesCell is a per-op byte count, or n/a when the client could not count them.
func bytesCell(s *results.Summary, v float64) string {
	if s.BytesNotCounted {
		return notAvailable
	}
	return fixed(v, 0)
}

// paired reports whether the group's ratios were paired against a baseline.
func paired(g results.Group) (baseline string, ok bool) {
	for _, b := range g.Benchmarks {
		if r := b.Summary.Relative; r != nil {
			return r.Baseline, true
		}
	}
	return "", false
}

// groupNote says how a group was measured, in which machine shape, how its targets
// were kept apart, and what its Relative column is against.
func groupNote(g results.Group) string {
	note, setup := measuredNote(g), setupNote(g)
	switch {
	case setup == "":
		return note
	case note == "":
		return " (" + setup + ")"
	}
	return strings.TrimSuffix(note, ")") + "; " + setup + ")"
}

// setupNote is the machine shape of a group's benchmarks and how its targets were
// isolated: "shared on CPUs 0-1, the others frozen (cgroup2)"; "" for results
// written before either was recorded.
func setupNote(g results.Group) string {
	var parts []string
	if len(g.Benchmarks) > 0 {
		b := g.Benchmarks[0]
		if sh := b.Shape; sh != nil {
			switch {
			case sh.ServerCPUs == "" && sh.ClientCPUs == "":
				parts = append(parts, sh.Name+", not pinned")
			case sh.Name == "shared":
				parts = append(parts, "shared: both sides on CPUs "+sh.ServerCPUs)
			default:
				parts = append(parts, fmt.Sprintf("split: server on CPUs %s, clients on %s", cmp.Or(sh.ServerCPUs, "any"), cmp.Or(sh.ClientCPUs, "any")))
			}
		}
		if w := b.Workers; w != nil {
			parts = append(parts, fmt.Sprintf("each fork's workers served %d groups in turn, this one %s (warmed up once per fork)", w.Groups, ordinal(w.Position)))
		}
		switch iso := b.Isolation; {
		case iso == "":
		case strings.HasPrefix(iso, "none"):
			parts = append(parts, "the other targets not frozen ("+iso+")")
		default:
			parts = append(parts, "the other targets frozen during each slice ("+iso+")")
		}
		if n := keepAliveSlices(g); n > 0 {
			parts = append(parts, fmt.Sprintf("while the others warmed up, a target warmed up before them got an unmeasured slice of its load whenever idle for %g s (%d in all)",
				b.KeepAliveSeconds, n))
		}
	}
	return strings.Join(parts, "; ")
}

// keepAliveSlices counts the keep-alive slices of a group's benchmarks over their forks.
func keepAliveSlices(g results.Group) int {
	n := 0
	for _, b := range g.Benchmarks {
		for _, t := range b.Forks {
			if t.Warmup != nil {
				n += t.Warmup.KeepAliveSlices
			}
		}
	}
	return n
}

// measuredNote says how a group was measured and what its Relative column is against.
func measuredNote(g results.Group) string {
	method, rounds, forks := "", 0, 0
	for _, b := range g.Benchmarks {
		if b.Method != "" {
			method = b.Method
		}
		if r := b.Summary.Relative; r != nil {
			rounds = max(rounds, r.Rounds)
			forks = max(forks, r.Forks)
		}
	}
	base, ok := paired(g)
	if !ok {
		if len(g.Benchmarks) < 2 {
			return ""
		}
		return " (relative to the best)"
	}
	drift := ""
	for _, b := range g.Benchmarks {
		if b.Name == base {
			base = results.SeriesLabel(&b)
			drift = driftNote(&b)
		}
	}
	if method == "" {
		return fmt.Sprintf(" (relative to %s, %d %s%s)", base, rounds, plural(rounds, "pair", "pairs"), drift)
	}
	if forks > 1 {
		return fmt.Sprintf(" (%s, %d forks × %s rounds; relative to %s%s)", method, forks, perFork(rounds, forks), base, drift)
	}
	if method == results.MethodInterleaved && forks == 1 {
		return fmt.Sprintf(" (%s, %d %s of one fork: the intervals leave out what a fresh process changes; relative to %s%s)", method, rounds, plural(rounds, "round", "rounds"), base, drift)
	}
	return fmt.Sprintf(" (%s, %d %s; relative to %s%s)", method, rounds, plural(rounds, "round", "rounds"), base, drift)
}

// perFork is the rounds per fork, "35", or "~35" when the forks had different counts.
func perFork(rounds, forks int) string {
	if rounds%forks == 0 {
		return strconv.Itoa(rounds / forks)
	}
	return "~" + strconv.Itoa((rounds+forks/2)/forks)
}

// relativeCells are the Relative column of a group: "0.71× [0.68, 0.74]" (the
// paired ratio and its interval, asymmetric as a ratio's is), "1× (base)" for the
// baseline, "0.71× (too few)" when the interval rests on too few forks or rounds
// to mean anything, with "~" before a ratio whose target or baseline reached no
// steady state, or the ratio to the best for results without paired ratios. In the
// open model the ratio is of response-time p50 and p99: "p50 0.80× [..], p99 ..".
func relativeCells(g results.Group) []string {
	out := make([]string, len(g.Benchmarks))
	base, ok := paired(g)
	if !ok {
		for i, v := range ToBest(g) {
			out[i] = times(v)
		}
		return out
	}
	for i, b := range g.Benchmarks {
		r := b.Summary.Relative
		switch {
		case b.Name == base:
			out[i] = "1× (base)"
		case r == nil || !isFinite(r.Ratio.Mean) || r.Ratio.Mean <= 0:
			out[i] = notAvailable
		case r.Of == results.RelativeLatencyP50:
			out[i] = "p50 " + ratioCell(r, r.Ratio)
			if r.LatencyP99 != nil {
				out[i] += ", p99 " + ratioCell(r, *r.LatencyP99)
			}
		default:
			out[i] = ratioCell(r, r.Ratio)
		}
	}
	return out
}

// ratioCell is one ratio with its interval, as relativeCells prints it.
func ratioCell(r *results.Relative, q results.Ratio) string {
	mark := ""
	if r.Unsteady {
		mark = "~"
	}
	if !r.HasInterval() {
		return mark + times(q.Mean) + " (too few)"
	}
	return mark + times(q.Mean) + " [" + bound(q.CILow) + ", " + bound(q.CIHigh) + "]"
}

// bound is one end of a ratio's interval, to three significant digits from 100 up
// (an interval past float64, from very few rounds, is too few to print).
func bound(f float64) string {
	switch {
	case f >= 1e6:
		return ">1e6"
	case f >= 100:
		return fixed(f, 0)
	}
	return fixed(f, 2)
}

// legend is the lines that explain the marks of bs's tables and charts.
func legend(bs []results.Benchmark) []string {
	for i := range bs {
		if bs[i].Tuned() {
			return []string{results.TunedLegend}
		}
	}
	return nil
}

// unmeasured reports a benchmark that measured no call (it failed before its rounds,
// or every round failed): its figures are unknown, not zero, and its rows say so.
func unmeasured(b *results.Benchmark) bool {
	return b.Summary.Ops == 0 && scoreN(b) == 0
}

// unmeasuredRow is a comparison row of an unmeasured benchmark: its name, "failed"
// (or "not measured") for its steady state, n/a for every figure.
func unmeasuredRow(b *results.Benchmark, row []string) []string {
	out := make([]string, len(row))
	for i := range out {
		out[i] = notAvailable
	}
	out[0], out[3] = row[0], "not measured"
	if len(b.Warnings.Of(results.WarnFailed)) > 0 {
		out[3] = "failed"
	}
	return out
}

func scoreN(b *results.Benchmark) int {
	if a := b.Summary.AvgTimeMs; b.Mode == results.ModeAverageTime && a != nil {
		return a.N
	}
	return b.Summary.ThroughputOpsS.N
}

// latencyTable is the table of the Akka HTTP vs gRPC experiment (wrk2's
// figures), one row per benchmark, times in ms: three decimals from 1 ms up, three
// significant digits below (an in-process call's 0.000912).
func latencyTable(bs []results.Benchmark) table {
	t := table{
		Head: []string{"Benchmark", "Total number of requests", "Req/s", "Max, ms", "Avg, ms",
			"50th pct", "75th pct", "90th pct", "99th pct", "99.9th pct"},
		Align: "lrrrrrrrrr",
	}
	ms := func(us float64) string {
		if v := us / 1e3; math.Abs(v) < 1 && v != 0 {
			return Significant(v, 3) // an in-process call: 0.000912, not 0.001 or 0.000
		}
		return fixed(us/1e3, 3)
	}
	for _, b := range bs {
		l := b.Summary.LatencyUs
		t.Rows = append(t.Rows, []string{b.Name, strconv.FormatInt(b.Summary.Ops, 10),
			fixed(b.Summary.ThroughputOpsS.Mean, 2), ms(l.Max), ms(l.Mean),
			ms(l.P50), ms(l.P75), ms(l.P90), ms(l.P99), ms(l.P999)})
	}
	return t
}

// note is one warning or error about a benchmark.
type note struct {
	Benchmark string
	// Kind is "warning" or "error".
	Kind string
	Text string
}

// notes gathers what a reader must know before trusting a figure: warnings,
// a generator-bound result, failed calls, forks cut short, late arrivals.
func notes(bs []results.Benchmark) []note {
	var ns []note
	for _, b := range bs {
		add := func(kind, format string, args ...any) {
			ns = append(ns, note{Benchmark: b.Name, Kind: kind, Text: fmt.Sprintf(format, args...)})
		}
		// The summary writes its own warnings for a generator-bound result and for
		// failed calls; say each thing once.
		for _, w := range b.Warnings {
			kind := "warning"
			if w.Kind.IsError() {
				kind = "error"
			}
			add(kind, "%s", w)
		}
		saidBound, saidErrors := b.Warnings.Has(results.WarnGenerator), b.Warnings.Has(results.WarnErrors)
		if b.GeneratorBound && !saidBound {
			add("warning", "the load generator, not the target, limited this result")
		}
		s := b.Summary
		if s.Overflow > 0 {
			add("warning", "%d open-model arrivals found every in-flight slot busy and started late", s.Overflow)
		}
		if s.Errors > 0 && !saidErrors {
			kinds := make([]string, 0, len(s.ErrorsByKind))
			for k, n := range s.ErrorsByKind {
				kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
			}
			slices.Sort(kinds)
			by := ""
			if len(kinds) > 0 {
				by = " (" + strings.Join(kinds, ", ") + ")"
			}
			add("error", "%d failed calls of %d%s", s.Errors, s.Ops+s.Errors, by)
		}
		for _, t := range b.Forks {
			if t.Error != "" && !failureSaid(&b, t) {
				add("error", "%s", cutShort(t))
			}
		}
	}
	return ns
}

// failureSaid reports whether b's failure warning already says why fork t was cut
// short (the benchmark failed in that fork, for that reason).
func failureSaid(b *results.Benchmark, t results.ForkResult) bool {
	for _, w := range b.Warnings.Of(results.WarnFailed) {
		if w.Fork == t.Index+1 && w.Phase == t.Phase && firstLine(w.Text) == firstLine(t.Error) {
			return true
		}
	}
	return false
}

// keyValue is one line of the environment.
type keyValue struct{ Key, Value string }

func environment(e results.Environment) []keyValue {
	or := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	kv := []keyValue{
		{"CPU", or(e.CPUModel)},
		{"Cores", strconv.Itoa(e.Cores)},
		{"Memory", fmt.Sprintf("%s GiB", fixed(float64(e.MemoryBytes)/(1<<30), 1))},
		{"Kernel", or(e.Kernel)},
		{"OS", or(e.OS)},
		{"Go", or(e.GoVersion)},
		{"wirebench", or(e.WirebenchVersion)},
	}
	pin := "not pinned"
	if e.ServerCPUs != "" || e.ClientCPUs != "" {
		pin = fmt.Sprintf("server on CPUs %s, load generator on CPUs %s", or(e.ServerCPUs), or(e.ClientCPUs))
	}
	kv = append(kv, keyValue{"Pinning", pin})
	if !e.Started.IsZero() {
		kv = append(kv, keyValue{"Started", e.Started.UTC().Format(time.RFC3339)})
	}
	return kv
}

// Number formats, one per kind of figure, shared by every renderer.

// scoreNum is a score or its error as JMH prints it: three decimals, four
// under 1 (ms/op scores).
func scoreNum(f float64) string {
	switch {
	case !isFinite(f):
		return notAvailable
	case math.Abs(f) < 1:
		return fmt.Sprintf("%.4f", f)
	}
	return fmt.Sprintf("%.3f", f)
}

// Significant is v to digits significant digits, written without an exponent:
// 17620, not 1.762e+04; 0.000912, not 9.12e-04.
func Significant(v float64, digits int) string {
	if v == 0 || !isFinite(v) {
		return fixed(v, 0)
	}
	// decimals: how many places after the point hold the significant digits.
	decimals := digits - 1 - int(math.Floor(math.Log10(math.Abs(v))))
	if decimals >= 0 {
		return fixed(v, decimals)
	}
	scale := math.Pow(10, float64(-decimals))
	return fixed(math.Round(v/scale)*scale, 0)
}

// fixed is f with prec decimals.
func fixed(f float64, prec int) string {
	if !isFinite(f) {
		return notAvailable
	}
	s := strconv.FormatFloat(f, 'f', prec, 64)
	if s == "-0" || strings.Trim(s, "-0.") == "" && strings.HasPrefix(s, "-") {
		s = s[1:] // no "-0.00"
	}
	return s
}

// latencyUs is a latency in µs: whole µs from 100 up, one decimal below, two
// below 1 µs.
func latencyUs(us float64) string {
	switch {
	case !isFinite(us):
		return notAvailable
	case math.Abs(us) < 1:
		return fixed(us, 2)
	case us >= 100:
		return fmt.Sprintf("%.0f", us)
	}
	return fmt.Sprintf("%.1f", us)
}

// times is a ratio such as "0.43×".
func times(f float64) string {
	if !isFinite(f) {
		return notAvailable
	}
	return fixed(f, 2) + "×"
}

// ordinal is n in words of order: first, second, ..., then 11th and on.
func ordinal(n int) string {
	words := []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
	if n >= 1 && n <= len(words) {
		return words[n-1]
	}
	return fmt.Sprintf("%dth", n)
}
