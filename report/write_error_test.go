package report

import (
	"errors"
	"io"
	"testing"

	"github.com/wirebench/wirebench/results"
)

var errDiskFull = errors.New("disk full")

// failOnce is a writer whose call number n (from 0) fails and writes nothing; every
// other call succeeds. A renderer that drops one write's error and goes on writing
// would return nil from it.
type failOnce struct {
	n, calls int
}

func (f *failOnce) Write(p []byte) (int, error) {
	f.calls++
	if f.calls-1 == f.n {
		return 0, errDiskFull
	}
	return len(p), nil
}

// Every renderer returns the error of whichever write fails, the first as the last.
func TestWriteErrorsReturned(t *testing.T) {
	r := fixture(t)
	capacity := r.Benchmarks[0]
	capacity.Warnings = results.Warnings{{Kind: results.WarnGenerator, Text: "the generator may have limited the search"}}
	capacity.Capacity = &results.Capacity{RateOpsS: 1000, LowOpsS: 1000, HighOpsS: 1200, SLO: []string{"p99=10ms"}, Confirmed: true,
		Steps: []results.CapacityStep{{RateOpsS: 1000, AchievedOpsS: 999, Seconds: 1, Verdict: "pass"},
			{RateOpsS: 1200, AchievedOpsS: 1190, Seconds: 1, Verdict: "slo", Why: "p99 12ms"}}}
	views := viewsFixture(t)
	for name, write := range map[string]func(io.Writer) error{
		"text":          func(w io.Writer) error { return WriteText(w, r.Benchmarks) },
		"summary text":  func(w io.Writer) error { return WriteSummaryText(w, r) },
		"capacity text": func(w io.Writer) error { return WriteCapacityText(w, []results.Benchmark{capacity}) },
		"views text":    func(w io.Writer) error { return WriteViewsText(w, views) },
		"markdown":      func(w io.Writer) error { return WriteMarkdown(w, views) },
		"csv":           func(w io.Writer) error { return WriteCSV(w, r) },
		"html":          func(w io.Writer) error { return WriteHTML(w, r) },
		"json":          func(w io.Writer) error { return r.Write(w) },
	} {
		// Count the writes of a clean run, then fail each of them in turn.
		count := &failOnce{n: -1}
		if err := write(count); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if count.calls == 0 {
			t.Fatalf("%s wrote nothing", name)
		}
		for n := range count.calls {
			if err := write(&failOnce{n: n}); !errors.Is(err, errDiskFull) {
				t.Errorf("%s, write %d of %d failing: returned %v; want the write's error", name, n+1, count.calls, err)
			}
		}
	}
}
