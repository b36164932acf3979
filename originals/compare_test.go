package originals

import (
	"strings"
	"testing"
)

// testOriginal is a small original: two rates, two times, findings over them.
func testOriginal(t *testing.T) *Original {
	t.Helper()
	o, err := Parse("t.yaml", []byte(`name: t
title: T
sources: [{id: s, repo: r, file: README.md}]
setups: [{name: a, source: s, tool: JMH, how: h, machine: m, stacks: s}]
figures:
  - {id: rpc, setup: a, row: r, value: 200, error: 10, unit: ops/s}
  - {id: http, setup: a, row: h, value: 100, error: 10, unit: ops/s}
  - {id: rpc-ms, setup: a, row: r, value: 5, unit: ms/1000 calls}
  - {id: http-ms, setup: a, row: h, value: 10, unit: ms/1000 calls}
findings:
  - {id: rate, setup: a, says: s, of: rpc, over: http, ours: {metric: score, of: {protocol: grpc-proto}, over: {protocol: http-json}, setup: {concurrency: 4}}}
  - {id: time, setup: a, says: s, of: rpc-ms, over: http-ms, ours: {metric: score, of: {protocol: grpc-proto}, over: {protocol: http-json}, setup: {concurrency: 4}}}
  - {id: missing, setup: a, says: s, of: rpc, over: http, ours: {metric: score, of: {protocol: capnp}, over: {protocol: http-json}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestCompare(t *testing.T) {
	o := testOriginal(t)
	http := Bench{Name: "http", Protocol: "http-json", Load: "closed", Concurrency: 4, Score: 1000, ScoreError: 10}
	rpc := Bench{Name: "rpc", Protocol: "grpc-proto", Load: "closed", Concurrency: 4, Score: 1800, ScoreError: 20,
		Relative: &Relative{Baseline: "http", Mean: 1.8, Low: 1.7, High: 1.9}}
	rows := Compare(o, "", []Bench{http, rpc})
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	// The paired ratio is used as it is: 1.8 against the original's 2, size 0.9.
	if r := rows[0]; !r.Paired || r.Ours.Mean != 1.8 || r.Verdict != Holds {
		t.Errorf("rate: %+v", r)
	}
	// The original's times: ours are rates of two closed loops of 4, so the ratio of
	// times is 1/1.8, interval [1/1.9, 1/1.7]; the original's 0.5.
	if r := rows[1]; r.Verdict != Holds || r.Ours.Low != 1/1.9 || r.Ours.High != 1/1.7 {
		t.Errorf("time: %+v", r)
	}
	if r := rows[2]; r.Verdict != NotComparable || !strings.HasPrefix(r.Why, "not run") {
		t.Errorf("missing: %+v", r)
	}

	// Another concurrency: there, but not at the original's setup.
	rpc4 := rpc
	rpc4.Concurrency = 1
	if r := Compare(o, "", []Bench{http, rpc4})[0]; r.Verdict != NotComparable || !strings.Contains(r.Why, "not run at the original's setup (rpc: concurrency 1, the original's 4)") {
		t.Errorf("setup: %+v", r)
	}
	// Still warming up: no steady state.
	warm := rpc
	warm.Warnings = []string{"rpc is still warming up: its slices rose 12 %"}
	if r := Compare(o, "", []Bench{http, warm})[0]; r.Verdict != NotComparable || !strings.Contains(r.Why, "no steady state") {
		t.Errorf("warming: %+v", r)
	}
	// Not paired: the ratio of the scores, its interval from their errors, flagged.
	apart := rpc
	apart.Relative = nil
	r := Compare(o, "", []Bench{http, apart})[0]
	if r.Paired || r.Ours.Mean != 1.8 || r.Ours.Low != 1780.0/1010 || r.Ours.High != 1820.0/990 {
		t.Errorf("not paired: %+v", r)
	}
	// A paired ratio of one round has no interval (zeros in the file): judged by its point.
	one := rpc
	one.Relative = &Relative{Baseline: "http", Mean: 1.8}
	if r := Compare(o, "", []Bench{http, one})[0]; !r.Paired || r.Ours != (Estimate{1.8, 1.8, 1.8}) || r.Verdict != Holds {
		t.Errorf("one round: %+v", r)
	}
	// Open loops cannot turn rates into times.
	open := rpc
	open.Load, open.Relative = "open", nil
	if r := Compare(o, "", []Bench{http, open})[1]; r.Verdict != NotComparable || !strings.Contains(r.Why, "unit mismatch") {
		t.Errorf("unit: %+v", r)
	}
}

func TestPayloadBytes(t *testing.T) {
	for s, want := range map[string]int64{"11B": 11, "1KiB": 1024, "100KiB": 102400, "1MiB": 1 << 20, "x": -1, "KiB": -1} {
		if got := payloadBytes(s); got != want {
			t.Errorf("payloadBytes(%q) = %d, want %d", s, got, want)
		}
	}
}

// Two benchmarks neither of which is the other's baseline are paired by Bench.Pair
// when it pairs them (its ratio and interval used as they are), and are two scores
// measured apart when it does not.
func TestComparePair(t *testing.T) {
	o := testOriginal(t)
	http := Bench{Name: "http", Protocol: "http-json", Load: "closed", Concurrency: 4, Score: 1000, ScoreError: 10,
		Relative: &Relative{Baseline: "base", Mean: 0.5, Low: 0.45, High: 0.55}}
	rpc := Bench{Name: "rpc", Protocol: "grpc-proto", Load: "closed", Concurrency: 4, Score: 1800, ScoreError: 20,
		Relative: &Relative{Baseline: "base", Mean: 0.9, Low: 0.85, High: 0.95}}
	var asked []string
	rpc.Pair = func(over *Bench, metric string) *Relative {
		asked = append(asked, over.Name+" "+metric)
		return &Relative{Baseline: over.Name, Mean: 1.7, Low: 1.6, High: 1.85}
	}
	r := Compare(o, "", []Bench{http, rpc})[0]
	// Asked once per finding of rpc over http (rate, then time), for the score.
	if !r.Paired || r.Ours != (Estimate{1.7, 1.6, 1.85}) || r.Verdict != Holds || strings.Join(asked, ", ") != "http score, http score" {
		t.Errorf("paired by Pair: %+v (asked %q)", r, asked)
	}
	rpc.Pair = func(*Bench, string) *Relative { return nil }
	if r := Compare(o, "", []Bench{http, rpc})[0]; r.Paired || r.Ours.Mean != 1.8 || r.Ours.Low != 1780.0/1010 {
		t.Errorf("not paired: %+v", r)
	}
}
