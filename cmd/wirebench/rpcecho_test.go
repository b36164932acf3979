package main

import (
	"strings"
	"testing"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/suite"
)

// rpcechoSmokes are what rpcecho and its 2022-08-31 variant print and run in smoke
// mode, checked by checkRpcechoSmoke on TestBundledSuitesSmoke's run of each.
var rpcechoSmokes = map[string]struct {
	workload, line string
	ops            int64
}{
	"rpcecho":      {"echo+stats", "20 calls using http  on unix:///…: ", 1000},
	"rpcecho-2022": {"echo", "20 calls using Capnp on tcp://127.0.0.1:…: ", 10000},
}

// rpcecho and its 2022-08-31 variant run in one process (process: one) in smoke mode:
// their results say so, every line is one slice of the smoke's 20 ops (the suites
// ask for 1000 and 10000), and the terminal prints each line as rpcecho did, with the
// exact time beside it; the run exits 0. code, res and stdout are those of `run NAME
// --smoke`.
func checkRpcechoSmoke(t *testing.T, name string, code int, res *results.Results, stdout string) {
	c := rpcechoSmokes[name]
	if code != 0 {
		t.Errorf("run %s --smoke: exit %d, want 0", name, code)
	}
	s, err := suite.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range s.Benchmarks {
		if b.Spec.SliceOps != c.ops || b.Spec.Workload != c.workload {
			t.Fatalf("%s: lines of %d ops of %s, want %d of %s", b.Name, b.Spec.SliceOps, b.Spec.Workload, c.ops, c.workload)
		}
	}
	if res.Suite == nil || res.Suite.Process != results.ProcessOne {
		t.Fatalf("suite %+v, want process %q", res.Suite, results.ProcessOne)
	}
	if w := res.Environment.Workers; len(w) != 1 || w[0].Role != runner.OneProcessRole || w[0].CPUs != "" {
		t.Errorf("workers %+v, want this host alone, unpinned, as %q", w, runner.OneProcessRole)
	}
	if len(res.Benchmarks) != len(s.Benchmarks) {
		t.Errorf("%d benchmarks, want %d", len(res.Benchmarks), len(s.Benchmarks))
	}
	for _, b := range res.Benchmarks {
		if b.SliceOps != 20 || len(b.Forks) != 1 || len(b.Forks[0].Slices) != 1 || b.Forks[0].Slices[0].Ops != 20 {
			t.Errorf("%s: %d ops a line, %d forks; want one line of 20 ops", b.Name, b.SliceOps, len(b.Forks))
		}
		if sh := b.Shape; sh == nil || sh.Name != "shared" || sh.ServerCPUs != "" || sh.ClientCPUs != "" || b.Isolation != driver.OneProcessIsolation {
			t.Errorf("%s: shape %+v, isolation %q; want shared, unpinned, %q", b.Name, sh, b.Isolation, driver.OneProcessIsolation)
		}
		if b.Summary.ServerCPUUsPerOp != nil || b.Summary.Errors != 0 {
			t.Errorf("%s: server CPU %v, %d errors; want unknown (one process) and none", b.Name, b.Summary.ServerCPUUsPerOp, b.Summary.Errors)
		}
	}
	for _, want := range []string{c.line, "--- test with 100K payload --- (" + c.workload + ", closed-c1) fork 1, round 1"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("%q not in the terminal output:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, " ms]"); n != len(s.Benchmarks)-countDirect(s) {
		t.Errorf("%d lines with an exact time in ms, want %d (one per benchmark across a wire)", n, len(s.Benchmarks)-countDirect(s))
	}
}

func countDirect(s *suite.Suite) int {
	n := 0
	for _, b := range s.Benchmarks {
		if b.Spec.Protocol == "direct" {
			n++
		}
	}
	return n
}
