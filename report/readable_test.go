package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
)

// The latency spectrum of an operation with targets across a wire leaves the
// in-process target out, as the throughput chart does: its hundreds of ns would
// stretch the log axis over five decades and squash the network lines together.
func TestSpectrumLeavesDirectOut(t *testing.T) {
	r := fixture(t)
	var svg string
	for _, c := range charts(t, r) {
		if c.Name == "latency-person-get-closed-c50" {
			var buf bytes.Buffer
			if err := c.WriteSVG(&buf); err != nil {
				t.Fatal(err)
			}
			svg = buf.String()
		}
	}
	if svg == "" {
		t.Fatal("no latency chart of person.get/closed-c50")
	}
	if strings.Contains(svg, ">direct<") {
		t.Error("the latency chart of person.get draws direct beside targets across a wire")
	}
	for _, s := range []string{">grpc-proto/tcp<", ">capnp/unix<"} {
		if !strings.Contains(svg, s) {
			t.Errorf("the latency chart lacks %s", s)
		}
	}
	// The fastest wired p50 is about 1 ms: no tick down at 100 ns or 1 µs.
	if strings.Contains(svg, ">100 ns<") || strings.Contains(svg, ">1 µs<") {
		t.Error("the latency axis still reaches down to direct's times")
	}
}

// The latency table prints direct's sub-µs percentiles with their digits, in ms,
// not as 0.000 or 0.001.
func TestLatencyTableSubMillisecond(t *testing.T) {
	r := fixture(t)
	tb := latencyTable(r.Benchmarks)
	direct := r.Benchmarks[0].Summary.LatencyUs
	row := tb.Rows[0]
	if !strings.HasPrefix(row[0], "direct/") {
		t.Fatalf("row 0 is %s", row[0])
	}
	for i, us := range []float64{direct.Max, direct.Mean, direct.P50, direct.P75, direct.P90, direct.P99, direct.P999} {
		cell := row[3+i]
		got, err := strconv.ParseFloat(cell, 64)
		if err != nil {
			t.Fatalf("%s: cell %q", tb.Head[3+i], cell)
		}
		if want := us / 1e3; math.Abs(got-want) > 0.01*want {
			t.Errorf("%s: %s ms, want %.3g (three significant digits)", tb.Head[3+i], cell, want)
		}
	}
	// From 1 ms up, three decimals as before.
	if got := tb.Rows[1][3]; !strings.Contains(got, ".") || len(got)-strings.Index(got, ".") != 4 {
		t.Errorf("http-json's max %q: want three decimals", got)
	}
}

func TestSignificant(t *testing.T) {
	for _, c := range []struct {
		v      float64
		digits int
		want   string
	}{
		{17623.4, 4, "17620"},
		{1234567, 4, "1235000"},
		{999.96, 4, "1000.0"},
		{0.000912345, 3, "0.000912"},
		{0.0000512, 3, "0.0000512"},
		{2.5, 2, "2.5"},
		{0, 3, "0"},
	} {
		if got := Significant(c.v, c.digits); got != c.want {
			t.Errorf("Significant(%v, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
}

// The CSV carries each benchmark's ratio with its interval, its steady class and
// its stacks; a ratio of too few forks has no interval, as the reports say.
func TestCSVComparisonColumns(t *testing.T) {
	r := fixture(t)
	r.Benchmarks[3].Steady = results.SteadyFlat
	r.Benchmarks[2].Summary.Relative.Forks, r.Benchmarks[2].Summary.Relative.DF = 2, 1 // too few
	var buf bytes.Buffer
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	cell := func(row int, name string) string {
		i, ok := col[name]
		if !ok {
			t.Fatalf("no column %s", name)
		}
		return rows[row+1][i]
	}
	// capnp/unix, row 3: 2.852 [2.71, 3.001] against the tuned http-json.
	for name, want := range map[string]string{
		"ratio_baseline": "http-json[server=go-tuned-json]/tcp/person.get/closed-c50", "ratio_of": "score",
		"ratio": "2.852", "ratio_ci_low": "2.71", "ratio_ci_high": "3.001", "ratio_rounds": "150",
		"steady": "flat", "server_stack": "capnp-go", "server_stack_tier": "production", "client_stack": "capnp-go",
	} {
		if got := cell(3, name); got != want {
			t.Errorf("capnp/unix %s = %q, want %q", name, got, want)
		}
	}
	if got := cell(1, "server_stack_tier"); got != "tuned" {
		t.Errorf("the tuned http-json's server tier %q", got)
	}
	if cell(1, "ratio") != "" || cell(2, "ratio") != "2.283" || cell(2, "ratio_ci_low") != "" || cell(2, "ratio_ci_high") != "" {
		t.Errorf("baseline ratio %q; too-few ratio %q [%q, %q]", cell(1, "ratio"), cell(2, "ratio"), cell(2, "ratio_ci_low"), cell(2, "ratio_ci_high"))
	}
}

// report -f table holds the comparison run printed, with the verdict, above each
// benchmark's detail.
func TestTextHoldsComparison(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, fixture(t).Benchmarks); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"person.get/closed-c50: capnp/unix won: 2.85×",
		"\nperson.get/closed-c50 (interleaved, 150 rounds; relative to http-json[server=go-tuned-json]/tcp †; the machine changed",
		"Relative",
		"\n  response time µs  mean ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	if c, d := strings.Index(out, "Relative"), strings.Index(out, "response time µs"); c > d {
		t.Error("the comparison is below the detail")
	}
}
