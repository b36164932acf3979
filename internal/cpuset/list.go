// Package cpuset reads and writes Linux CPU lists ("0-2,5", as taskset -c and
// cpuset.cpus take them) and counts the CPUs a process may run on. Its
// functions keep no state and are safe for concurrent use.
package cpuset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxCPU bounds CPU numbers accepted by ParseCPUList; Linux's NR_CPUS tops out
// at 8192, so anything larger is a typo rather than a machine.
const maxCPU = 8191

// ParseCPUList reads a Linux CPU list, the format of taskset -c, cpuset.cpus
// and /sys/devices/system/cpu/online: comma-separated CPU numbers and
// inclusive ranges such as "0", "1-3", "0,2,4-5". Surrounding white space (a
// sysfs file's newline) is ignored. It returns the CPUs sorted, without
// duplicates. An empty list is an error, since a process needs at least one CPU.
func ParseCPUList(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("cpu list is empty")
	}
	var cpus []int
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("cpu list %q: empty item between commas", s)
		}
		loS, hiS, isRange := strings.Cut(item, "-")
		lo, err := parseCPU(s, loS)
		if err != nil {
			return nil, err
		}
		hi := lo
		if isRange {
			if hi, err = parseCPU(s, hiS); err != nil {
				return nil, err
			}
			if hi < lo {
				return nil, fmt.Errorf("cpu list %q: range %q runs backwards", s, item)
			}
		}
		for c := lo; c <= hi; c++ {
			cpus = append(cpus, c)
		}
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), nil
}

func parseCPU(list, s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("cpu list %q: missing CPU number", list)
	}
	// Digits only: Atoi alone would also take "+3", which the kernel refuses.
	n, err := strconv.Atoi(s)
	if err != nil || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("cpu list %q: %q is not a CPU number", list, s)
	}
	if n > maxCPU {
		return 0, fmt.Errorf("cpu list %q: CPU %d is beyond the largest Linux supports (%d)", list, n, maxCPU)
	}
	return n, nil
}

// FormatCPUList writes CPUs in the canonical Linux list form, collapsing runs
// into ranges: {0,1,2,5} gives "0-2,5". The input need not be sorted; duplicates
// are dropped. It is the inverse of ParseCPUList for non-empty lists.
func FormatCPUList(cpus []int) string {
	cs := slices.Clone(cpus)
	slices.Sort(cs)
	cs = slices.Compact(cs)
	var b strings.Builder
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1] == cs[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cs[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(cs[j]))
		}
		i = j + 1
	}
	return b.String()
}
