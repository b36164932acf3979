package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/suite"
)

// viewMarkers are a line each view prints, so a test can see it was rendered.
var viewMarkers = map[string]string{
	results.ViewJMHPerProtocol:  "JMH table per protocol",
	results.ViewRPCEchoLines:    "calls using gRPC  on unix:///…: ",
	results.ViewAkkaLatency:     "Total number of requests",
	results.ViewGRPCParamsTable: "(initial_window_size)",
	results.ViewMatrix:          "Client × server matrix",
}

// smokeFilters narrow a bundled suite's smoke run (--filter) where running all of it
// would take minutes of worker start-ups: the matrix's JVM servers each start with up
// to 7 JVMs at once. Its smoke keeps the Go and Rust servers, so every client stack of
// the matrix runs; its JVM servers are smoked by the suites that bring them
// (akka-successors, metrifier, rest-vs-grpc, grpc-params) and their pairs with every
// client by `wirebench run matrix --smoke`.
var smokeFilters = map[string]string{
	"matrix": `^(grpc-proto|http-json|capnp)(\[client=[a-z0-9-]+\])?/|server=(tonic|axum|capnp-rpc)[,\]]`,
}

// serialSmokes are the suites whose smoke run TestBundledSuitesSmoke makes alone, before
// the others run two at a time: grpc-bench-polyglot's Python and Node servers under 1000
// calls in flight did not finish their calls in time beside another suite (112 timeouts
// of 1150 calls on grpcio-aio, 2026-11-29), where alone they do.
var serialSmokes = map[string]bool{"grpc-bench-polyglot": true}

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
	t.Setenv(launch.JavaWorkerEnv, jar)
	return true, ""
}

// rustWorker points the runs at the Rust worker (built by `make rust`) and says whether
// the Rust stacks can run; without it, why not.
func rustWorker(t *testing.T) (ok bool, why string) {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("..", "..", launch.RustWorkerPath))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		return false, bin + " is not built (make rust)"
	}
	t.Setenv(launch.RustWorkerEnv, bin)
	return true, ""
}

// installedWorker points the runs at a worker installed in its directory of the
// repository (rel, with marker inside once installed: `make python`, `make node`)
// through its launcher's environment variable, and says whether its stacks can run;
// without it, why not.
func installedWorker(t *testing.T, rel, marker, env, make string) (ok bool, why string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, marker)); err != nil {
		return false, fmt.Sprintf("%s has no %s (%s)", dir, marker, make)
	}
	t.Setenv(env, dir)
	return true, ""
}

// jvmRow reports whether a benchmark runs a side in the JVM worker.
func jvmRow(s spec.Spec) bool { return workerRow(s, protocol.WorkerJava) }

// rustRow reports whether a benchmark runs a side in the Rust worker.
func rustRow(s spec.Spec) bool { return workerRow(s, protocol.WorkerRust) }

// workerRow reports whether a benchmark runs a side in a worker of kind.
func workerRow(s spec.Spec, kind string) bool {
	for _, side := range []struct {
		name string
		side protocol.Side
	}{{s.ServerStack, protocol.ServerSide}, {s.ClientStack, protocol.ClientSide}} {
		if side.name == "" {
			continue
		}
		if st, err := protocol.LookupStack(s.Protocol, side.name, side.side); err == nil && st.Worker == kind {
			return true
		}
	}
	return false
}

// Every bundled suite runs end to end in smoke mode, through the built binary: exit 0,
// a results file the schema accepts, every benchmark of the suite present with ops and
// no failed call, and the suite's views in the terminal summary, the Markdown and the
// HTML. So no bundled suite rots. The suites' JVM rows (Java and Scala stacks) run too
// when java and the JVM worker's jar are there, and their Rust rows when the Rust
// worker is built; without them those rows, and only those, may fail (the run then
// exits 1 and says why), except in CI, which requires them. rpcecho's two suites are
// checked further by checkRpcechoSmoke on the same run, and quick's and grpc-bench's run on
// a 100-column terminal, whose first screen checkFirstScreen checks. About 5 minutes for all
// of them, two at a time, on a 2-core machine with nothing else running (296 s on
// 2026-11-29), the longest grpc-params' with its two batches of 36 JVMs
// (docs/architecture.md, "The check").
func TestBundledSuitesSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every bundled suite (about 5 minutes)")
	}
	jvmOK, jvmWhy := jvmWorker(t)
	if !jvmOK {
		testtool.Partial(t, "the JVM rows of the suites may fail: %s", jvmWhy)
	}
	rustOK, rustWhy := rustWorker(t)
	if !rustOK {
		testtool.Partial(t, "the Rust rows of the suites may fail: %s", rustWhy)
	}
	pythonOK, pythonWhy := installedWorker(t, launch.PythonWorkerPath, ".venv/bin/python", launch.PythonWorkerEnv, "make python")
	if !pythonOK {
		testtool.Partial(t, "the Python rows of the suites may fail: %s", pythonWhy)
	}
	nodeOK, nodeWhy := installedWorker(t, launch.NodeWorkerPath, "node_modules/@grpc/grpc-js", launch.NodeWorkerEnv, "make node")
	if !nodeOK {
		testtool.Partial(t, "the Node rows of the suites may fail: %s", nodeWhy)
	}
	for _, name := range suite.Bundled() {
		t.Run(name, func(t *testing.T) {
			// Two suites at once (go test's -parallel, GOMAXPROCS by default): a smoke
			// run's time is mostly worker start-ups and stops, and what is checked
			// (every benchmark ran, no failed call, the views) does not need the machine
			// to itself, except where serialSmokes says. The environment above is set
			// before and stays until all end.
			if !serialSmokes[name] {
				t.Parallel()
			}
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
			args := []string{name, "--smoke", "--out", filepath.Join(t.TempDir(), "out")}
			if f, ok := smokeFilters[name]; ok {
				keep := regexp.MustCompile(f)
				s.Benchmarks = slices.DeleteFunc(s.Benchmarks, func(b suite.Benchmark) bool { return !keep.MatchString(b.Name) })
				args = append(args, "--filter", f)
			}
			out := args[3]
			var code int
			var stdout, stderr string
			if firstScreens[name] {
				// On a terminal: the same run, with the live bar, whose screen (stdout and
				// stderr) checkFirstScreen checks too. grpc-bench's needs its JVM and Rust
				// rows.
				if name == "grpc-bench" && !(jvmOK && rustOK) {
					testtool.Partial(t, "run grpc-bench --smoke on a terminal not checked: %s", strings.TrimPrefix(jvmWhy+"; "+rustWhy, "; "))
				}
				termArgs := slices.Concat([]string{"run"}, args, []string{"--no-store"})
				rows, c := runOnTerminal(t, 100, termArgs...)
				if name != "grpc-bench" || jvmOK && rustOK {
					checkFirstScreen(t, termArgs, rows, c)
				}
				code, stdout = c, strings.Join(rows, "\n")
			} else {
				code, stdout, stderr = runProc(t, args...)
			}
			// A row of a worker that is not there fails, and says why.
			absent := func(sp spec.Spec) bool {
				return !jvmOK && jvmRow(sp) || !rustOK && rustRow(sp) || !pythonOK && workerRow(sp, protocol.WorkerPython) ||
					!nodeOK && workerRow(sp, protocol.WorkerNode)
			}
			absentRows := 0
			for _, b := range s.Benchmarks {
				if absent(b.Spec) {
					absentRows++
				}
			}
			mayFail := absentRows > 0
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
				case absent(b.Spec):
					// Without java or the jar, a JVM row fails and says why; so does a
					// Rust row without the Rust worker.
					if r.Summary.Ops <= 0 && !r.Warnings.Has(results.WarnFailed) {
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
			if _, ok := rpcechoSmokes[name]; ok {
				checkRpcechoSmoke(t, name, code, res, stdout)
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
