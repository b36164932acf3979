package report

import (
	"math"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
)

// rpcecho printed d1.Milliseconds() / 10 * 10: whole milliseconds, truncated, then
// truncated again to a multiple of 10.
func TestCutTo10ms(t *testing.T) {
	for _, c := range []struct {
		seconds float64
		want    int64
	}{
		{0.2247, 220},      // 224.7 ms: 224 whole ms, then 220
		{0.229999, 220},    // 229.999 ms: 229, then 220 (never rounded up)
		{0.23, 230},        // exactly 230 ms (0.23 s is 229.99999… in binary: rounded to the ns first)
		{0.0099, 0},        // 9.9 ms: 9, then 0
		{4.3405, 4340},     // 4340.5 ms: 4340
		{0.16342, 160},     // 163.42 ms: 163, then 160
		{1.43, 1430},       // 1430 ms
		{0.0100004, 10},    // 10.0004 ms: 10
		{0.0199999, 10},    // 19.9999 ms: 19, then 10
		{0.000999, 0},      // under 1 ms
		{0.0108, 10},       // 10.8 ms: 10
		{0.95, 950},        // 950 ms
		{0.779999999, 770}, // 779.999999 ms: 779, then 770
	} {
		if got := cutTo10ms(c.seconds); got != c.want {
			t.Errorf("cutTo10ms(%v s) = %d, want %d", c.seconds, got, c.want)
		}
	}
}

// The lines read as rpcecho's did: the protocol names padded to five characters, the
// time cut to 10 ms, the direct call's in whole µs (5.9 µs printed 5, as
// Duration.Microseconds truncates).
func TestRPCEchoLine(t *testing.T) {
	for _, c := range []struct {
		protocol, transport string
		ops                 int64
		seconds             float64
		want                string
	}{
		{"grpc-proto", "tcp", 1000, 0.2247, "1000 calls using gRPC  on tcp://127.0.0.1:…: 220 millisec"},
		{"http-json", "unix", 1000, 0.16342, "1000 calls using http  on unix:///…: 160 millisec"},
		{"capnp", "unix", 10000, 0.9512, "10000 calls using Capnp on unix:///…: 950 millisec"},
		{"direct", "inproc", 1000, 5.9e-6, "1000 calls using direct call: 5 microsec"},
	} {
		if got := rpcechoLine(c.protocol, c.transport, c.ops, c.seconds); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// rpcecho's payloads were "Hello world" (11 bytes) and files of 1000, 10000 and
// 100000 bytes, which its headers called 1K, 10K and 100K.
func TestPayloadName(t *testing.T) {
	for n, want := range map[float64]string{11: "Hello World", 1000: "1K", 10000: "10K", 100000: "100K", 1024: "1 KiB", 102400: "100 KiB", 300: "300 B"} {
		if got := payloadName(map[string]any{"payload": n}); got != want {
			t.Errorf("payload %v: %q, want %q", n, got, want)
		}
	}
}

// The time of a line comes from the score: thrpt 4100 ops/s, one caller, lines of
// 1000 ops: 1000 / 4100 s = 243.9 ms; avgt 2.125 ms/op × 1000 = 2125 ms; 4 callers at
// 8000 ops/s, lines of 500: 4 × 500 / 8000 s = 250 ms. No score, no time.
func TestMsPerLine(t *testing.T) {
	thr := func(c int, ops float64) *results.Benchmark {
		return &results.Benchmark{Mode: results.ModeThroughput, Load: results.Load{Concurrency: c},
			Summary: results.Summary{ThroughputOpsS: results.Throughput{Mean: ops}}}
	}
	avgt := thr(1, 470)
	avgt.Mode, avgt.Summary.AvgTimeMs = results.ModeAverageTime, &results.Throughput{Mean: 2.125}
	for _, c := range []struct {
		b    *results.Benchmark
		ops  int64
		want float64
	}{
		{thr(1, 4100), 1000, 243.90243902439025},
		{avgt, 1000, 2125},
		{thr(4, 8000), 500, 250},
	} {
		if got := msPerLine(c.b, c.ops); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%+v, %d ops: %v ms, want %v", c.b.Summary, c.ops, got, c.want)
		}
	}
	if got := msPerLine(thr(1, 0), 1000); !math.IsNaN(got) {
		t.Errorf("no score: %v, want NaN", got)
	}
}

// echoBench is an echo+stats benchmark of a 1K payload over protocol and transport in
// lines of 1000 ops, one fork per secs holding its lines' times in seconds.
func echoBench(protocol, transport string, secs ...[]float64) results.Benchmark {
	b := results.Benchmark{Protocol: protocol, Transport: transport, Workload: "echo+stats", CallsPerOp: 2,
		Params: map[string]any{"payload": float64(1000)}, SliceOps: 1000, Mode: results.ModeAverageTime,
		Load: results.Load{Model: results.ModelClosed, Concurrency: 1, Connections: 1}}
	for f, fork := range secs {
		tr := results.ForkResult{Index: f}
		for r, s := range fork {
			tr.Slices = append(tr.Slices, results.Slice{Index: r, Seconds: s, Ops: 1000})
		}
		b.Forks = append(b.Forks, tr)
	}
	b.Summary.AvgTimeMs = &results.Throughput{Mean: 0.18}
	b.Name = b.Protocol + "/" + b.Transport + "/" + results.GroupOf(&b)
	return b
}

// A group measured in lines of 1000 ops prints a block per fork and round, each
// target's line as rpcecho printed it and the exact time beside it.
func TestRPCEchoLinesPerSlice(t *testing.T) {
	bs := []results.Benchmark{
		echoBench("direct", results.InProcess, []float64{1.2e-6, 1.0e-6}),
		echoBench("grpc-proto", "tcp", []float64{0.1834, 0.17999}, []float64{0.2}),
	}
	got := strings.Join(rpcechoLines(bs).Lines, "\n")
	want := strings.Join([]string{
		"--- test with 1K payload --- (echo+stats, closed-c1) fork 1, round 1",
		"1000 calls using direct call: 1 microsec                   [1.200 µs]",
		"1000 calls using gRPC  on tcp://127.0.0.1:…: 180 millisec  [183.400 ms]",
		"--- test with 1K payload --- (echo+stats, closed-c1) fork 1, round 2",
		"1000 calls using direct call: 1 microsec                   [1.000 µs]",
		"1000 calls using gRPC  on tcp://127.0.0.1:…: 170 millisec  [179.990 ms]",
		"--- test with 1K payload --- (echo+stats, closed-c1) fork 2, round 1",
		"1000 calls using gRPC  on tcp://127.0.0.1:…: 200 millisec  [200.000 ms]",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// rpcecho printed one line per cell from a fresh run: the cold figure is each fork's
// first line. Worked by hand: gRPC's forks start with 183.4 ms and 200 ms, mean
// 191.7 ms, printed "192 (183–200)" (whole ms from 100 up); the direct call's one fork
// starts with 1.2 µs. A fork with no line is left out; lines after a warm-up, or
// measured by time rather than by count, have no cold figure.
func TestColdLine(t *testing.T) {
	b := results.Benchmark{Protocol: "grpc-proto", SliceOps: 1000, Forks: []results.ForkResult{
		{Slices: []results.Slice{{Seconds: 0.1834}, {Seconds: 0.17999}}},
		{},
		{Slices: []results.Slice{{Seconds: 0.2}, {Seconds: 0.15}}},
	}}
	mean, lo, hi, n := coldLine(&b)
	if n != 2 || math.Abs(mean-191.7) > 1e-9 || math.Abs(lo-183.4) > 1e-9 || math.Abs(hi-200) > 1e-9 {
		t.Errorf("coldLine = %v, %v, %v, %d; want 191.7, 183.4, 200, 2", mean, lo, hi, n)
	}
	if c, ok := coldCell(&b); !ok || c != "192 (183–200)" {
		t.Errorf("coldCell = %q, %v; want \"192 (183–200)\"", c, ok)
	}
	direct := results.Benchmark{Protocol: "direct", SliceOps: 1000, Forks: []results.ForkResult{
		{Slices: []results.Slice{{Seconds: 1.2e-6}, {Seconds: 1.0e-6}}}}}
	if c, ok := coldCell(&direct); !ok || c != "1.2 µs" {
		t.Errorf("direct: coldCell = %q, %v; want \"1.2 µs\"", c, ok)
	}
	warm := b
	warm.WarmupSeconds = 0.3
	timed := b
	timed.SliceOps = 0
	for name, x := range map[string]*results.Benchmark{"after a warm-up": &warm, "by time": &timed} {
		if _, _, _, n := coldLine(x); n != 0 {
			t.Errorf("%s: %d cold lines, want none", name, n)
		}
		if _, ok := coldCell(x); ok {
			t.Errorf("%s: a cold cell, want none", name)
		}
	}
}

// The cold table follows the score's table, a row per target that has a cold figure.
func TestRPCEchoLinesColdTable(t *testing.T) {
	v := rpcechoLines([]results.Benchmark{
		echoBench("direct", results.InProcess, []float64{1.2e-6, 1.0e-6}),
		echoBench("grpc-proto", "tcp", []float64{0.1834, 0.17999}, []float64{0.2}),
	})
	if len(v.Tables) != 2 {
		t.Fatalf("%d tables, want the score's and the cold one", len(v.Tables))
	}
	steady, cold := v.Tables[0], v.Tables[1]
	if steady.Title != "echo+stats: ms per line" || cold.Title != "echo+stats: ms of each run's first line (cold)" {
		t.Errorf("titles %q, %q", steady.Title, cold.Title)
	}
	want := [][]string{{"direct", "1.2 µs"}, {"grpc-proto/tcp", "192 (183–200)"}}
	if len(cold.Rows) != len(want) {
		t.Fatalf("cold rows %q, want %q", cold.Rows, want)
	}
	for i, row := range want {
		if strings.Join(cold.Rows[i], "|") != strings.Join(row, "|") {
			t.Errorf("cold row %d: %q, want %q", i, cold.Rows[i], row)
		}
	}
	if strings.Join(cold.Head, "|") != "Protocol/transport|1K" {
		t.Errorf("cold head %q", cold.Head)
	}
}
