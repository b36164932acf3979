//go:build linux

package cpuset

import (
	"os"
	"runtime"
	"testing"
)

func TestCPUs(t *testing.T) {
	n, err := CPUs(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		t.Fatal(err)
	}
	online, err := ParseCPUList(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if n < 1 || n > len(online) {
		t.Errorf("CPUs = %d, want 1..%d (the host's online CPUs)", n, len(online))
	}
	// The Go runtime sizes GOMAXPROCS from the same mask.
	if n != runtime.NumCPU() {
		t.Errorf("CPUs = %d, runtime.NumCPU = %d", n, runtime.NumCPU())
	}
	if _, err := CPUs(1<<22 + 1); err == nil {
		t.Error("CPUs of a nonexistent pid succeeded")
	}
}
