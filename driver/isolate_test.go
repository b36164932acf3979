package driver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/freeze"
	"github.com/wirebench/wirebench/spec"
)

// recorder is a freeze.Freezer that freezes nothing and keeps the state each group
// would be in, so the driver's bookkeeping can be checked without processes.
type recorder struct {
	groups   map[string]*recGroup
	failThaw string // the group whose Thaw fails
}

type recGroup struct {
	r      *recorder
	name   string
	pids   []int
	frozen bool
	closed bool
}

func (r *recorder) Method() freeze.Method { return "recorder" }
func (r *recorder) Close() error          { return nil }
func (r *recorder) NewGroup(name string) (freeze.Group, error) {
	g := &recGroup{r: r, name: name}
	r.groups[name] = g
	return g, nil
}
func (g *recGroup) Add(pid int) error { g.pids = append(g.pids, pid); return nil }
func (g *recGroup) Freeze() error     { g.frozen = true; return nil }
func (g *recGroup) Thaw() error {
	if g.r.failThaw == g.name {
		return errors.New("thaw refused")
	}
	g.frozen = false
	return nil
}
func (g *recGroup) Close() error { g.frozen, g.closed = false, true; return nil }

// state is "0:F 1:T 2:F" (F frozen, T thawed, C closed), in target order.
func (r *recorder) state(n int) string {
	var out []string
	for i := range n {
		g := r.groups[fmt.Sprintf("t%d", i)]
		c := "T"
		switch {
		case g.closed:
			c = "C"
		case g.frozen:
			c = "F"
		}
		out = append(out, fmt.Sprintf("%d:%s", i, c))
	}
	return strings.Join(out, " ")
}

func newRecorded(n int) (*isolation, *recorder) {
	r := &recorder{groups: map[string]*recGroup{}}
	return &isolation{method: "recorder", f: r, groups: make([]freeze.Group, n), frozen: make([]bool, n)}, r
}

// A target is thawed exactly for its own slices: frozen once added, alone thawed
// while its slice runs, frozen again after it, even when the slice fails.
func TestIsolationThawsOnlyTheSlicesTarget(t *testing.T) {
	iso, r := newRecorded(3)
	for i := range 3 {
		if err := iso.add(i, fmt.Sprintf("t%d", i), []int{100 + i, 200 + i}); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.state(3); got != "0:F 1:F 2:F" {
		t.Fatalf("after starting: %s; want every target frozen", got)
	}
	if got := r.groups["t1"].pids; fmt.Sprint(got) != "[101 201]" {
		t.Errorf("target 1's group holds %v; want its server's and client's pids", got)
	}
	var during string
	if err := iso.alone(1, func() error { during = r.state(3); return nil }); err != nil {
		t.Fatal(err)
	}
	if during != "0:F 1:T 2:F" {
		t.Errorf("during target 1's slice: %s; want it alone thawed", during)
	}
	if got := r.state(3); got != "0:F 1:F 2:F" {
		t.Errorf("after the slice: %s; want every target frozen", got)
	}
	slice := errors.New("the slice failed")
	if err := iso.alone(2, func() error { during = r.state(3); return slice }); !errors.Is(err, slice) {
		t.Errorf("a failed slice returned %v; want its error", err)
	}
	if during != "0:F 1:F 2:T" || r.state(3) != "0:F 1:F 2:F" {
		t.Errorf("a failed slice: %s during, %s after; want 2 alone thawed during, all frozen after", during, r.state(3))
	}
	// A released target (failed, or its fork over) is thawed and left alone: its
	// group is closed and later slices of the others do not touch it.
	if err := iso.release(0); err != nil {
		t.Fatal(err)
	}
	if err := iso.alone(1, func() error { during = r.state(3); return nil }); err != nil {
		t.Fatal(err)
	}
	if during != "0:C 1:T 2:F" {
		t.Errorf("after releasing target 0, target 1's slice: %s", during)
	}
	if err := iso.close(); err != nil {
		t.Fatal(err)
	}
	if got := r.state(3); got != "0:C 1:C 2:C" {
		t.Errorf("after close: %s; want every group closed (thawed)", got)
	}
}

// When a target cannot be thawed, its slice does not run (it would measure a
// frozen process) and the freezer's error says why.
func TestIsolationThawFailureSkipsTheSlice(t *testing.T) {
	iso, r := newRecorded(2)
	r.failThaw = "t0"
	for i := range 2 {
		if err := iso.add(i, fmt.Sprintf("t%d", i), []int{i}); err != nil {
			t.Fatal(err)
		}
	}
	ran := false
	err := iso.alone(0, func() error { ran = true; return nil })
	if err == nil || !strings.Contains(err.Error(), "thaw refused") || ran {
		t.Errorf("alone: err %v, slice ran %v; want the thaw's error and no slice", err, ran)
	}
}

// isolation: none, or remote workers, keep every target running, and say so.
func TestIsolationNone(t *testing.T) {
	s := spec.Default()
	s.Isolation = spec.IsolationNone
	iso, err := isolationFor([]spec.Spec{s, s}, spec.Hosts{})
	if err != nil || iso.Method() != "none" {
		t.Fatalf("isolation none: %q, %v", iso.Method(), err)
	}
	ran := false
	if err := iso.alone(1, func() error { ran = true; return nil }); err != nil || !ran {
		t.Errorf("alone without a freezer: %v, ran %v", err, ran)
	}
	s.Isolation = spec.IsolationFreeze
	iso, _ = isolationFor([]spec.Spec{s, s}, spec.Hosts{Server: "tcp://192.0.2.1:7000"})
	if !strings.HasPrefix(iso.Method(), "none: remote workers") {
		t.Errorf("remote workers: %q; want none with the reason", iso.Method())
	}
}

// freezerDir is the cgroup v2 directory a driver in this process freezes its
// targets under, or "" when this machine has no cgroup v2 freezer to use.
func freezerDir(t *testing.T) string {
	f, err := freeze.Open("wirebench")
	if err != nil || f.Method() != freeze.CgroupV2 {
		return ""
	}
	defer f.Close()
	b, _ := os.ReadFile("/proc/self/mountinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, " - cgroup2 ") {
			return filepath.Join(strings.Fields(l)[4], fmt.Sprintf("wirebench-%d", os.Getpid()))
		}
	}
	return ""
}

// Over real workers: after each warm-up and each slice (when the driver observes
// it) every target is frozen, each thawed only while its own phases run
// (isolation.alone, tested above); the results say how the group was isolated; and
// nothing is left frozen or behind when the group ends.
func TestMeasureGroupFrozenNeighbours(t *testing.T) {
	dir := freezerDir(t)
	if dir == "" {
		t.Skip("no cgroup v2 freezer here (needs root and cgroup2 mounted): the driver falls back to SIGSTOP")
	}
	var specs []spec.Spec
	for _, p := range []string{"http-json", "grpc-proto"} {
		s := testSpec(p, "tcp")
		s.Method, s.Rounds, s.Forks, s.SliceTime = spec.MethodInterleaved, 3, 2, 50*time.Millisecond
		specs = append(specs, s)
	}
	frozen := func(target, fork int) (bool, int) {
		g := filepath.Join(dir, fmt.Sprintf("t%d-f%d", target, fork))
		ev, err := os.ReadFile(filepath.Join(g, "cgroup.events"))
		if err != nil {
			t.Errorf("target %d fork %d: %v", target, fork, err)
			return false, 0
		}
		procs, _ := os.ReadFile(filepath.Join(g, "cgroup.procs"))
		return strings.Contains(string(ev), "frozen 1"), len(strings.Fields(string(procs)))
	}
	var checked int
	rs := MeasureGroup(t.Context(), specs, Options{Binary: binary, Seed: 3, Observe: func(e Event) {
		checked++
		for j := range specs {
			f, procs := frozen(j, e.Fork)
			if procs < 2 {
				t.Errorf("fork %d: target %d's group holds %d processes; want its server and client workers", e.Fork, j, procs)
			}
			if !f {
				t.Errorf("fork %d, %s of target %d: target %d frozen %v", e.Fork, e.Interval.Phase, e.Target, j, f)
			}
		}
	}})
	for i, r := range rs {
		if r.Err != nil || r.Isolation != string(freeze.CgroupV2) || len(r.Forks) != 2 {
			t.Fatalf("target %d: err %v, isolation %q, %d forks", i, r.Err, r.Isolation, len(r.Forks))
		}
		for _, tr := range r.Forks {
			if len(tr.Intervals) != 3 {
				t.Errorf("target %d fork %d: %d slices; want 3", i, tr.Index, len(tr.Intervals))
			}
		}
	}
	if checked != 2*2*(1+3) {
		t.Errorf("%d events checked; want 16 (2 forks × 2 targets × a warm-up and 3 slices)", checked)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the freezer's cgroup %s is left behind: %v", dir, err)
	}
}
