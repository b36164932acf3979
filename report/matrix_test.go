package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
)

// matrixFixture is a run of the matrix suite's shape, written by hand: grpc-proto over
// tcp with servers grpc-go and tonic and clients grpc-go, instrument (tuned) and tonic,
// where instrument × tonic is not in the results, tonic × tonic failed to start, and
// the suite skipped tonic against grpc-java-netty (a column of its own) and, over unix
// only, grpc-go against akka-grpc;
// echo+stats (two calls per op) over http-json with one pair whose server CPU is
// unknown; and direct, which has no server of its own and stays out of the grids.
func matrixFixture() *results.Results {
	closed50 := results.Load{Model: results.ModelClosed, Concurrency: 50, Connections: 1}
	stack := func(name, tier string) *results.Stack {
		return &results.Stack{Name: name, Language: "go", Tier: tier}
	}
	cpu := func(v float64) *float64 { return &v }
	pair := func(proto, workload string, calls int, server, client string, thr, errS, p99 float64, srvCPU *float64, cliCPU float64) results.Benchmark {
		tier := results.TierProduction
		if client == "instrument" {
			tier = results.TierTuned
		}
		b := results.Benchmark{Name: proto + "[server=" + server + ",client=" + client + "]/tcp/" + workload + "/closed-c50",
			Protocol: proto, Transport: "tcp", Workload: workload, Params: map[string]any{}, CallsPerOp: calls,
			Load: closed50, Mode: results.ModeThroughput, Method: results.MethodInterleaved,
			ServerStack: stack(server, results.TierProduction), ClientStack: stack(client, tier)}
		b.Summary.ThroughputOpsS = results.Throughput{Mean: thr, Error: errS, CI: 0.999, N: 24}
		b.Summary.Ops = int64(thr * 6)
		b.Summary.LatencyUs.P99 = p99
		b.Summary.ServerCPUUsPerOp = srvCPU
		b.Summary.ClientCPUUsPerOp = cliCPU
		return b
	}
	failed := pair("grpc-proto", "person.get", 1, "tonic", "tonic", 0, 0, 0, nil, 0)
	failed.Summary = results.Summary{}
	failed.Forks = []results.ForkResult{{Index: 0, Phase: "start", Error: "client worker (pid 7): exit status 1\nstderr: bind: address in use"}}
	direct := results.Benchmark{Name: "direct/person.get/closed-c50", Protocol: "direct", Transport: results.InProcess,
		Workload: "person.get", Params: map[string]any{}, CallsPerOp: 1, Load: closed50, Mode: results.ModeThroughput,
		ServerStack: stack("go-call", results.TierProduction), ClientStack: stack("go-call", results.TierProduction)}
	direct.Summary.ThroughputOpsS = results.Throughput{Mean: 900000, N: 24}
	echo := map[string]any{"payload": float64(11)}
	h1 := pair("http-json", "echo+stats", 2, "go-nethttp-json", "go-nethttp-json", 5000, 50, 900, cpu(60), 80)
	h1.Params = echo
	h2 := pair("http-json", "echo+stats", 2, "axum", "go-nethttp-json", 6000, 0, 700, nil, 70)
	h2.Params = echo
	h2.Summary.ThroughputOpsS.N = 1 // one slice: no interval
	return &results.Results{SchemaVersion: results.SchemaVersion,
		Suite: &results.SuiteInfo{Name: "matrix", Views: []string{results.ViewMatrix}, Skipped: []results.SkippedPair{
			{Protocol: "grpc-proto", ServerStack: "grpc-java-netty", ClientStack: "tonic", Why: "no h2c in the server"},
			// Over unix only: no cell of the tcp grid.
			{Protocol: "grpc-proto", ServerStack: "akka-grpc", ClientStack: "grpc-go", Transport: "unix", Why: "TCP only"},
		}},
		Benchmarks: []results.Benchmark{
			pair("grpc-proto", "person.get", 1, "grpc-go", "grpc-go", 20000, 400, 4200, cpu(30.5), 40.25),
			pair("grpc-proto", "person.get", 1, "grpc-go", "instrument", 25000, 250, 3100, cpu(29), 12.5),
			pair("grpc-proto", "person.get", 1, "grpc-go", "tonic", 22000, 1100, 3900, cpu(31), 20),
			pair("grpc-proto", "person.get", 1, "tonic", "grpc-go", 30000, 600, 2500.4, cpu(18), 41),
			failed, direct, h1, h2,
		}}
}

// TestMatrixGrid checks every cell of the grids against figures worked out by hand
// from the fixture: calls/s are ops/s × calls per op, the ± is the error over the
// mean in per cent, CPU per call is CPU per op ÷ calls per op; a failed pair's
// reason is its first fork error's first line, in the throughput grid.
func TestMatrixGrid(t *testing.T) {
	v := matrixView(matrixFixture())
	type grid struct {
		title string
		head  []string
		rows  [][]string
	}
	grpcHead := []string{"client \\ server", "grpc-go", "tonic", "grpc-java-netty"}
	fail := "failed: client worker (pid 7): exit status 1"
	httpHead := []string{"client \\ server", "go-nethttp-json", "axum"}
	const op = "grpc-proto/tcp person.get/closed-c50: "
	const echoOp = "http-json/tcp echo+stats[payload=11]/closed-c50: "
	want := []grid{
		{op + "throughput, calls/s (± half-width of the 99.9 % interval, in % of the mean)", grpcHead, [][]string{
			{"grpc-go", "20000 ± 2.0 %", "30000 ± 2.0 %", "not run"},
			{"instrument †", "25000 ± 1.0 %", "not run", "not run"},
			{"tonic", "22000 ± 5.0 %", fail, "skipped: no h2c in the server"},
		}},
		{op + "p99 response time, µs", grpcHead, [][]string{
			{"grpc-go", "4200", "2500", "not run"},
			{"instrument †", "3100", "not run", "not run"},
			{"tonic", "3900", "failed", "skipped"},
		}},
		{op + "server CPU per call, µs", grpcHead, [][]string{
			{"grpc-go", "30.50", "18.00", "not run"},
			{"instrument †", "29.00", "not run", "not run"},
			{"tonic", "31.00", "failed", "skipped"},
		}},
		{op + "client CPU per call, µs", grpcHead, [][]string{
			{"grpc-go", "40.25", "41.00", "not run"},
			{"instrument †", "12.50", "not run", "not run"},
			{"tonic", "20.00", "failed", "skipped"},
		}},
		{echoOp + "throughput, calls/s (± half-width of the 99.9 % interval, in % of the mean)", httpHead, [][]string{
			{"go-nethttp-json", "10000 ± 1.0 %", "12000"},
		}},
		{echoOp + "p99 response time, µs", httpHead, [][]string{{"go-nethttp-json", "900", "700"}}},
		{echoOp + "server CPU per call, µs", httpHead, [][]string{{"go-nethttp-json", "30.00", "n/a"}}},
		{echoOp + "client CPU per call, µs", httpHead, [][]string{{"go-nethttp-json", "40.00", "35.00"}}},
	}
	if len(v.Tables) != len(want) {
		for _, tb := range v.Tables {
			t.Log(tb.Title)
		}
		t.Fatalf("%d tables, want %d (4 figures × 2 grids; direct in none)", len(v.Tables), len(want))
	}
	for i, w := range want {
		got := v.Tables[i]
		if got.Title != w.title {
			t.Errorf("table %d: title %q, want %q", i, got.Title, w.title)
		}
		if !slices.Equal(got.Head, w.head) {
			t.Errorf("%s: head %q, want %q", w.title, got.Head, w.head)
		}
		if !slices.EqualFunc(got.Rows, w.rows, slices.Equal) {
			t.Errorf("%s: rows\n%q\nwant\n%q", w.title, got.Rows, w.rows)
		}
	}
}

// TestMatrixHeat checks the heat map's colours: on the throughput grid the best
// (30000 calls/s) is the green end and the worst (20000) the red end; 25000 sits at
// ln(1.25)/ln(1.5) = 0.550 of the way, 0.101 past the middle yellow (#fcefc4) towards
// the green (#c6e6bd): (252 − 5.4, 239 − 0.9, 196 − 0.7) = #f7eec3; 22000 at
// ln(1.1)/ln(1.5) = 0.235, 0.470 of the way from the red (#f4c7c3) to the yellow:
// (244 + 3.8, 199 + 18.8, 195 + 0.5) = #f8dac3. On the p99 grid,
// less is better, so the fastest cell is green. Cells without figures are not shaded.
func TestMatrixHeat(t *testing.T) {
	v := matrixView(matrixFixture())
	thr, p99 := v.Tables[0], v.Tables[1]
	wantThr := [][]string{{"", "#f4c7c3", "#c6e6bd", ""}, {"", "#f7eec3", "", ""}, {"", "#f8dac3", "", ""}}
	if !slices.EqualFunc(thr.Shade, wantThr, slices.Equal) {
		t.Errorf("throughput shades %q, want %q", thr.Shade, wantThr)
	}
	if p99.Shade[0][1] != "#f4c7c3" || p99.Shade[0][2] != "#c6e6bd" {
		t.Errorf("p99 shades %q: want 4200 µs red and 2500 µs green", p99.Shade)
	}
}

// The matrix renders in every format: Markdown and terminal tables with the cells,
// and HTML cells with their background colour.
func TestMatrixRenders(t *testing.T) {
	r := matrixFixture()
	var md, txt, html bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteViewsText(&txt, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, r); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		format, out string
		want        []string
	}{
		{"markdown", md.String(), []string{
			"## Views\n",
			"**grpc-proto/tcp person.get/closed-c50: p99 response time, µs**",
		}},
		{"text", txt.String(), []string{"== Client × server matrix (matrix) ==", "instrument †", "25000 ± 1.0 %"}},
		{"html", html.String(), []string{
			`<h2 id="original">Views</h2>`, `id="view-matrix"`,
			`<td class="r" style="background: #c6e6bd">30000 ± 2.0 %</td>`,
			`<td class="r">not run</td>`,
		}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("%s output lacks %q", c.format, w)
			}
		}
	}
	// The Markdown grid's rows, cell by cell (the Markdown escapes the backslash).
	var rows [][]string
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| client \\\\ server") || strings.HasPrefix(line, "| instrument") {
			var cells []string
			for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
				cells = append(cells, strings.TrimSpace(c))
			}
			rows = append(rows, cells)
		}
	}
	if len(rows) < 2 || !slices.Equal(rows[0], []string{"client \\\\ server", "grpc-go", "tonic", "grpc-java-netty"}) ||
		!slices.Equal(rows[1], []string{"instrument †", "25000 ± 1.0 %", "not run", "not run"}) {
		t.Errorf("Markdown grid rows %q", rows)
	}
	if t.Failed() {
		t.Log(md.String())
	}
}

// A failure's reason is cut at maxCellReason (100) characters, the 100th an ellipsis.
// Where it happened (the fork and phase) is left to the warnings: the cell holds the
// reason alone, for a failure of today's results and of a file written before
// warnings were data alike.
func TestCellReason(t *testing.T) {
	long := strings.Repeat("x", 120)
	for _, c := range []struct{ in, want string }{
		{"the JVM worker is not built", "the JVM worker is not built"},
		{long, long[:99] + "…"},
	} {
		if got := cellReason(c.in); got != c.want {
			t.Errorf("cellReason(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	var old results.Benchmark
	if err := json.Unmarshal([]byte(`{"name": "x", "warnings": ["failed: trial 2, start: client worker: refused"]}`), &old); err != nil {
		t.Fatal(err)
	}
	now := results.Benchmark{Warnings: results.Warnings{results.Failure(&results.ForkError{Fork: 1, Phase: "start", Err: errors.New("client worker: refused")})}}
	for _, b := range []*results.Benchmark{&old, &now} {
		if got := pairFailure(b); got != "client worker: refused" {
			t.Errorf("reason %q of %+v, want the driver's error alone", got, b.Warnings)
		}
	}
}
