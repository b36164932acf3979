package summary_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/summary"
)

// An old results file still reads, gets its drift figure from its stored slices, and
// renders with it. results-v2-quick-group.json is a real run written before drift
// figures (`wirebench run quick --filter /tcp/`, 2026-11-29 02:58 UTC: four targets,
// http-json the baseline, which warned that the machine changed), cut to its first 3
// of 15 forks and without its histograms, its summaries the whole run's. Every fork of
// every target is flat from its first round and has 15 slices: 45 rounds.
func TestOldFileGetsDrift(t *testing.T) {
	r, err := results.ReadFile("../testdata/results-v2-quick-group.json")
	if err != nil {
		t.Fatal(err)
	}
	base := &r.Benchmarks[0]
	if base.Name != "http-json/tcp/person.get/closed-c50" || base.Summary.Drift != nil || len(r.Reference) != 0 {
		t.Fatalf("fixture: first benchmark %s, drift %+v, %d references; want the baseline without either",
			base.Name, base.Summary.Drift, len(r.Reference))
	}
	summary.FillDrift(r.Benchmarks)
	d := base.Summary.Drift
	if d == nil || d.Rounds != 45 {
		t.Fatalf("filled drift %+v, want one over 45 rounds", d)
	}
	for _, b := range r.Benchmarks[1:] {
		if b.Summary.Drift != nil {
			t.Errorf("%s got a drift figure; only the baseline carries it", b.Name)
		}
	}
	var md, text bytes.Buffer
	if err := report.WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteReportText(&text, r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "text": text.String()} {
		if !strings.Contains(out, "machine drift ") {
			t.Errorf("%s report of the old file has no drift figure:\n%s", name, out)
		}
		if strings.Contains(out, "Reference, the machine's own speed") {
			t.Errorf("%s report of a file without references gives one", name)
		}
	}
}
