// Package freeze stops and resumes sets of processes as one, so that while one
// target of an interleaved comparison group has its slice, the other targets'
// processes do not run at all: a JVM's JIT compiler, its garbage collector, a
// runtime's timers and idle threads then spend their CPU in their own target's
// slices, where it is counted, instead of in a neighbour's (docs/method.md,
// "Isolation").
//
// Three mechanisms, tried in order by Open:
//   - a cgroup v2 cgroup per group, frozen through cgroup.freeze (Linux 5.2 or
//     later; no controller needs to be enabled, so it also works in the unified
//     hierarchy of a hybrid layout);
//   - a cgroup v1 freezer cgroup (freezer.state);
//   - SIGSTOP and SIGCONT sent to every process of the group and to the processes
//     they started, where no cgroup can be made (not root, no cgroup mounted).
//
// Processes start in a group when Add is called; children they start afterwards
// join it by themselves with a cgroup (and are found again at each Freeze with
// signals).
package freeze

import (
	"errors"
	"fmt"
	"time"
)

// Method is how a Freezer stops its groups.
type Method string

// Methods, as results record them.
const (
	CgroupV2 Method = "cgroup2"
	CgroupV1 Method = "cgroup1-freezer"
	Signals  Method = "sigstop"
)

// Timeout bounds the wait for a group to be frozen: a process in an
// uninterruptible sleep (a disk wait) delays the freeze until it returns.
const Timeout = 5 * time.Second

// Group is a set of processes frozen and thawed together. Owned by one goroutine.
type Group interface {
	// Add puts the process pid (and every thread and child it starts from then on)
	// in the group. A process added to a frozen group is frozen with it.
	Add(pid int) error
	// Freeze stops every process of the group and returns once all are stopped
	// (or after Timeout, with an error).
	Freeze() error
	// Thaw resumes every process of the group.
	Thaw() error
	// Close thaws the group and lets its processes go (they keep running, outside
	// any group of this package); a group of a cgroup is removed.
	Close() error
}

// Freezer makes groups by one Method. Safe for concurrent use.
type Freezer interface {
	Method() Method
	// NewGroup makes an empty group; name tells groups apart (in a cgroup's path),
	// and must be unique among the Freezer's open groups.
	NewGroup(name string) (Group, error)
	// Close removes what the Freezer made (its parent cgroup); its groups must be
	// closed first.
	Close() error
}

// ErrUnavailable is returned by Open where no mechanism can be used.
var ErrUnavailable = errors.New("freeze: no way to stop processes here")

// Open returns a Freezer of the first mechanism that works here, its cgroups (if
// any) under a cgroup named prefix-PID (PID: this process's). Where no cgroup can
// be made, the error of each attempt is kept in the returned Freezer's reasons
// (Reasons), and it uses signals.
func Open(prefix string) (Freezer, error) {
	return open(prefix)
}

// Reasons returns why a Freezer does not use a better mechanism than its own: one
// line per mechanism it tried and could not use (none for a cgroup v2 one).
func Reasons(f Freezer) []string {
	if r, ok := f.(interface{ reasons() []string }); ok {
		return r.reasons()
	}
	return nil
}

func waitUntil(what string, done func() (bool, error)) error {
	deadline := time.Now().Add(Timeout)
	pause := 50 * time.Microsecond
	for {
		ok, err := done()
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("freeze: %s not done within %v", what, Timeout)
		}
		time.Sleep(pause)
		pause = min(2*pause, 5*time.Millisecond)
	}
}
