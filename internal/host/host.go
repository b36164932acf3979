// Package host describes the machine a run's results came from: CPU model,
// online CPUs, memory, kernel and OS. It reads /proc, /sys and /etc/os-release
// and keeps no state.
package host

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/internal/cpuset"
)

// Host describes the machine for results.
type Host struct {
	// CPUModel is the first "model name" of /proc/cpuinfo, e.g.
	// "AMD EPYC 7B13"; empty when the kernel does not say (some ARM boards).
	CPUModel string
	// Cores is the number of logical CPUs online on the machine, which may be
	// more than this process may use (see cpuset.CPUs).
	Cores int
	// MemoryBytes is MemTotal from /proc/meminfo.
	MemoryBytes int64
	// Kernel is the kernel release, uname -r.
	Kernel string
	// OS is GOOS/GOARCH, followed by the distribution's PRETTY_NAME from
	// /etc/os-release when there is one: "linux/amd64 (Debian GNU/Linux 13 (trixie))".
	OS string
}

// ReadHost describes the machine. It never fails: a field it cannot read is
// left empty (or falls back to what the Go runtime knows), because a results
// file with a blank CPU model is still worth writing.
func ReadHost() Host {
	h := Host{
		CPUModel:    cpuModel(),
		Cores:       onlineCPUs(),
		MemoryBytes: memTotal(),
		Kernel:      kernelRelease(),
		OS:          runtime.GOOS + "/" + runtime.GOARCH,
	}
	if d := distro(); d != "" {
		h.OS += " (" + d + ")"
	}
	return h
}

func cpuModel() string {
	v, _ := scanKeyValue("/proc/cpuinfo", "model name", ":")
	return v
}

// onlineCPUs counts the machine's online CPUs from sysfs; runtime.NumCPU
// would report this process's affinity mask instead, which pinning narrows.
func onlineCPUs() int {
	if b, err := os.ReadFile("/sys/devices/system/cpu/online"); err == nil {
		if cpus, err := cpuset.ParseCPUList(string(b)); err == nil {
			return len(cpus)
		}
	}
	return runtime.NumCPU()
}

func memTotal() int64 {
	v, ok := scanKeyValue("/proc/meminfo", "MemTotal", ":")
	if !ok {
		return 0
	}
	kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(v, "kB")), 10, 64)
	if err != nil {
		return 0
	}
	return kb * 1024
}

func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func distro() string {
	v, _ := scanKeyValue("/etc/os-release", "PRETTY_NAME", "=")
	return strings.Trim(v, `"'`)
}

// scanKeyValue returns the trimmed value of the first line of path whose key
// (the text before sep, trimmed) is key.
func scanKeyValue(path, key, sep string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), sep)
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}
