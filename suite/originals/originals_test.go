package originals_test

import (
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/suite/originals"
)

// Every bundled figures file loads, and holds what the issue asked for (figure counts
// from the originals' READMEs, suite/bundled/originals/*.yaml's comments say which commits).
func TestBundledLoad(t *testing.T) {
	want := map[string]struct{ figures, findings int }{
		// 3 stacks × 5 operations × 2 environments.
		"metrifier": {30, 20},
		// Its first experiment: 2 stacks × 5 operations × 2 environments.
		"metrifier-v1": {20, 10},
		// 4 headline rows, the prose 20 ms, 24 sweep rows.
		"rest-vs-grpc": {29, 18},
		// The wrk2 and ghz tables with the raw outputs' extra percentiles.
		"akka-http-vs-grpc": {23, 4},
		// 4 payloads × 7 lines (echo+stats, 2022-09-04).
		"rpcecho": {28, 14},
		// 4 payloads × 4 lines (echo only, 2022-08-31).
		"rpcecho-2022": {16, 12},
		// grpc_bench: issue #280's three rows, PR #76's three; a JVM server over grpc-go in each;
		// PR #166's two Python servers, grpc.aio over the sync one.
		"grpc-bench": {8, 4},
	}
	names := originals.Names()
	if len(names) != len(want) {
		t.Errorf("Names() = %v, want %d originals", names, len(want))
	}
	for _, name := range names {
		o, err := originals.Load(name)
		if err != nil {
			t.Fatalf("Load(%q): %v", name, err)
		}
		if o.Name != name {
			t.Errorf("%s: name %q, want the file's name", o.File, o.Name)
		}
		if w := want[name]; len(o.Figures) != w.figures || len(o.Findings) != w.findings {
			t.Errorf("%s: %d figures, %d findings, want %d, %d", name, len(o.Figures), len(o.Findings), w.figures, w.findings)
		}
		for _, f := range o.Figures {
			if f.Setup == nil || f.Setup.Source.Repo == "" || f.Unit == "" || f.Setup.Tool == "" {
				t.Errorf("%s: figure %s lacks a setup, source, tool or unit", name, f.ID)
			}
		}
		for _, f := range o.Findings {
			if f.Of == nil || f.Over == nil || f.Ours.Metric == "" {
				t.Errorf("%s: finding %s incomplete", name, f.ID)
			}
		}
	}
	if _, err := originals.Load("nope"); err == nil || !strings.Contains(err.Error(), "metrifier") {
		t.Errorf("Load(nope) = %v, want an error listing the known originals", err)
	}
}

// A malformed file is an error at the line and column of each problem.
func TestParseErrors(t *testing.T) {
	const file = `name: x
title: t
sources:
  - {id: s, repo: r, file: README.md}
setups:
  - {name: a, source: nope, tool: JMH, how: h, machine: m, stacks: s}
figures:
  - {id: f1, setup: a, row: r, value: 10, unit: ops/s}
  - {id: f2, setup: b, row: r, value: -1, unit: furlongs}
  - {id: f3, setup: a, row: r, value: 5, unit: ms}
findings:
  - id: g
    setup: a
    says: s
    of: f1
    over: f3
    ours:
      metric: p42
      of: {protocol: grpc-proto, colour: red}
      over: {}
      same_load: [open]
  - id: h
    setup: a
    says: s
    of: f1
    over: f1
    ours:
      metric: score
      of: {protocol: grpc-proto, load: closed}
      over: {protocol: http-json, load: open}
      same_load: [open, sideways, open]
`
	_, err := originals.Parse("x.yaml", []byte(file))
	if err == nil {
		t.Fatal("Parse: no error")
	}
	for _, want := range []string{
		`x.yaml:6:23: source "nope" is not among sources`,
		`x.yaml:9:21: setup "b" is not among setups`,
		`x.yaml:9:39: value: want a number ≥ 0, got "-1"`,
		`x.yaml:9:49: unit "furlongs", want one of`,
		`x.yaml:16:11: over: figure "f3" is in ms, of "f1" in ops/s: a ratio needs one unit`,
		`x.yaml:18:15: metric "p42", want one of`,
		`x.yaml:19:34: unknown key "colour" in findings[0].ours.of`,
		`x.yaml:20:13: findings[0].ours.over: empty`,
		`x.yaml:21:18: same_load is for a finding whose of and over name two load models (one load: open, the other load: closed)`,
		`x.yaml:31:25: same_load: "sideways", want open or closed`,
		`x.yaml:31:35: same_load: open listed twice`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q; got:\n%v", want, err)
		}
	}
	if _, err := originals.Parse("y.yaml", []byte("name: [")); err == nil || !strings.HasPrefix(err.Error(), "y.yaml:1:1: YAML syntax") {
		t.Errorf("syntax error = %v", err)
	}
	if _, err := originals.Parse("z.yaml", []byte("name: z\n")); err == nil || !strings.Contains(err.Error(), "z.yaml:1:1: the file: missing title") {
		t.Errorf("missing keys = %v", err)
	}
}

// The steady-state check looks for the summary's own class.
func TestStillWarmingIsTheSummarys(t *testing.T) {
	if originals.NoSteadyState != results.SteadyNone {
		t.Errorf("originals.NoSteadyState = %q, results.SteadyNone = %q", originals.NoSteadyState, results.SteadyNone)
	}
	if ok, _ := originals.Steady(&originals.Bench{Steady: results.SteadyNone}); ok {
		t.Error("a benchmark with no steady state passed as steady")
	}
}
