//go:build !linux

package cpuset

import (
	"errors"
	"fmt"
)

// CPUs returns the number of CPUs in pid's affinity mask; unsupported off Linux.
func CPUs(pid int) (int, error) {
	return 0, fmt.Errorf("cpuset: affinity of pid %d: %w", pid, errors.ErrUnsupported)
}

// Affinity returns nil off Linux: the affinity mask is unknown.
func Affinity() []int { return nil }
