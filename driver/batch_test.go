package driver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/workers/go/engine"
)

// spawnLog is an Options.Binary that writes a line per worker it starts ("pid
// args") to a file, then runs the wirebench binary in its place: what a test reads
// to count the worker processes a run started.
func spawnLog(t *testing.T) (bin, log string) {
	dir := t.TempDir()
	log = filepath.Join(dir, "spawned")
	bin = filepath.Join(dir, "wirebench")
	script := fmt.Sprintf("#!/bin/sh\necho \"$$ $*\" >> %q\nexec %q \"$@\"\n", log, binary)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, log
}

// spawned reads spawnLog's file: one line per worker started.
func spawned(t *testing.T, log string) []string {
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// batchGroups are two groups of the same two Go targets (grpc-proto and
// http-json over tcp), one per workload, of 2 forks of 2 rounds.
func batchGroups(workers string) [][]spec.Spec {
	var groups [][]spec.Spec
	for _, w := range []string{"person.get", "person.create"} {
		var g []spec.Spec
		for _, p := range []string{"grpc-proto", "http-json"} {
			s := testSpec(p, "tcp")
			s.Workload, s.Workers = w, workers
			s.Method, s.Rounds, s.Forks, s.SliceTime, s.Warmup = spec.MethodInterleaved, 2, 2, 30*time.Millisecond, 50*time.Millisecond
			g = append(g, s)
		}
		groups = append(groups, g)
	}
	return groups
}

// A batch starts each fork's workers once and measures every group on them, in turn:
// two groups of two targets, 2 forks, start 2 forks × 2 targets × (server + client)
// = 8 workers, where groups run on their own start 16; every group still has its
// warm-up and rounds in each fork, and says which groups its workers served.
func TestMeasureBatchSharesWorkers(t *testing.T) {
	for _, c := range []struct {
		workers string
		spawns  int
	}{{spec.WorkersPerFork, 8}, {spec.WorkersPerGroup, 16}} {
		t.Run(c.workers, func(t *testing.T) {
			bin, log := spawnLog(t)
			groups := batchGroups(c.workers)
			var order []string // group, fork, phase of each event, in turn
			forks := map[int]int{}
			opts := make([]Options, len(groups))
			for g := range groups {
				opts[g] = Options{Binary: bin,
					Observe: func(e Event) {
						if e.Interval.Phase == string(engine.Warmup) {
							order = append(order, fmt.Sprintf("g%d-f%d", g, e.Fork))
						}
					},
					ForkDone: func(fs map[int]*results.Fork) { forks[g] += len(fs) }}
			}
			out := MeasureBatch(context.Background(), groups, opts)
			if n := len(spawned(t, log)); n != c.spawns {
				t.Errorf("%d workers started, want %d", n, c.spawns)
			}
			// Every worker has exited, and been waited for, when MeasureBatch returns:
			// a fork's end stops all of its targets' workers (at once) and waits
			// for each.
			for _, line := range spawned(t, log) {
				pid, _ := strconv.Atoi(strings.Fields(line)[0])
				if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
					t.Errorf("worker %d is still there after MeasureBatch returned (kill 0: %v)", pid, err)
				}
			}
			for g, ms := range out {
				for i, m := range ms {
					if m.Err != nil || len(m.Forks) != 2 {
						t.Fatalf("group %d target %d: err %v, %d forks; want 2", g, i, m.Err, len(m.Forks))
					}
					for _, f := range m.Forks {
						if f.Warmup == nil || len(f.Intervals) != 2 || f.Intervals[1].Ops == 0 {
							t.Errorf("group %d target %d fork %d: warm-up %v, %d slices; want a warm-up and 2 slices with calls", g, i, f.Index, f.Warmup != nil, len(f.Intervals))
						}
					}
					want := &results.WorkersShare{Groups: 2, Position: g + 1}
					if c.workers == spec.WorkersPerGroup {
						want = nil
					}
					if fmt.Sprint(m.Workers) != fmt.Sprint(want) || m.Method != spec.MethodInterleaved {
						t.Errorf("group %d target %d: workers %v, method %q; want %v, interleaved", g, i, m.Workers, m.Method, want)
					}
				}
				if forks[g] != 4 {
					t.Errorf("group %d: %d forks reported, want 2 forks × 2 targets", g, forks[g])
				}
			}
			// Fork by fork in a batch; group by group otherwise.
			want := "[g0-f0 g0-f0 g1-f0 g1-f0 g0-f1 g0-f1 g1-f1 g1-f1]"
			if c.workers == spec.WorkersPerGroup {
				want = "[g0-f0 g0-f0 g0-f1 g0-f1 g1-f0 g1-f0 g1-f1 g1-f1]"
			}
			if fmt.Sprint(order) != want {
				t.Errorf("warm-ups in order %v, want %s", order, want)
			}
		})
	}
}

// A target whose workers die in a batch's first group fails there, for the rest of
// that group's forks, as in a group of its own; the next group starts it new
// workers and measures it. Workers started: fork 1, 4, then 2 new for the killed
// target in the second group; fork 2, the first group without the failed target (2),
// the second group's start of it (2): 10.
func TestMeasureBatchTargetDies(t *testing.T) {
	bin, log := spawnLog(t)
	groups := batchGroups(spec.WorkersPerFork)
	killed := false
	opts := []Options{{Binary: bin, Observe: func(e Event) {
		if e.Target == 0 && e.Fork == 0 && e.Interval.Phase == string(engine.Measure) && !killed {
			killed = true
			for _, line := range spawned(t, log) {
				if strings.Contains(line, "server-0-0.sock") {
					pid, _ := strconv.Atoi(strings.Fields(line)[0])
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		}
	}}, {Binary: bin}}
	out := MeasureBatch(context.Background(), groups, opts)
	if !killed {
		t.Fatal("no slice of the first target was observed")
	}
	if m := out[0][0]; m.Err == nil || len(m.Forks) != 1 || m.Forks[0].Err == nil {
		t.Errorf("the killed target in the first group: err %v, %d forks; want its first fork failed and no second", m.Err, len(m.Forks))
	}
	for _, m := range []*results.Measured{out[0][1], out[1][0], out[1][1]} {
		if m.Err != nil || len(m.Forks) != 2 || len(m.Forks[1].Intervals) != 2 {
			t.Errorf("err %v, %d forks; want 2 forks measured", m.Err, len(m.Forks))
		}
	}
	if n := len(spawned(t, log)); n != 10 {
		t.Errorf("%d workers started, want 10", n)
	}
}

// Groups that cannot share workers (other stacks, or a plan of another length) run
// on their own, with nothing said of shared workers.
func TestMeasureBatchOnlySameTargets(t *testing.T) {
	groups := batchGroups(spec.WorkersPerFork)
	for i := range groups[1] {
		groups[1][i].Rounds = 3
	}
	out := MeasureBatch(context.Background(), groups, []Options{{Binary: binary}, {Binary: binary}})
	for g, ms := range out {
		for i, m := range ms {
			if m.Err != nil || m.Workers != nil || len(m.Forks) != 2 {
				t.Errorf("group %d target %d: err %v, workers %v, %d forks; want 2 forks on workers of its own", g, i, m.Err, m.Workers, len(m.Forks))
			}
		}
	}
}

// A JVM worker serves a second session: the same JVM server and client workers
// measure two workloads in turn, in each fork.
func TestMeasureBatchJVM(t *testing.T) {
	jar := needJVMWorker(t)
	groups := batchGroups(spec.WorkersPerFork)
	for _, g := range groups {
		g[0].ServerStack, g[0].ClientStack = "grpc-java-netty", "grpc-java-netty"
		for i := range g {
			g[i].Forks = 1
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	opt := Options{Binary: binary, Launch: launch.Options{JavaWorker: jar}, StartTimeout: 30 * time.Second}
	out := MeasureBatch(ctx, groups, []Options{opt, opt})
	for g, ms := range out {
		if m := ms[0]; m.Err != nil || len(m.Forks) != 1 || len(m.Forks[0].Intervals) != 2 || m.Workers == nil {
			t.Fatalf("group %d, grpc-java: err %v, workers %v; want 2 slices on shared workers", g, m.Err, m.Workers)
		}
	}
}
