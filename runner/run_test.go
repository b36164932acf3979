package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/testbin"
	"github.com/wirebench/wirebench/results"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/suite"
)

var binary string

func TestMain(m *testing.M) { testbin.Main(m, "github.com/wirebench/wirebench/cmd/wirebench", &binary) }

// twoTargets is a suite of one comparison group of two targets, three forks of two
// short rounds.
const twoTargets = `name: two
description: one group of two targets
defaults:
  warmup: 0s
  rounds: 2
  duration: 100ms
  forks: 3
load:
  concurrency: [2]
targets:
  - protocol: http-json
  - protocol: grpc-proto
workloads:
  - name: person.get
`

func loadSuite(t *testing.T, sequential, oneProcess bool) *suite.Suite {
	t.Helper()
	text := twoTargets
	if oneProcess {
		text = strings.Replace(text, "defaults:", "process: one\ndefaults:", 1)
	}
	s, err := suite.Parse("two.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if sequential {
		s.Sequential()
	}
	return s
}

// forkIndices are each benchmark's fork indices, by name.
func forkIndices(r *results.Results) map[string][]int {
	out := map[string][]int{}
	for _, b := range r.Benchmarks {
		for _, tr := range b.Forks {
			out[b.Name] = append(out[b.Name], tr.Index)
		}
	}
	return out
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Interrupted after its first fork, a run of one group writes the reports from that
// fork (with a warning that says so) and journals it; resumed, it runs the other two
// forks only, numbered on, and the results hold the three. Both methods: an
// interleaved group's fork runs both targets, a sequential one's one target.
func TestRunInterruptAndResume(t *testing.T) {
	for _, c := range []struct {
		name                   string
		sequential, oneProcess bool
		// firstRun and resumed are each benchmark's fork indices after the interrupted
		// run and in the resumed run's events; forks the run's number of forks.
		firstRun, resumed map[int][]int
		// forks is the run's number of forks, first the count of the first (two
		// targets of a sequential fork in one process).
		forks, first int
	}{
		{"interleaved", false, false, map[int][]int{0: {0}, 1: {0}}, map[int][]int{0: {1, 2}, 1: {1, 2}}, 3, 1},
		{"sequential", true, false, map[int][]int{0: {0}}, map[int][]int{0: {1, 2}, 1: {0, 1, 2}}, 6, 1},
		// In one process a sequential fork runs both targets, one after the other.
		{"one process", false, true, map[int][]int{0: {0}, 1: {0}}, map[int][]int{0: {1, 2}, 1: {1, 2}}, 3, 1},
		{"one process, sequential", true, true, map[int][]int{0: {0}, 1: {0}}, map[int][]int{0: {1, 2}, 1: {1, 2}}, 6, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := loadSuite(t, c.sequential, c.oneProcess)
			names := []string{s.Benchmarks[0].Name, s.Benchmarks[1].Name}
			dir := filepath.Join(t.TempDir(), "out")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var forkEvents []Event
			out, err := Run(ctx, s, Options{Dir: dir, Binary: binary, Seed: 1, Observe: func(e Event) {
				if e.Kind == KindFork {
					forkEvents = append(forkEvents, e)
					cancel() // Ctrl-C as the first fork ends
				}
			}})
			if !errors.Is(err, context.Canceled) {
				for _, b := range out.Results.Benchmarks {
					t.Logf("%s: %q", b.Name, b.Warnings)
				}
				t.Fatalf("interrupted run: %v, want context.Canceled", err)
			}
			if len(forkEvents) != 1 || forkEvents[0].Fork != c.first || forkEvents[0].Forks != c.forks {
				t.Fatalf("fork events %+v, want one: fork %d of %d", forkEvents, c.first, c.forks)
			}
			for _, kind := range []string{"json", "md", "html"} {
				if _, err := os.Stat(out.Files[kind]); err != nil {
					t.Errorf("report %s not written: %v", kind, err)
				}
			}
			r, err := results.ReadFile(filepath.Join(dir, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			got := forkIndices(r)
			if len(got) != len(c.firstRun) {
				t.Errorf("results of the interrupted run hold forks of %v, want %v", got, c.firstRun)
			}
			for k, want := range c.firstRun {
				if !sameInts(got[names[k]], want) {
					t.Errorf("%s: forks %v after the interrupt, want %v", names[k], got[names[k]], want)
				}
			}
			for _, b := range r.Benchmarks {
				if w := strings.Join(b.Warnings.Of(results.WarnInterrupted).Strings(), "\n"); !strings.Contains(w, "interrupted: 1 of its") {
					t.Errorf("%s: warnings %q, want the forks that finished said", b.Name, w)
				}
			}
			journal, _ := os.ReadFile(filepath.Join(dir, JournalFile))
			if n, g := strings.Count(string(journal), `"kind":"fork"`), strings.Count(string(journal), `"kind":"group"`); n != 1 || g != 0 {
				t.Fatalf("journal holds %d forks and %d groups, want 1 and 0", n, g)
			}

			// Resume: only the forks left run.
			ran := map[int]map[int]bool{}
			var start Event
			out, err = Run(context.Background(), loadSuite(t, c.sequential, c.oneProcess), Options{Dir: dir, Resume: true, Binary: binary, Seed: 1,
				Observe: func(e Event) {
					switch e.Kind {
					case KindStart:
						start = e
					case KindInterval:
						k := e.Index
						if ran[k] == nil {
							ran[k] = map[int]bool{}
						}
						ran[k][e.Interval.Fork] = true
					}
				}})
			if err != nil || out.Failed > 0 {
				t.Fatalf("resume: %v, %d failed", err, out.Failed)
			}
			if start.Resumed != c.first || start.Fork != c.first || start.Forks != c.forks {
				t.Errorf("resume starts at %+v, want %d forks resumed of %d", start, c.first, c.forks)
			}
			for k, want := range c.resumed {
				var forks []int
				for f := range 3 {
					if ran[k][f] {
						forks = append(forks, f)
					}
				}
				if !sameInts(forks, want) {
					t.Errorf("%s: the resume ran forks %v, want %v", names[k], forks, want)
				}
			}
			got = forkIndices(out.Results)
			for _, n := range names {
				if !sameInts(got[n], []int{0, 1, 2}) {
					t.Errorf("%s: forks %v after the resume, want 0, 1, 2", n, got[n])
				}
			}
			for _, b := range out.Results.Benchmarks {
				if b.Warnings.Has(results.WarnInterrupted) {
					t.Errorf("%s still says it was interrupted: %q", b.Name, b.Warnings)
				}
			}
			if rel := out.Results.Benchmarks[1].Summary.Relative; rel == nil || rel.Forks != 3 {
				t.Errorf("ratio %+v, want one over 3 forks", rel)
			}
		})
	}
}

// A target that fails in a fork is journaled with its error in that fork and is not
// in the later ones; the others' forks go on, each journaled.
func TestRunJournalsFailedTarget(t *testing.T) {
	s := loadSuite(t, false, false)
	bad := &s.Benchmarks[1]
	bad.Spec.Label, bad.Spec.ClientOptions = "bad", map[string]string{"no_such_option": "1"}
	bad.Name = bad.Spec.Name()
	dir := filepath.Join(t.TempDir(), "out")
	out, err := Run(context.Background(), s, Options{Dir: dir, Binary: binary, Seed: 1})
	if err != nil || out.Failed != 1 {
		t.Fatalf("run: %v, %d failed; want the bad target failed", err, out.Failed)
	}
	data, err := os.ReadFile(filepath.Join(dir, JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	var targets []int
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var l journalLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Kind != "fork" {
			continue
		}
		targets = append(targets, len(l.Forks))
		for _, f := range l.Forks {
			if (f.Name == bad.Name) != (f.Error != "") {
				t.Errorf("fork %d of %s journaled with error %q", f.Index+1, f.Name, f.Error)
			}
		}
	}
	if fmt.Sprint(targets) != "[2 1 1]" {
		t.Errorf("the journal's forks hold %v targets, want [2 1 1]: both, then the good one alone", targets)
	}
}

// A benchmark that fails before measuring anything settles its forks as not run:
// the fork events say so and count all of its forks, and the time left is not
// scaled to nothing by forks that took no time.
func TestRunFailedBenchmarkForksNotRun(t *testing.T) {
	s := loadSuite(t, false, false)
	bad := s.Benchmarks[1]
	bad.Spec.Label, bad.Spec.ClientOptions = "bad", map[string]string{"no_such_option": "1"}
	bad.Name = bad.Spec.Name()
	s.Benchmarks = []suite.Benchmark{bad}
	var notRun, events int
	out, err := Run(context.Background(), s, Options{Dir: filepath.Join(t.TempDir(), "out"), Binary: binary, Seed: 1, Observe: func(e Event) {
		if e.Kind == KindFork {
			events++
			notRun += e.NotRun
		}
	}})
	if err != nil || out.Failed != 1 {
		t.Fatalf("run: %v, %d failed; want the bad benchmark failed", err, out.Failed)
	}
	if forks := bad.Spec.Forks; events == 0 || notRun != forks {
		t.Errorf("%d fork events counting %d forks not run, want all %d of its forks not run", events, notRun, forks)
	}
}

// twoWorkloads is twoTargets over two workloads: two groups of the same targets,
// which share each fork's workers (worker_lifetime: per-fork, the default).
var twoWorkloads = strings.Replace(twoTargets, "  - name: person.get\n", "  - name: person.get\n  - name: person.create\n", 1)

// A suite's groups of the same targets run as one batch, fork by fork: the forks
// of the two groups alternate, and each benchmark says its workers served both.
// Interrupted after the batch's first fork, resumed: each group runs the forks it
// lacks on workers of its own, and every benchmark ends with its 3 forks.
func TestMeasureBatchForkByFork(t *testing.T) {
	s, err := suite.Parse("two.yaml", []byte(twoWorkloads))
	if err != nil {
		t.Fatal(err)
	}
	var forks []string
	out, err := Run(context.Background(), s, Options{Dir: filepath.Join(t.TempDir(), "out"), Binary: binary, Seed: 1, Observe: func(e Event) {
		if e.Kind == KindFork {
			forks = append(forks, strings.TrimSuffix(e.GroupKey, "/closed-c2"))
		}
	}})
	if err != nil || out.Failed > 0 {
		t.Fatalf("run: %v, %d failed", err, out.Failed)
	}
	if want := "[person.get person.create person.get person.create person.get person.create]"; fmt.Sprint(forks) != want {
		t.Errorf("forks done in order %v, want %s", forks, want)
	}
	for _, b := range out.Results.Benchmarks {
		want := 1
		if strings.Contains(b.Name, "person.create") {
			want = 2
		}
		if b.Workers == nil || b.Workers.Groups != 2 || b.Workers.Position != want || len(b.Forks) != 3 {
			t.Errorf("%s: workers %+v, %d forks; want its workers shared by 2 groups, its own the %d., 3 forks", b.Name, b.Workers, len(b.Forks), want)
		}
	}

	dir := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	forks = nil
	_, err = Run(ctx, s, Options{Dir: dir, Binary: binary, Seed: 1, Observe: func(e Event) {
		if e.Kind == KindFork {
			forks = append(forks, e.GroupKey)
			if len(forks) == 2 {
				cancel() // Ctrl-C as the batch's first fork ends
			}
		}
	}})
	if !errors.Is(err, context.Canceled) || len(forks) != 2 {
		t.Fatalf("interrupted run: %v after forks %q, want context.Canceled after 2", err, forks)
	}
	out, err = Run(context.Background(), s, Options{Dir: dir, Resume: true, Binary: binary, Seed: 1})
	if err != nil || out.Failed > 0 {
		t.Fatalf("resume: %v, %d failed", err, out.Failed)
	}
	got := forkIndices(out.Results)
	if len(got) != 4 {
		t.Fatalf("results of %d benchmarks, want 4", len(got))
	}
	for name, idx := range got {
		if !sameInts(idx, []int{0, 1, 2}) {
			t.Errorf("%s: forks %v after the resume, want 0, 1, 2", name, idx)
		}
	}
}
