package originals

import (
	"fmt"
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
	// The paired ratio is used as it is: 1.8 [1.7, 1.9] against the original's
	// 200 ± 10 over 100 ± 10, 2× [190/110, 210/90] = [1.727, 2.333]: above 1 and
	// overlapping it (1.9 ≥ 1.727): holds.
	if r := rows[0]; !r.Paired || r.Ours.Mean != 1.8 || r.Verdict != Holds {
		t.Errorf("rate: %+v", r)
	}
	// The original's times: ours are rates of two closed loops of 4, so the ratio of
	// times is 1/1.8, interval [1/1.9, 1/1.7] = [0.526, 0.588]; the original's 5 over
	// 10 ms, ±10 % each, 0.5× [4.5/11, 5.5/9] = [0.409, 0.611]: below 1 and
	// overlapping it: holds.
	if r := rows[1]; r.Verdict != Holds || r.Ours.Low != 1/1.9 || r.Ours.High != 1/1.7 {
		t.Errorf("time: %+v", r)
	}
	// A paired 1.5 [1.45, 1.6] lies wholly under the original's [1.727, 2.333]: does
	// not hold (a band widened 2×, [0.864, 4.67], had it holding).
	under := rpc
	under.Relative = &Relative{Baseline: "http", Mean: 1.5, Low: 1.45, High: 1.6}
	if r := Compare(o, "", []Bench{http, under})[0]; r.Verdict != DoesNotHold || !strings.Contains(r.Why, "wholly outside") {
		t.Errorf("under: %+v", r)
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
	warm.StillWarming = "still warming up: its speed rose +12 % over the rounds against the other targets'"
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
	// A paired ratio of one round has no interval (zeros in the file): judged by its
	// point, 1.8, inside [1.727, 2.333]: holds.
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
	// Asked once per finding of rpc over http (rate, then time), for the score. Its
	// 1.7 [1.6, 1.85] overlaps the original's 2× [190/110, 210/90] = [1.727, 2.333]
	// and lies above 1: holds.
	if !r.Paired || r.Ours != (Estimate{1.7, 1.6, 1.85}) || r.Verdict != Holds || strings.Join(asked, ", ") != "http score, http score" {
		t.Errorf("paired by Pair: %+v (asked %q)", r, asked)
	}
	rpc.Pair = func(*Bench, string) *Relative { return nil }
	if r := Compare(o, "", []Bench{http, rpc})[0]; r.Paired || r.Ours.Mean != 1.8 || r.Ours.Low != 1780.0/1010 {
		t.Errorf("not paired: %+v", r)
	}
}

// mixedOriginal is the Akka original's shape: a closed loop's latency (ghz) over an open
// loop's (wrk2 at 14000/s), to be judged with both under the open loop, else both
// under the closed one.
const mixedOriginal = `name: t
title: T
sources: [{id: s, repo: r, file: README.md}]
setups:
  - {name: wrk2, source: s, tool: wrk2, how: h, machine: m, stacks: s}
  - {name: ghz, source: s, tool: ghz, how: h, machine: m, stacks: s}
figures:
  - {id: grpc, setup: ghz, row: r, value: 3.48, unit: ms}
  - {id: http, setup: wrk2, row: h, value: 1.589, unit: ms}
findings:
  - id: mean
    setup: ghz
    says: s
    of: grpc
    over: http
    ours:
      metric: mean
      of: {protocol: grpc-proto, load: closed}
      over: {protocol: http-json, load: open, rate: 14000}
      setup: {concurrency: 100}
      %s
`

// The original's two figures came from two load models: its ratio is never judged
// against our pair of the two models, only against ours with both under one.
func TestCompareLoadModels(t *testing.T) {
	parse := func(sameLoad string) *Original {
		o, err := Parse("t.yaml", []byte(fmt.Sprintf(mixedOriginal, sameLoad)))
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	o := parse("same_load: [open, closed]")
	bench := func(proto, load string, rate, mean float64) Bench {
		return Bench{Name: proto + "/" + load + "/" + fmt.Sprint(rate), Protocol: proto, Load: load, Concurrency: 100, Rate: rate,
			Score: 1, Latency: map[string]float64{"mean": mean}}
	}
	grpcClosed, httpOpen := bench("grpc-proto", "closed", 0, 8), bench("http-json", "open", 14000, 0.4)
	grpcOpen, httpClosed := bench("grpc-proto", "open", 14000, 0.9), bench("http-json", "closed", 0, 4)
	// Scaled by --rate-scale 0.5: the open loops at 7000/s.
	grpcOpen7, httpOpen7 := bench("grpc-proto", "open", 7000, 0.9), bench("http-json", "open", 7000, 0.4)

	// The original 3.48/1.589 = 2.19×, ±10 % per figure: [3.132/1.7479, 3.828/1.4301]
	// = [1.79, 2.68]. Ours are means measured apart: points.
	for _, tc := range []struct {
		name    string
		bs      []Bench
		load    string
		verdict Verdict
		why     string
	}{
		// Only the original's pairing, closed over open: not comparable (it would have
		// been 8/0.4 = 20×, wholly over [1.79, 2.68]: "does not hold").
		{"only the mixed pair", []Bench{grpcClosed, httpOpen}, "", NotComparable,
			"the original's figures were measured under two load models (closed loop over open loop), so their ratio mixes the two, and this run has not measured both under one (both open: not run: no benchmark {protocol=grpc-proto load=open}; both closed: not run: no benchmark {protocol=http-json load=closed})"},
		// Both open at 14000/s, and both closed: the open pair is judged, 0.9/0.4 =
		// 2.25×, above 1 and inside [1.79, 2.68]: holds (the mixed pair, 20×, would
		// not have).
		{"both models", []Bench{grpcClosed, httpOpen, grpcOpen, httpClosed}, "open", Holds,
			"judged on ours with both under the open loop (the original's figures: closed loop over open loop): "},
		// A run scaled to 7000/s: its open pair is not at the original's 14000/s, so
		// the closed pair is judged, 8/4 = 2×, inside [1.79, 2.68]: holds.
		{"scaled, closed measured", []Bench{grpcClosed, grpcOpen7, httpOpen7, httpClosed}, "closed", Holds,
			"judged on ours with both under the closed loop"},
		// Scaled, and no closed HTTP: nothing to judge, and never the 7000/s pair
		// against the original's 14000/s (0.9/0.4 = 2.25× would have held).
		{"scaled, open only", []Bench{grpcClosed, grpcOpen7, httpOpen7}, "", NotComparable,
			"both open: not run at the original's setup (grpc-proto/open/7000: rate 7000/s, the original's 14000/s); not run at the original's setup (http-json/open/7000: rate 7000/s, the original's 14000/s)"},
	} {
		r := Compare(o, "", tc.bs)[0]
		if r.Load != tc.load || r.Verdict != tc.verdict || !strings.Contains(r.Why, tc.why) {
			t.Errorf("%s: load %q, %s: %s; want load %q, %s, why containing %q", tc.name, r.Load, r.Verdict, r.Why, tc.load, tc.verdict, tc.why)
		}
		if tc.load != "" && (r.Of.Load != tc.load || r.Over.Load != tc.load) {
			t.Errorf("%s: judged %s over %s", tc.name, r.Of.Name, r.Over.Name)
		}
	}
	// A finding that names no load model to judge under is not comparable.
	if r := Compare(parse(""), "", []Bench{grpcClosed, httpOpen, grpcOpen, httpClosed})[0]; r.Verdict != NotComparable ||
		!strings.HasSuffix(r.Why, "the finding names no load model to judge it under") {
		t.Errorf("no same_load: %+v", r)
	}
}
