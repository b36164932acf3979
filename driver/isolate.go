package driver

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/freeze"
	"github.com/wirebench/wirebench/spec"
)

// isolation keeps the targets of an interleaved group apart: each target's spawned
// processes (its server worker, its client workers and what they start, such as a
// link proxy) are one freeze.Group, and a target runs only in its own warm-up and
// slices, with every other target frozen. What a process does between its slices
// (a JIT compiling, a collector, a timer) then happens in its own next slice, where
// it is counted, and never in a neighbour's. Owned by one goroutine.
//
// The zero isolation (and one made with no Freezer) isolates nothing: every call is
// a no-op, and method says why.
type isolation struct {
	method string
	f      freeze.Freezer
	groups []freeze.Group // by target index; nil for a target not (or no longer) held
	frozen []bool
}

// isolationFor decides how the group of specs is isolated on hosts: frozen by the
// best mechanism here (freeze.Open), or not at all, with the reason as its method.
func isolationFor(specs []spec.Spec, hosts spec.Hosts) (*isolation, error) {
	n := len(specs)
	switch {
	case specs[0].Isolation == spec.IsolationNone:
		return &isolation{method: "none"}, nil
	case hosts.Server != "" || len(hosts.Clients) > 0:
		return &isolation{method: "none: remote workers cannot be frozen from here"}, nil
	}
	f, err := freeze.Open("wirebench")
	if err != nil {
		return &isolation{method: "none: " + err.Error()}, nil
	}
	return &isolation{method: string(f.Method()) + outsideNote(specs), f: f, groups: make([]freeze.Group, n), frozen: make([]bool, n)}, nil
}

// outsideNote says, for a group with outside servers (an address, not a server
// wirebench started), that those cannot be frozen: wirebench freezes only the
// processes it started, their clients. "" when the group has none.
func outsideNote(specs []spec.Spec) string {
	var outside []string
	for _, s := range specs {
		if s.Address != "" && !slices.Contains(outside, s.Address) {
			outside = append(outside, s.Address)
		}
	}
	if len(outside) == 0 {
		return ""
	}
	return "; the outside servers at " + strings.Join(outside, ", ") + " cannot be frozen: only their clients were"
}

// Method is what results record of the isolation (Benchmark.Isolation).
func (s *isolation) Method() string { return s.method }

// add puts target i's spawned processes (pids) in a group of their own, frozen.
func (s *isolation) add(i int, name string, pids []int) error {
	if s.f == nil {
		return nil
	}
	g, err := s.f.NewGroup(name)
	if err != nil {
		return err
	}
	for _, p := range pids {
		if err := g.Add(p); err != nil {
			return errors.Join(err, g.Close())
		}
	}
	s.groups[i] = g
	return s.freeze(i)
}

func (s *isolation) freeze(i int) error {
	if s.f == nil || s.groups[i] == nil || s.frozen[i] {
		return nil
	}
	if err := s.groups[i].Freeze(); err != nil {
		return fmt.Errorf("freezing the target's processes: %w", err)
	}
	s.frozen[i] = true
	return nil
}

func (s *isolation) thaw(i int) error {
	if s.f == nil || s.groups[i] == nil || !s.frozen[i] {
		return nil
	}
	if err := s.groups[i].Thaw(); err != nil {
		return fmt.Errorf("thawing the target's processes: %w", err)
	}
	s.frozen[i] = false
	return nil
}

// alone runs f with target i thawed and every other target frozen, and freezes i
// again after it, whatever f returned. An error of the freezer's is returned
// (joined to f's) so that the slice is not trusted.
func (s *isolation) alone(i int, f func() error) error {
	for j := range s.groups {
		if j != i {
			if err := s.freeze(j); err != nil {
				return err
			}
		}
	}
	if err := s.thaw(i); err != nil {
		return err
	}
	err := f()
	return errors.Join(err, s.freeze(i))
}

// release thaws target i and lets its processes go, before they are stopped (a
// process frozen by cgroup v1 takes no signal, and a frozen worker cannot quit).
func (s *isolation) release(i int) error {
	if s.f == nil || s.groups[i] == nil {
		return nil
	}
	err := s.groups[i].Close()
	s.groups[i], s.frozen[i] = nil, false
	return err
}

// close releases every target and removes what the freezer made.
func (s *isolation) close() error {
	if s.f == nil {
		return nil
	}
	var err error
	for i := range s.groups {
		err = errors.Join(err, s.release(i))
	}
	return errors.Join(err, s.f.Close())
}
