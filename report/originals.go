package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/stats"
	"github.com/wirebench/wirebench/suite/originals"
)

// The views a suite gets by declaring an original (SuiteInfo.Original) or deviations,
// after the views it names: they are not in ViewNames, since a suite cannot ask for
// them without the data they show.
const (
	// ViewOriginal is the Original vs wirebench table: per finding of the original,
	// its ratio, ours with its interval, the ratio of ratios and the computed verdict
	// (package originals).
	ViewOriginal = "original-vs-wirebench"
	// ViewDeviations lists the suite's declared departures from its original.
	ViewDeviations = "deviations"
)

// suiteViews are the views a suite's declarations bring: its deviations, then the
// Original vs wirebench table.
func suiteViews(r *results.Results) []view {
	var out []view
	if ds := r.Suite.Deviations; len(ds) > 0 {
		t := table{Head: []string{"What differs from the original", "Why"}, Align: "ll"}
		for _, d := range ds {
			t.Rows = append(t.Rows, []string{d.What, d.Why})
		}
		out = append(out, view{Name: ViewDeviations, Title: "Deviations from the original",
			Note: "Declared by the suite itself (its deviations list): where this run does not do what the original did.", Tables: []table{t}})
	}
	if ref := r.Suite.Original; ref != nil {
		out = append(out, originalView(ref, r.Benchmarks))
	}
	return out
}

// originalView sets the original's findings beside the benchmarks bs.
func originalView(ref *results.OriginalRef, bs []results.Benchmark) view {
	v := view{Name: ViewOriginal, Title: "Original vs wirebench"}
	o, err := originals.Load(ref.Name)
	if err != nil {
		v.Note = "The original's published figures could not be read: " + err.Error()
		return v
	}
	v.Note = fmt.Sprintf("%s. Per finding of the original (a ratio of two of its published figures): the original's ratio with its interval, "+
		"the ratio of the two figures' intervals (±%.0f %% for a figure published without an error); "+
		"ours, paired by fork and round with its 99.9 %% interval when the two benchmarks were measured in the rounds of one comparison group "+
		"(for a latency, an open-loop group's p50 or p99), else the ratio of two figures measured apart, marked ‡ (a score's interval from the two errors, "+
		"a latency's none); our ratio over the original's; and the verdict, which holds ours to the original's interval itself, widened by nothing. "+
		"Where the original's interval lies on one side of 1, the finding holds when ours lies wholly on that side and overlaps the original's interval, "+
		"and does not hold when ours lies wholly on the other side or wholly outside the original's interval; where it includes 1, it holds when ours lies within it "+
		"and does not hold when ours lies wholly outside it; otherwise it is inconclusive. It is not comparable when a benchmark is missing or not at the original's setup, "+
		"has no steady state, or the original's two figures came from two load models and this run has not measured both under one; see docs/suites.md, \"The verdict\".",
		o.Title, originals.UnpublishedError*100)
	rows := originals.Compare(o, ref.Setup, Benches(bs))
	t := table{Title: VerdictCounts(rows), Head: []string{"Finding", "Original", "Ratio", "Ours", "Ours / original", "Verdict", "Why"}, Align: "lrrrrll"}
	for _, row := range rows {
		f := row.Finding
		t.Rows = append(t.Rows, []string{
			f.Says,
			figure(f.Of) + " / " + figure(f.Over),
			claimCell(originals.ClaimOf(f)),
			oursCell(row),
			ratioOfRatios(row),
			string(row.Verdict),
			row.Why,
		})
	}
	v.Tables = append(v.Tables, t, setupsTable(o, ref.Setup))
	return v
}

func figure(f *originals.Figure) string {
	s := strconv.FormatFloat(f.Value, 'f', -1, 64)
	if f.Error > 0 {
		s += " ± " + strconv.FormatFloat(f.Error, 'f', -1, 64)
	}
	return s + " " + f.Unit
}

func plainRatio(r float64) string {
	switch {
	case r >= 10:
		return fixed(r, 1) + "×"
	case r >= 1:
		return fixed(r, 2) + "×"
	}
	return fixed(r, 3) + "×"
}

// VerdictCounts is the summary line of an Original vs wirebench table: how many of
// rows got each of the four verdicts, all four always, in one order.
func VerdictCounts(rows []originals.Row) string {
	n := map[originals.Verdict]int{}
	for _, r := range rows {
		n[r.Verdict]++
	}
	parts := make([]string, len(originals.Verdicts))
	for i, v := range originals.Verdicts {
		parts[i] = fmt.Sprintf("%s %d", v, n[v])
	}
	findings := "findings"
	if len(rows) == 1 {
		findings = "finding"
	}
	return fmt.Sprintf("Of %d %s: %s", len(rows), findings, strings.Join(parts, ", "))
}

// claimCell is the original's ratio and its interval.
func claimCell(c originals.Claim) string {
	hi := "∞"
	if !math.IsInf(c.High, 1) {
		hi = strings.TrimSuffix(plainRatio(c.High), "×")
	}
	return plainRatio(c.Ratio) + " [" + strings.TrimSuffix(plainRatio(c.Low), "×") + ", " + hi + "]"
}

func oursCell(row originals.Row) string {
	if row.Of == nil || row.Over == nil || row.RatioOfRatios == 0 {
		return notAvailable
	}
	e := row.Ours
	s := plainRatio(e.Mean)
	if e.Low != e.High {
		s += " [" + strings.TrimSuffix(plainRatio(e.Low), "×") + ", " + strings.TrimSuffix(plainRatio(e.High), "×") + "]"
	}
	if !row.Paired {
		s += " ‡"
	}
	return s
}

func ratioOfRatios(row originals.Row) string {
	if row.RatioOfRatios == 0 {
		return notAvailable
	}
	return fixed(row.RatioOfRatios, 2)
}

// setupsTable says how the original measured each setup whose findings are shown, and
// where its figures were read.
func setupsTable(o *originals.Original, only string) table {
	t := table{Title: "How the original measured", Head: []string{"Setup", "Tool", "How", "Machine", "Stacks", "Source"}, Align: "llllll"}
	for _, s := range o.Setups {
		if only != "" && s.Name != only {
			continue
		}
		src := s.Source.Repo + " " + s.Source.File
		if c := s.Source.Commit; c != "" {
			src += " at " + c[:min(len(c), 7)]
		}
		t.Rows = append(t.Rows, []string{s.Name, s.Tool, s.How, s.Machine, s.Stacks, src})
	}
	return t
}

// Benches is what package originals reads of bs. Two benchmarks measured in one
// comparison group's rounds (stats.Pairable) are paired by Bench.Pair as the group
// pairs a target with its baseline (stats.Paired), from the slices bs hold.
func Benches(bs []results.Benchmark) []originals.Bench {
	out := make([]originals.Bench, len(bs))
	byName := make(map[string]*results.Benchmark, len(bs))
	for i := range bs {
		byName[bs[i].Name] = &bs[i]
	}
	for i := range bs {
		b := &bs[i]
		ob := originals.Bench{Name: b.Name, Protocol: b.Protocol, Transport: b.Transport, Label: b.Label, Workload: b.Workload,
			Load: b.Load.Model, Concurrency: int64(b.Load.Concurrency), Connections: int64(b.Load.Connections), Rate: b.Load.Rate,
			Avgt: b.Mode == results.ModeAverageTime, Steady: b.Steady,
			Payload: param(b.Params, "payload"), Increments: param(b.Params, "increments"), Trades: param(b.Params, "trades")}
		if w := b.Warnings.Of(results.WarnStillWarming); len(w) > 0 {
			ob.StillWarming = w[0].String()
		}
		if b.ServerStack != nil {
			ob.ServerStack = b.ServerStack.Name
		}
		if b.ClientStack != nil {
			ob.ClientStack = b.ClientStack.Name
		}
		ob.Score, ob.ScoreError, _ = b.Score()
		l := b.Summary.LatencyUs
		ob.Latency = map[string]float64{"mean": l.Mean, "p50": l.P50, "p75": l.P75, "p90": l.P90, "p99": l.P99, "p999": l.P999, "max": l.Max}
		ob.Relative = relativeOf(b.Summary.Relative, "score")
		ob.Pair = func(over *originals.Bench, metric string) *originals.Relative {
			o := byName[over.Name]
			if o == nil || !stats.Pairable(b, o) {
				return nil
			}
			rel, _ := stats.Paired(b, o)
			return relativeOf(rel, metric)
		}
		out[i] = ob
	}
	return out
}

// relativeOf is r's ratio of metric (as originals.Ours.Metric names it: "score",
// "p50", "p99"), or nil when r is nil or not of that metric.
func relativeOf(r *results.Relative, metric string) *originals.Relative {
	if r == nil {
		return nil
	}
	var q *results.Ratio
	switch {
	case r.Of == "" && metric == "score", r.Of == results.RelativeLatencyP50 && metric == "p50":
		q = &r.Ratio
	case r.Of == results.RelativeLatencyP50 && metric == "p99":
		q = r.LatencyP99
	}
	if q == nil {
		return nil
	}
	return &originals.Relative{Baseline: r.Baseline, Mean: q.Mean, Low: q.CILow, High: q.CIHigh}
}

// param is a numeric workload parameter of a results file (JSON numbers read back as
// float64; ones built in memory may be ints); 0 when absent.
func param(ps map[string]any, key string) int64 {
	switch v := ps[key].(type) {
	case float64:
		return int64(v)
	case int:
		return int64(v)
	case int64:
		return v
	}
	return 0
}
