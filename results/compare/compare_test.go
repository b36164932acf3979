package compare

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/golden"
	"github.com/wirebench/wirebench/results"
)

// thrpt is a throughput benchmark whose slices (one fork) score xs ops/s,
// with response-time p99 p99us.
func thrpt(name string, p99us float64, xs ...float64) results.Benchmark {
	b := results.Benchmark{Name: name, Mode: results.ModeThroughput, Load: results.Load{Model: results.ModelClosed, Concurrency: 10, Connections: 1}}
	t := results.ForkResult{}
	for i, x := range xs {
		t.Slices = append(t.Slices, results.Slice{Index: i, Seconds: 1, Ops: int64(x), ThroughputOpsS: x,
			LatencyUs: results.Latency{P99: p99us + float64(i)}})
	}
	b.Forks = []results.ForkResult{t}
	b.Summary.LatencyUs.P99 = p99us
	return b
}

// avgt is an average-time benchmark at concurrency 10 whose one-second
// slices make ops[i] ops: 10,000 ops is 1 ms/op per caller.
func avgt(name string, ops ...int64) results.Benchmark {
	b := results.Benchmark{Name: name, Mode: results.ModeAverageTime, Load: results.Load{Model: results.ModelClosed, Concurrency: 10, Connections: 1}}
	t := results.ForkResult{}
	for i, n := range ops {
		t.Slices = append(t.Slices, results.Slice{Index: i, Seconds: 1, Ops: n, ThroughputOpsS: float64(n),
			LatencyUs: results.Latency{P99: 2000}})
	}
	b.Forks = []results.ForkResult{t}
	b.Summary.LatencyUs.P99 = 2000
	return b
}

func fileOf(bs ...results.Benchmark) *results.Results {
	return &results.Results{SchemaVersion: results.SchemaVersion, Benchmarks: bs}
}

func scaleAll(xs []float64, f float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f
	}
	return out
}

var base = []float64{100, 101, 102, 103, 104, 105}

// tight varies by 0.5%, so a 1% or 2% shift separates the samples.
var tight = []float64{100, 100.1, 100.2, 100.3, 100.4, 100.5}

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		name      string
		old, new  results.Benchmark
		threshold float64
		change    Change
		note      string // a note the row must have
	}{
		// Six slices a side, every new one above every old one: the
		// smallest p for 6+6 (0.002) is below alpha; higher ops/s is better.
		{"improvement", thrpt("a", 900, base...), thrpt("a", 800, scaleAll(base, 1.2)...), 5, Better, ""},
		// The same separation downwards by 10%, beyond the 5% threshold.
		{"regression", thrpt("a", 900, base...), thrpt("a", 1000, scaleAll(base, 0.9)...), 5, Regressed, ""},
		// Significantly worse by 2%: worse, but within the threshold.
		{"worse within threshold", thrpt("a", 900, tight...), thrpt("a", 900, scaleAll(tight, 0.98)...), 5, Worse, ""},
		// Interleaved samples: the U test finds no difference (p near 1).
		{"noise", thrpt("a", 900, 100, 103, 98, 101, 99, 102), thrpt("a", 900, 101, 99, 102, 100, 98, 103), 5, Same, ""},
		// 3+3 samples cannot reach p <= 0.05 (the least p is 0.1) even
		// when every new value is half the old: not significant, and said.
		{"too few samples", thrpt("a", 900, 100, 101, 102), thrpt("a", 900, 50, 51, 52), 5, Inconclusive,
			"need >= 4 samples to detect a difference at alpha level 0.05"},
		// Every value equal in both files: the test cannot run.
		{"all equal", thrpt("a", 900, 100, 100, 100, 100), thrpt("a", 900, 100, 100, 100, 100), 5, Same, "all samples are equal"},
		// avgt: fewer ops per second is more ms per op, a regression
		// (1.0 ms → 1.25 ms).
		{"avgt slower", avgt("t", 10000, 10010, 10020, 10030, 10040, 10050), avgt("t", 8000, 8010, 8020, 8030, 8040, 8050), 5, Regressed, ""},
		// avgt: more ops per second is less time per op, an improvement.
		{"avgt faster", avgt("t", 8000, 8010, 8020, 8030, 8040, 8050), avgt("t", 10000, 10010, 10020, 10030, 10040, 10050), 5, Better, ""},
		// 5% worse, significantly, but the ratio's interval (the 6+6 ratios
		// new/old run from 95/105 to 99.75/100; Moses's 95% interval leaves out
		// the 5 most extreme on each side: about [0.923, 0.978]) straddles the 5%
		// threshold: inconclusive, not a regression.
		{"straddles the threshold", thrpt("a", 900, base...), thrpt("a", 900, scaleAll(base, 0.95)...), 5, Inconclusive, ""},
		// The same interval lies wholly beyond a 2% threshold.
		{"wholly beyond 2%", thrpt("a", 900, base...), thrpt("a", 900, scaleAll(base, 0.95)...), 2, Regressed, ""},
		// Not significant, but the interval reaches beyond ±5%: too few samples to
		// call it the same.
		{"wide noise", thrpt("a", 900, 100, 90, 110, 95, 105, 100), thrpt("a", 900, 92, 108, 97, 103, 100, 99), 5, Inconclusive, ""},
		// A 1% drop with a 0% threshold: any significant worsening counts.
		{"zero threshold", thrpt("a", 900, tight...), thrpt("a", 900, scaleAll(tight, 0.99)...), 0, Regressed, ""},
		// ops/s against ms/op: different units, not compared.
		{"mode changed", thrpt("a", 900, base...), avgt("a", 10000, 10010, 10020), 5, Incomparable, "mode changed from thrpt to avgt: not compared"},
		// No slices in the new file (a fork that failed at once).
		{"no slices", thrpt("a", 900, base...), thrpt("a", 900), 5, Inconclusive, "no slices in the new file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.Threshold = c.threshold
			res, err := Compare(fileOf(c.old), fileOf(c.new), opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) != 1 {
				t.Fatalf("%d rows, want 1", len(res.Rows))
			}
			row := res.Rows[0]
			if row.Change != c.change {
				t.Errorf("change %v (delta %.4f%%, p %.4f), want %v", row.Change, row.Delta, row.P, c.change)
			}
			if c.note != "" && indexOf(row.Notes, c.note) < 0 {
				t.Errorf("notes %q, want %q", row.Notes, c.note)
			}
			if regressed := len(res.Regressions()) > 0; regressed != (c.change == Regressed) {
				t.Errorf("Regressions() = %v", res.Regressions())
			}
		})
	}
}

func TestCompareAvgtSamples(t *testing.T) {
	// 1 s × 10 callers / 10,000 ops = 1 ms per op per caller.
	scores, _ := Samples(avgt("t", 10000, 20000, 0))
	if len(scores) != 2 || scores[0] != 0.5 || scores[1] != 1 {
		t.Errorf("avgt samples %v, want [0.5 1] (the slice with no ops left out)", scores)
	}
}

func TestCompareAddedRemoved(t *testing.T) {
	old := fileOf(thrpt("kept", 900, base...), thrpt("gone", 900, base...))
	new := fileOf(thrpt("fresh", 900, base...), thrpt("kept", 900, base...))
	res, err := Compare(old, new, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Rows {
		got = append(got, r.Name+":"+[]string{"both", "added", "removed"}[r.Presence])
	}
	// Old order first, then what only the new file has.
	if want := "kept:both gone:removed fresh:added"; strings.Join(got, " ") != want {
		t.Errorf("rows %q, want %q", strings.Join(got, " "), want)
	}
	if len(res.Regressions()) != 0 {
		t.Errorf("added or removed benchmarks count as regressions: %v", res.Regressions())
	}
}

func TestCompareDuplicateName(t *testing.T) {
	_, err := Compare(fileOf(thrpt("a", 1, 1), thrpt("a", 1, 1)), fileOf(), DefaultOptions())
	if err == nil || !strings.Contains(err.Error(), `"a" twice`) {
		t.Errorf("err %v, want a duplicate-name error", err)
	}
}

func TestParseThreshold(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"5%", 5, true}, // the documented form
		{"2.5%", 2.5, true},
		{"5", 5, true},    // percent without the sign
		{" 0% ", 0, true}, // zero: any significant worsening
		{"-1%", 0, false}, // a negative worsening makes no sense
		{"five", 0, false},
		{"%", 0, false},
		{"NaN%", 0, false},
	} {
		got, err := ParseThreshold(c.in)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("ParseThreshold(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

// goldenResult has one row of each kind the renderers show.
func goldenResult(t *testing.T) *Result {
	t.Helper()
	old := fileOf(
		thrpt("grpc-proto/tcp/echo[payload=1024]/closed-c50", 850, 41000, 41500, 42000, 42200, 41800, 41900),
		thrpt("http-json/tcp/person.get/closed-c50", 2100, 15000, 15100, 15200, 15300, 15400, 15500),
		thrpt("capnp/unix/person.get/closed-c50", 700, 50000, 50500, 49800, 50200, 50100, 49900),
		thrpt("grpc-avro/tcp/person.get/closed-c50", 950, 30000, 30100, 30200),
		avgt("direct/inproc/pingpong[increments=100]/closed-c10", 10000, 10010, 10020, 10030, 10040, 10050),
		thrpt("grpc-proto/unix/stream[trades=1000]/closed-c50", 5000, 900, 910, 920, 930, 940, 950),
	)
	new := fileOf(
		thrpt("grpc-proto/tcp/echo[payload=1024]/closed-c50", 800, 46000, 46500, 47000, 46800, 46900, 47100),
		thrpt("http-json/tcp/person.get/closed-c50", 2500, 13500, 13600, 13700, 13800, 13900, 14000),
		thrpt("capnp/unix/person.get/closed-c50", 710, 50100, 49700, 50300, 50000, 49950, 50250),
		thrpt("grpc-avro/tcp/person.get/closed-c50", 990, 27000, 27100, 27200),
		avgt("direct/inproc/pingpong[increments=100]/closed-c10", 9000, 9010, 9020, 9030, 9040, 9050),
		thrpt("http-json/unix/person.get/closed-c50", 1900, 17000, 17100, 17200, 17300, 17400, 17500),
	)
	res, err := Compare(old, new, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestGolden(t *testing.T) {
	res := goldenResult(t)
	for _, c := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"table.golden", func(b *bytes.Buffer) error { return res.WriteTable(b, "old.json", "new.json") }},
		{"md.golden", func(b *bytes.Buffer) error { return res.WriteMarkdown(b, "old.json", "new.json") }},
		{"benchstat.golden", func(b *bytes.Buffer) error { return res.WriteBenchstat(b, "old.json", "new.json") }},
		{"delta.golden", func(b *bytes.Buffer) error { return res.WriteDelta(b, "main@aaaa", "feature@bbbb") }},
	} {
		var got bytes.Buffer
		if err := c.write(&got); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		golden.Check(t, c.file, got.Bytes())
	}
}
