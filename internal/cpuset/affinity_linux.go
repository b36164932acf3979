//go:build linux

package cpuset

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// CPUs returns the number of CPUs in the affinity mask of pid
// (sched_getaffinity(2)); pid 0 means the calling thread. For a process this is
// the mask of its main thread, which is what taskset and wirebench's own
// pinning set for the whole process.
func CPUs(pid int) (int, error) {
	var set unix.CPUSet
	err := unix.SchedGetaffinity(pid, &set)
	if err == nil {
		return set.Count(), nil
	}
	if err != unix.EINVAL {
		return 0, fmt.Errorf("cpuset: affinity of pid %d: %w", pid, err)
	}
	// EINVAL: the kernel's mask is wider than CPUSet's 1024 bits.
	for n := 2048; n <= 1<<16; n *= 2 {
		dyn := unix.NewCPUSet(n)
		err = unix.SchedGetaffinityDynamic(pid, dyn)
		if err == nil {
			return dyn.Count(), nil
		}
		if err != unix.EINVAL {
			break
		}
	}
	return 0, fmt.Errorf("cpuset: affinity of pid %d: %w", pid, err)
}

// Affinity returns the CPUs in the affinity mask of the calling thread, in order
// (nil when it cannot be read, or is wider than 1024 CPUs).
func Affinity() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var out []int
	for c := range 1024 {
		if set.IsSet(c) {
			out = append(out, c)
		}
	}
	return out
}
