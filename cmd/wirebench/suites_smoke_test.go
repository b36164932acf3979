package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/nspair"
	_ "github.com/wirebench/wirebench/protocol/all"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/suite"
)

// viewMarkers are a line each view prints, so a test can see it was rendered.
var viewMarkers = map[string]string{
	report.ViewJMHPerProtocol:  "JMH table per protocol",
	report.ViewRPCEchoLines:    "1000 calls using gRPC on unix:///…: ",
	report.ViewAkkaLatency:     "Total number of requests",
	report.ViewGRPCParamsTable: "(initial_window_size)",
}

// Every bundled suite runs end to end in smoke mode, through the built binary: exit 0,
// a results file the schema accepts, every benchmark of the suite present with ops and
// no failed call, and the suite's views in the terminal summary, the Markdown and the
// HTML. So no bundled suite rots. About 30 s for all of them on a 2-core machine.
func TestBundledSuitesSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every bundled suite (about 30 s)")
	}
	for _, name := range suite.Bundled() {
		t.Run(name, func(t *testing.T) {
			s, err := suite.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if s.Hosts.Netns {
				if err := nspair.Available(); err != nil {
					t.Skipf("skipped: the suite runs its workers in network namespaces: %v", err)
				}
			}
			s.Smoke()
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := runProc(t, name, "--smoke", "--out", out)
			if code != 0 {
				t.Fatalf("run %s --smoke: exit %d\n%s\n%s", name, code, stdout, stderr)
			}
			res := readResults(t, out)
			if res.Suite == nil || res.Suite.Name != name {
				t.Errorf("results name suite %+v, want %s", res.Suite, name)
			}
			got := map[string]report.Benchmark{}
			for _, b := range res.Benchmarks {
				got[b.Name] = b
			}
			for _, b := range s.Benchmarks {
				r, ok := got[b.Name]
				switch {
				case !ok:
					t.Errorf("%s: missing from the results", b.Name)
				case r.Summary.Ops <= 0 || r.Summary.Errors != 0:
					t.Errorf("%s: %d ops, %d errors (%v)", b.Name, r.Summary.Ops, r.Summary.Errors, r.Warnings)
				}
			}
			if len(res.Benchmarks) != len(s.Benchmarks) {
				t.Errorf("%d benchmarks in the results, the smoke suite has %d", len(res.Benchmarks), len(s.Benchmarks))
			}
			md, err := os.ReadFile(filepath.Join(out, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			html, err := os.ReadFile(filepath.Join(out, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range s.Views {
				marker, ok := viewMarkers[v]
				if !ok {
					t.Errorf("view %s has no marker in this test", v)
					continue
				}
				if !strings.Contains(stdout, marker) {
					t.Errorf("view %s: %q not in the terminal summary:\n%s", v, marker, stdout)
				}
				if !strings.Contains(string(md), strings.ReplaceAll(marker, "_", `\_`)) {
					t.Errorf("view %s: %q not in report.md", v, marker)
				}
				if !strings.Contains(string(html), `id="view-`+v+`"`) {
					t.Errorf("view %s: no section in report.html", v)
				}
			}
		})
	}
}
