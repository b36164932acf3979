package report

import (
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/results"
)

// verdict is what one operation's comparison says, in sentences a reader can
// quote: which target won, by how much against the baseline and how sure that is,
// which targets tie, and what makes a figure weaker than it looks.
type verdict struct {
	Operation string
	Text      string
}

// verdicts has one verdict per operation (results.Groups) of two targets or more.
// It reads the paired ratios the summary made (Summary.Relative) and computes none:
//
//   - Better is a higher ratio of throughput, a lower one of time per op (avgt) or of
//     response time (the open model, whose throughput is the fixed rate).
//   - A target beats the baseline when its whole interval is on the better side of 1,
//     loses to it when its whole interval is on the other side, and ties with it
//     when its interval includes 1.
//   - The winner is the target with the best ratio among those that beat the
//     baseline; the baseline wins when every target with an interval loses to it.
//     Otherwise no target won. A target whose interval overlaps the winner's is not
//     told apart from it: the two tie. (Overlap is the cautious test: two ratios to
//     one baseline whose intervals overlap may still differ.)
//   - A ratio without an interval (too few forks or rounds) takes no part.
//   - An in-process target (direct) is not a contender where targets across a wire
//     are: it has no wire, and is named as the floor.
//
// A group without paired ratios (targets not measured together) says so and names
// the highest score.
func verdicts(bs []results.Benchmark) []verdict {
	var out []verdict
	for _, g := range results.Groups(bs) {
		if len(g.Benchmarks) < 2 {
			continue
		}
		out = append(out, verdict{Operation: g.Name, Text: groupVerdict(g)})
	}
	return out
}

// contender is one target of a group with its paired ratio to the baseline.
type contender struct {
	b     *results.Benchmark
	r     *results.Relative
	label string
}

// lowerIsBetter reports whether a smaller ratio r is the better one.
func lowerIsBetter(b *results.Benchmark, r *results.Relative) bool {
	return r.Of == results.RelativeLatencyP50 || b.Mode == results.ModeAverageTime
}

// gain is c's ratio turned so that higher is better.
func (c contender) gain() float64 {
	if lowerIsBetter(c.b, c.r) {
		return 1 / c.r.Ratio.Mean
	}
	return c.r.Ratio.Mean
}

// side is +1 when c's whole interval is on the better side of 1, -1 when on the
// worse side, 0 when it includes 1.
func (c contender) side() int {
	lo, hi := c.r.Ratio.CILow, c.r.Ratio.CIHigh
	sign := 1
	if lowerIsBetter(c.b, c.r) {
		sign = -1
	}
	switch {
	case lo > 1:
		return sign
	case hi < 1:
		return -sign
	}
	return 0
}

// overlaps reports whether c's and d's intervals overlap.
func (c contender) overlaps(d contender) bool {
	return c.r.Ratio.CILow <= d.r.Ratio.CIHigh && d.r.Ratio.CILow <= c.r.Ratio.CIHigh
}

// claim is c's ratio to base with its interval and what it rests on:
// "1.47× http-json [1.37, 1.58], 99.9 % over 15 forks".
func (c contender) claim(base string) string {
	q := c.r.Ratio
	what := times(q.Mean) + " " + base
	switch {
	case c.r.Of == results.RelativeLatencyP50:
		what = "p50 response time " + times(q.Mean) + " " + base + "'s"
	case c.b.Mode == results.ModeAverageTime:
		what = "time per op " + times(q.Mean) + " " + base + "'s"
	}
	mark := ""
	if c.r.Unsteady {
		mark = " (~: it pairs every fork, some with no steady state)"
	}
	return fmt.Sprintf("%s [%s, %s], %s %% over %s%s", what, bound(q.CILow), bound(q.CIHigh),
		fixed(q.CI*100, 1), c.r.Samples(), mark)
}

func groupVerdict(g results.Group) string {
	base, ok := paired(g)
	if !ok && g.Benchmarks[0].Load.Model == results.ModelOpen {
		return "no paired ratios (its targets were not measured in one comparison group), so no winner with an interval; in the open model the throughput is the offered rate: compare the response times in the table."
	}
	if !ok {
		best, label := 0.0, ""
		for i, v := range ToBest(g) {
			if isFinite(v) && v >= best && (!acrossWire(g) || g.Benchmarks[i].Transport != results.InProcess) {
				best, label = v, results.SeriesLabel(&g.Benchmarks[i])
			}
		}
		if label == "" {
			return "no target has a score."
		}
		return fmt.Sprintf("no paired ratios (its targets were not measured in one comparison group), so no winner with an interval; the highest score is %s's.", label)
	}
	var baseB *results.Benchmark
	for i := range g.Benchmarks {
		if g.Benchmarks[i].Name == base {
			baseB = &g.Benchmarks[i]
		}
	}
	baseLabel := base
	if baseB != nil {
		baseLabel = results.SeriesLabel(baseB)
	}
	wired := acrossWire(g)
	var decided, undecided []contender
	var floors []string
	for i := range g.Benchmarks {
		b := &g.Benchmarks[i]
		r := b.Summary.Relative
		if b.Name == base || r == nil || !isFinite(r.Ratio.Mean) || r.Ratio.Mean <= 0 {
			continue
		}
		c := contender{b: b, r: r, label: results.SeriesLabel(b)}
		switch {
		case wired && b.Transport == results.InProcess:
			floors = append(floors, fmt.Sprintf("%s (in process, no wire: %s)", c.label, times(r.Ratio.Mean)))
		case !r.HasInterval():
			undecided = append(undecided, c)
		default:
			decided = append(decided, c)
		}
	}
	var s []string
	var winner *contender
	named, tie := "", false // the target the first sentence names; whether it ties with the baseline
	if len(decided) == 0 {
		s = append(s, fmt.Sprintf("no winner: no ratio to %s has an interval.", baseLabel))
	} else {
		best := 0
		for i, c := range decided {
			if c.gain() > decided[best].gain() {
				best = i
			}
		}
		b := decided[best]
		named = b.b.Name
		switch b.side() {
		case 1:
			winner = &b
			s = append(s, fmt.Sprintf("%s won: %s.", b.label, b.claim(baseLabel)))
		case -1:
			s = append(s, fmt.Sprintf("%s (the baseline) won: the nearest, %s, is %s.", baseLabel, b.label, b.claim(baseLabel)))
		default:
			tie = true
			s = append(s, fmt.Sprintf("no winner: %s ties with %s, the baseline, at %s.", b.label, baseLabel, b.claim(baseLabel)))
		}
	}
	var withWinner, withBase, behind []string
	for _, c := range decided {
		switch {
		case c.b.Name == named:
		case winner != nil && c.overlaps(*winner):
			withWinner = append(withWinner, c.label)
		case c.side() == 0:
			withBase = append(withBase, c.label)
		case c.side() == 1:
			behind = append(behind, fmt.Sprintf("%s (%s [%s, %s])", c.label, times(c.r.Ratio.Mean), bound(c.r.Ratio.CILow), bound(c.r.Ratio.CIHigh)))
		}
	}
	if len(withWinner) > 0 {
		s = append(s, fmt.Sprintf("%s %s with it (the intervals overlap).", andList(withWinner), tieVerb(withWinner)))
	}
	if len(behind) > 0 {
		s = append(s, fmt.Sprintf("Behind it, also ahead of the baseline: %s.", andList(behind)))
	}
	if len(withBase) > 0 {
		too := ""
		if tie {
			too = " too"
		}
		s = append(s, fmt.Sprintf("%s %s with %s%s (the intervals include 1).", andList(withBase), tieVerb(withBase), baseLabel, too))
	}
	if len(undecided) > 0 {
		var names []string
		for _, c := range undecided {
			names = append(names, c.label)
		}
		s = append(s, fmt.Sprintf("Too few forks for an interval: %s (run more forks).", andList(names)))
	}
	var unsteady []string
	for i := range g.Benchmarks {
		if g.Benchmarks[i].Steady == results.SteadyNone {
			unsteady = append(unsteady, results.SeriesLabel(&g.Benchmarks[i]))
		}
	}
	if len(unsteady) > 0 {
		s = append(s, fmt.Sprintf("No steady state: %s (its speed kept changing over the rounds; a ratio marked ~ pairs every fork).", andList(unsteady)))
	}
	for i := range g.Benchmarks {
		b := &g.Benchmarks[i]
		if !b.GeneratorBound || b.Transport == results.InProcess {
			continue
		}
		s = append(s, generatorSentence(b, b.Name == base, winner != nil && winner.b.Name == b.Name))
	}
	if len(floors) > 0 {
		s = append(s, fmt.Sprintf("Not ranked: %s.", andList(floors)))
	}
	return strings.Join(s, " ")
}

// generatorSentence says what a generator-bound target means for the ranking and
// what to do, as the capacity report does for a search that ended on its generator.
func generatorSentence(b *results.Benchmark, isBase, isWinner bool) string {
	why := "the load generator limited it"
	if g := b.Warnings.Of(results.WarnGenerator); len(g) > 0 {
		why = g[0].Text
	}
	label := results.SeriesLabel(b)
	effect := "its score is a floor: its server may be faster than its place in this ranking says"
	switch {
	case isBase:
		effect = "the baseline's score is a floor, so every ratio to it may be too high"
	case isWinner:
		effect = "its score is a floor: it won by at least this much, and its server may be faster still"
	}
	return fmt.Sprintf("%s is generator-bound (%s): the client, not the server, set its figure; %s. To rank the servers, give its client more CPUs (client_cpus) or a cheaper client stack (client_stack: instrument, where the protocol has one).",
		label, why, effect)
}

func tieVerb(names []string) string {
	if len(names) == 1 {
		return "ties"
	}
	return "tie"
}

// andList is "a", "a and b", "a, b and c".
func andList(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// title is a report's title: the suite, the command that made the results, a SMOKE
// mark on a smoke run, whose figures are not measurements, and first an INTERRUPTED
// mark on a run cut short.
func title(r *results.Results) string {
	t := "wirebench results"
	if r.Suite != nil && r.Suite.Name != "" {
		t += ": suite " + r.Suite.Name
	}
	if r.Command != "" {
		t += " (" + r.Command + ")"
	}
	if r.Smoke {
		t = "[SMOKE] " + t
	}
	if n := interruptedCount(r.Benchmarks); n > 0 {
		t = fmt.Sprintf("[INTERRUPTED: %d of %d benchmarks cut short; run --resume to finish] %s", n, len(r.Benchmarks), t)
	}
	return t
}

// interruptedCount is how many of bs the run stopped before every fork was measured
// (results.WarnInterrupted): a report says so in its title, before any figure.
func interruptedCount(bs []results.Benchmark) int {
	n := 0
	for i := range bs {
		if len(bs[i].Warnings.Of(results.WarnInterrupted)) > 0 {
			n++
		}
	}
	return n
}

// smokeNote is what a smoke run's reports say under their title.
const smokeNote = "A smoke run: tiny durations and one fork, to check that the suite runs. Its figures are not measurements; run without --smoke for those."

// verdictNote says under the heading of the verdicts how they are read.
const verdictNote = "From each operation's paired ratios to its baseline and their 99.9 % intervals: a target ties with the baseline when its interval includes 1, and with the winner when their intervals overlap"
