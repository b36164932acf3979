package report

import (
	"testing"

	"github.com/wirebench/wirebench/results"
)

// The Steady cell: the class, how long warming up during the rounds took, and for an
// adaptive warm-up the span of the forks' warm-ups and how many hit their cap.
func TestSteadyCell(t *testing.T) {
	warm := func(s float64, settled bool) *results.Warmup {
		return &results.Warmup{Seconds: s, Adaptive: true, Settled: settled}
	}
	for _, c := range []struct {
		b    results.Benchmark
		want string
	}{
		{results.Benchmark{}, "-"},
		{results.Benchmark{Steady: results.SteadyFlat, Forks: []results.ForkResult{{Warmup: &results.Warmup{Seconds: 5}}}}, "flat"},
		{results.Benchmark{Steady: results.SteadyWarmedUp, Forks: []results.ForkResult{
			{Steady: &results.Steady{Class: results.SteadyWarmedUp, AfterSeconds: 2.14}, Warmup: warm(18.2, true)},
			{Steady: &results.Steady{Class: results.SteadyFlat}, Warmup: warm(30.1, false)},
			{Steady: &results.Steady{Class: results.SteadyFlat}, Warmup: warm(30.0, false)},
		}}, "warmed up 2.1 s; warm-up 18–30 s, 2 capped"},
		{results.Benchmark{Steady: results.SteadyFlat, Forks: []results.ForkResult{{Warmup: warm(12, true)}, {Warmup: warm(12.2, true)}}}, "flat; warm-up 12 s"},
	} {
		if got := steadyCell(&c.b); got != c.want {
			t.Errorf("steadyCell = %q, want %q", got, c.want)
		}
	}
}

// A benchmark that measured no call (its JVM worker could not start, say) shows n/a
// for its figures and "failed" for its steady state, not a score of 0 beside its
// measured neighbour.
func TestUnmeasuredBenchmarkShowsNoFigures(t *testing.T) {
	ok := results.Benchmark{Name: "grpc-proto/tcp/person.get/closed-c4", Series: "grpc-proto/tcp", Group: "person.get/closed-c4",
		Mode: results.ModeThroughput, Steady: results.SteadyFlat}
	ok.Summary.Ops = 5000
	ok.Summary.ThroughputOpsS = results.Throughput{Mean: 2500, Error: 50, CI: 0.999, N: 20}
	failed := results.Benchmark{Name: "http-json/tcp/person.get/closed-c4", Series: "http-json/tcp", Group: "person.get/closed-c4",
		Mode: results.ModeThroughput, Steady: results.SteadyUnknown,
		Warnings: results.Warnings{{Kind: results.WarnFailed, Fork: 1, Phase: "start", Text: "server worker: the JVM worker is not built"}}}

	rows := scoreTable([]results.Benchmark{ok, failed}).Rows
	if rows[0][3] != "2500.000" || rows[1][3] != "n/a" || rows[1][4] != "" {
		t.Errorf("JMH rows %q, want the measured score, then n/a with no error", rows)
	}
	ts := comparisonTables([]results.Benchmark{ok, failed})
	if len(ts) != 1 || len(ts[0].Rows) != 2 {
		t.Fatalf("comparison tables %+v, want one table of two rows", ts)
	}
	row := ts[0].Rows[1]
	if row[0] != results.SeriesLabel(&failed) || row[3] != "failed" {
		t.Errorf("failed row %q, want its series and \"failed\"", row)
	}
	for i, c := range row {
		if i != 0 && i != 3 && c != "n/a" {
			t.Errorf("failed row, column %s: %q, want n/a", ts[0].Head[i], c)
		}
	}
	failed.Warnings = nil
	if row := comparisonTables([]results.Benchmark{ok, failed})[0].Rows[1]; row[3] != "not measured" {
		t.Errorf("unmeasured row without a failure: %q, want \"not measured\"", row)
	}
}
