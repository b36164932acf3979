package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/cluster"
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	_ "github.com/wirebench/wirebench/protocol/all"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// viewMarkers are a line each view prints, so a test can see it was rendered.
var viewMarkers = map[string]string{
	results.ViewJMHPerProtocol:  "JMH table per protocol",
	results.ViewRPCEchoLines:    "1000 calls using gRPC on unix:///…: ",
	results.ViewAkkaLatency:     "Total number of requests",
	results.ViewGRPCParamsTable: "(initial_window_size)",
}

// jvmWorker points the runs at the JVM worker's jar (the binary under test is built
// elsewhere, so it would not find the jar beside itself) and says whether the JVM stacks
// can run: java on PATH and the jar built (`make java`). Without them, why not.
func jvmWorker(t *testing.T) (ok bool, why string) {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		return false, "java is not on PATH"
	}
	jar, err := filepath.Abs(filepath.Join("..", "..", "workers", "java", "target", "wirebench-worker.jar"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(jar); err != nil {
		return false, jar + " is not built (make java)"
	}
	t.Setenv(cluster.JavaWorkerEnv, jar)
	return true, ""
}

// jvmRow reports whether a benchmark runs a side in the JVM worker.
func jvmRow(s spec.Spec) bool {
	for _, side := range []struct {
		name string
		side protocol.Side
	}{{s.ServerStack, protocol.ServerSide}, {s.ClientStack, protocol.ClientSide}} {
		if side.name == "" {
			continue
		}
		if st, err := protocol.LookupStack(s.Protocol, side.name, side.side); err == nil && st.Worker == protocol.WorkerJava {
			return true
		}
	}
	return false
}

// Every bundled suite runs end to end in smoke mode, through the built binary: exit 0,
// a results file the schema accepts, every benchmark of the suite present with ops and
// no failed call, and the suite's views in the terminal summary, the Markdown and the
// HTML. So no bundled suite rots. The suites' JVM rows (Java and Scala stacks) run too
// when java and the JVM worker's jar are there; without them those rows, and only
// those, may fail (the run then exits 1 and says why), except in CI, which requires
// them. About 2 minutes for all of them
// on a 2-core machine, most of it the JVM rows' worker start-ups.
func TestBundledSuitesSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every bundled suite (about 2 minutes)")
	}
	jvmOK, jvmWhy := jvmWorker(t)
	if !jvmOK {
		testtool.Partial(t, "the JVM rows of the suites may fail: %s", jvmWhy)
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
			jvmRows := 0
			for _, b := range s.Benchmarks {
				if jvmRow(b.Spec) {
					jvmRows++
				}
			}
			mayFail := !jvmOK && jvmRows > 0
			if code != 0 && !(mayFail && code == 1) {
				t.Fatalf("run %s --smoke: exit %d\n%s\n%s", name, code, stdout, stderr)
			}
			res := readResults(t, out)
			if res.Suite == nil || res.Suite.Name != name {
				t.Errorf("results name suite %+v, want %s", res.Suite, name)
			}
			got := map[string]results.Benchmark{}
			for _, b := range res.Benchmarks {
				got[b.Name] = b
			}
			for _, b := range s.Benchmarks {
				r, ok := got[b.Name]
				switch {
				case !ok:
					t.Errorf("%s: missing from the results", b.Name)
				case mayFail && jvmRow(b.Spec):
					// Without java or the jar, a JVM row fails and says why.
					if r.Summary.Ops <= 0 && !strings.Contains(strings.Join(r.Warnings, " "), "failed") {
						t.Errorf("%s: no ops and no failure said (%v)", b.Name, r.Warnings)
					}
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
