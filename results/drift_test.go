package results

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A file with the reference and a drift figure is written (its schema checked) and
// reads back the same; a reference sample without its workload is refused.
func TestReferenceAndDriftRoundTrip(t *testing.T) {
	r := sample(t)
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	r.Reference = []ReferenceRun{
		{Batch: 0, Groups: []string{"person.get/closed-c50"},
			Start: &ReferenceSample{At: at, OpsS: 2.8e6, Seconds: 0.51, CPUs: "0", Workload: ReferenceWorkload},
			End:   &ReferenceSample{At: at.Add(time.Minute), OpsS: 2.7e6, Seconds: 0.5, CPUs: "0", Workload: ReferenceWorkload}},
		{Batch: 1, Why: "the server worker is remote (tcp://h:1), and the reference runs where the driver does"},
	}
	r.Benchmarks[1].Summary.Drift = &Drift{Rounds: 40, Trend: -0.12, TrendSignificant: true, Levels: 0.2, Moved: 0.2}
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Reference, r.Reference) {
		t.Errorf("reference read back %+v, want %+v", back.Reference, r.Reference)
	}
	if d := back.Benchmarks[1].Summary.Drift; d == nil || *d != *r.Benchmarks[1].Summary.Drift {
		t.Errorf("drift read back %+v", d)
	}
	bad := strings.Replace(buf.String(), `"workload": "`+ReferenceWorkload+`"`, `"workload": ""`, 1)
	if err := ValidateJSON([]byte(bad)); err == nil {
		t.Error("a reference sample with an empty workload passed the schema")
	}
}

func TestReferenceSpanAndChange(t *testing.T) {
	s := func(v float64) *ReferenceSample { return &ReferenceSample{OpsS: v} }
	runs := []ReferenceRun{
		{Batch: 0, Why: "remote"},
		{Batch: 1, Start: s(1000), End: s(900)}, // −10 %
		{Batch: 2, Start: s(950)},               // interrupted: no end, no change
	}
	if c, ok := runs[1].Change(); !ok || math.Abs(c-(-0.1)) > 1e-12 {
		t.Errorf("change %v %v, want −0.1", c, ok)
	}
	if _, ok := runs[2].Change(); ok {
		t.Error("a batch without its end has a change")
	}
	// The first measured is batch 1's start, the last batch 2's start.
	first, last, ok := ReferenceSpan(runs)
	if !ok || first.OpsS != 1000 || last.OpsS != 950 {
		t.Errorf("span %+v … %+v (%v), want 1000 … 950", first, last, ok)
	}
	if _, _, ok := ReferenceSpan(runs[2:]); ok {
		t.Error("one measurement made a span")
	}
}

// HalfWidth is the larger side of the interval over the ratio: [0.8, 1.5] around 1
// is −20 %/+50 %, so 0.5; no interval is +Inf.
func TestRelativeHalfWidth(t *testing.T) {
	r := &Relative{Ratio: Ratio{Mean: 1, CILow: 0.8, CIHigh: 1.5}}
	if got := r.HalfWidth(); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("half-width %v, want 0.5", got)
	}
	r.Ratio = Ratio{Mean: 2, CILow: 1.6, CIHigh: 2.1} // 2/1.6 = 1.25 against 2.1/2 = 1.05
	if got := r.HalfWidth(); math.Abs(got-0.25) > 1e-12 {
		t.Errorf("half-width %v, want 0.25", got)
	}
	r.Ratio = Ratio{Mean: 2, CILow: 0, CIHigh: 9}
	if got := r.HalfWidth(); !math.IsInf(got, 1) {
		t.Errorf("half-width %v, want +Inf", got)
	}
}
