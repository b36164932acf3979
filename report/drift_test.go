package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/textgrid"
	"github.com/wirebench/wirebench/results"
)

func TestDriftFigure(t *testing.T) {
	for _, c := range []struct {
		d    results.Drift
		want string
	}{
		// A significant 10.5 % slowdown: the move is the trend's size.
		{results.Drift{Rounds: 12, Trend: -0.104662, TrendSignificant: true, Moved: 0.104662}, "10 % (trend −10 % over 12 rounds)"},
		// Two levels 18 % apart under a trend that is noise: the move is the levels'.
		{results.Drift{Rounds: 40, Trend: 0.02, Levels: 0.18, Moved: 0.18}, "18 % (two levels 18 % apart; trend +2.0 % over 40 rounds, within noise)"},
		// Nothing moved beyond noise.
		{results.Drift{Rounds: 225, Trend: 0.004}, "within noise (trend +0.4 % over 225 rounds)"},
		{results.Drift{Rounds: 225, Trend: -0.00001}, "within noise (trend 0.0 % over 225 rounds)"},
		// Too few rounds for a trend.
		{results.Drift{Rounds: 2}, "unknown (2 rounds)"},
		{results.Drift{Rounds: 1}, "unknown (1 round)"},
	} {
		if got := driftFigure(&c.d); got != c.want {
			t.Errorf("%+v: %q, want %q", c.d, got, c.want)
		}
	}
}

func TestReferenceLine(t *testing.T) {
	at := func(hms string) time.Time {
		tm, err := time.Parse(time.RFC3339, "2026-11-29T"+hms+"Z")
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	sample := func(hms string, opsS float64) *results.ReferenceSample {
		return &results.ReferenceSample{At: at(hms), OpsS: opsS, Seconds: 0.5, CPUs: "0", Workload: results.ReferenceWorkload}
	}
	for _, c := range []struct {
		name string
		refs []results.ReferenceRun
		want string
	}{
		{"none", nil, ""},
		// Two batches: 2 812 000 → 2 760 000 ops/s over the run is −1.85 %; the first
		// batch 2 812 000 → 2 745 000 (−2.38 %), the second 2 790 000 → 2 760 000 (−1.08 %).
		{"two batches", []results.ReferenceRun{
			{Batch: 0, Start: sample("10:00:01", 2812000), End: sample("10:20:00", 2745000)},
			{Batch: 1, Start: sample("10:20:01", 2790000), End: sample("10:42:13", 2760000)},
		}, "Reference, the machine's own speed (" + results.ReferenceWorkload + " on CPUs 0): 2812000 ops/s at the start " +
			"(10:00:01 UTC), 2760000 at the end (10:42:13 UTC): −1.8 %; from start to end of each of its 2 " +
			"batches −2.4 % to −1.1 %. Set beside another run's, it says how the machine moved between them."},
		// An interrupted run: the start alone.
		{"start only", []results.ReferenceRun{{Batch: 0, Start: sample("10:00:01", 2812000)}},
			"Reference, the machine's own speed (" + results.ReferenceWorkload + " on CPUs 0): 2812000 ops/s at the start " +
				"(10:00:01 UTC). Set beside another run's, it says how the machine moved between them."},
		{"remote", []results.ReferenceRun{{Batch: 0, Why: "the server worker is remote (tcp://h:1)"}},
			"Reference (the machine's own speed): not measured: the server worker is remote (tcp://h:1)."},
	} {
		if got := referenceLine(c.refs); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// The drift figure is in its group's heading, the flag among the notes, and the
// reference once under the title, on a 100-column terminal with no line over 100
// columns, and in the Markdown report.
func TestDriftInReports(t *testing.T) {
	r := fixture(t)
	base := &r.Benchmarks[1] // the person.get group's baseline
	base.Summary.Drift = &results.Drift{Rounds: 150, Trend: -0.12, TrendSignificant: true, Moved: 0.12}
	base.Warnings = append(base.Warnings, results.Warning{Kind: results.WarnDriftOverInterval,
		Text: "the machine's speed moved 12 % under the rounds, more than the interval of 2 of its 3 ratios is wide (±3.5 % to ±5.2 %)"})
	at := time.Date(2026, 11, 29, 10, 0, 1, 0, time.UTC)
	r.Reference = []results.ReferenceRun{{Batch: 0, Groups: []string{"person.get/closed-c50"},
		Start: &results.ReferenceSample{At: at, OpsS: 2812000, Seconds: 0.5, CPUs: "0", Workload: results.ReferenceWorkload},
		End:   &results.ReferenceSample{At: at.Add(40 * time.Minute), OpsS: 2390200, Seconds: 0.5, CPUs: "0", Workload: results.ReferenceWorkload}}}
	var text bytes.Buffer
	if err := WriteSummaryTextWidth(&text, r, 100); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for i, line := range strings.Split(out, "\n") {
		if w := textgrid.Width(line); w > 100 {
			t.Errorf("line %d is %d columns: %q", i+1, w, line)
		}
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"machine drift 12 % (trend −12 % over 150 rounds), see the warnings",
		"the machine moved more than this group's intervals: the machine's speed moved 12 %",
		"2390000 at the end (10:40:01 UTC): −15 %",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("terminal summary lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(flat, "Reference, the machine's own speed"); n != 1 {
		t.Errorf("the reference is said %d times, want once", n)
	}
	if i, j := strings.Index(flat, "Reference, the machine's own speed"), strings.Index(flat, "Verdict."); i < 0 || j < 0 || i > j {
		t.Errorf("the reference is not above the verdict:\n%s", out)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(md.String(), "Reference, the machine's own speed"); n != 1 ||
		!strings.Contains(md.String(), "machine drift 12 %") {
		t.Errorf("Markdown: %d references, drift figure said: %v", n, strings.Contains(md.String(), "machine drift 12 %"))
	}
}
