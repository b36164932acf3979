//go:build linux

package host

import (
	"os"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

func TestReadHost(t *testing.T) {
	h := ReadHost()
	t.Logf("%+v", h)
	if h.Cores < 1 || h.MemoryBytes < 64<<20 || h.Kernel == "" || h.OS == "" {
		t.Errorf("ReadHost() = %+v: missing fields", h)
	}
	var u unix.Utsname
	if err := unix.Uname(&u); err == nil {
		if rel := unix.ByteSliceToString(u.Release[:]); rel != h.Kernel {
			t.Errorf("Kernel = %q, uname -r = %q", h.Kernel, rel)
		}
	}
	if _, err := os.Stat("/proc/cpuinfo"); err == nil && h.CPUModel == "" && runtime.GOARCH == "amd64" {
		t.Error("no CPU model on amd64, where /proc/cpuinfo always has one")
	}
}
