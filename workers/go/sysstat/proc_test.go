//go:build linux

package sysstat

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// burnCPU spins in n goroutines until the process has used at least d more CPU
// time by getrusage, or until a wall-clock limit passes (a loaded machine may
// give us little CPU, so callers compare with what getrusage says was used, not
// with d). Each goroutine stops within one inner loop (about 0.1 ms of CPU)
// after burnCPU returns.
func burnCPU(n int, d time.Duration) {
	start := rusageCPU()
	deadline := time.Now().Add(10 * time.Second)
	done := make(chan struct{})
	for range n {
		go func() {
			x := 1
			for {
				select {
				case <-done:
					return
				default:
				}
				for i := range 100000 {
					x = x*31 + i
				}
				if x == 0 {
					runtime.Gosched() // keeps x alive
				}
			}
		}()
	}
	for rusageCPU()-start < d && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(done)
}

// rusageCPU is the process's user+system time by getrusage, an independent
// source to check the clock against (microsecond precision).
func rusageCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestSelfCPU(t *testing.T) {
	p, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	if src := p.CPUSource(); src.Name != "clock" || src.Resolution > time.Microsecond {
		t.Errorf("CPUSource() = %+v, want the nanosecond process clock on Linux", src)
	}
	before, err := p.Read()
	if err != nil {
		t.Fatal(err)
	}
	ru0 := rusageCPU()
	// Two goroutines, so a source that saw only the main thread would fall short.
	burnCPU(2, 200*time.Millisecond)
	ru1 := rusageCPU()
	after, err := p.Read()
	if err != nil {
		t.Fatal(err)
	}
	got := after.CPU - before.CPU
	want := ru1 - ru0
	t.Logf("clock delta %v, getrusage delta %v, wall %v", got, want, after.Time.Sub(before.Time))
	// getrusage was read inside the clock's window, so the clock may exceed it
	// by what ran between the reads (the burners' last inner loops), never fall
	// short beyond µs rounding. That holds however little CPU a busy machine
	// gave the burners; a source that saw only the main thread falls short by
	// whatever the other threads ran.
	if got < want-time.Millisecond || got > want+50*time.Millisecond {
		t.Errorf("process clock grew %v while getrusage grew %v", got, want)
	}
	if wall := after.Time.Sub(before.Time); got > time.Duration(runtime.NumCPU())*wall+10*time.Millisecond {
		t.Errorf("CPU %v exceeds %d CPUs × wall %v", got, runtime.NumCPU(), wall)
	}
}

func TestSelfRSS(t *testing.T) {
	p, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	before, err := p.Read()
	if err != nil {
		t.Fatal(err)
	}
	// Map the memory directly: a Go slice could reuse heap pages that an
	// earlier test (or -count run) left resident, and grow RSS by nothing.
	const size = 64 << 20
	buf, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(buf)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1 // touch every page so it becomes resident
	}
	after, err := p.Read()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("RSS %d → %d MiB, peak %d MiB", before.RSS>>20, after.RSS>>20, after.PeakRSS>>20)
	// Allow 16 MiB of slack for the kernel's lazily folded per-CPU counters
	// and anything the runtime returned meanwhile.
	if grew := after.RSS - before.RSS; grew < size-16<<20 {
		t.Errorf("RSS grew %d bytes after touching %d", grew, size)
	}
	if after.PeakRSS < after.RSS-1<<20 || after.PeakRSS < before.PeakRSS {
		t.Errorf("PeakRSS %d below RSS %d or earlier peak %d", after.PeakRSS, after.RSS, before.PeakRSS)
	}
}

// TestHelperBurn is not a test: the test binary re-runs itself with this test
// selected to get a multi-threaded child process to measure from outside.
func TestHelperBurn(t *testing.T) {
	if os.Getenv("SYSSTAT_HELPER_BURN") != "1" {
		t.Skip("helper process only")
	}
	burnCPU(3, 300*time.Millisecond)
	// Tells the parent the CPU is spent, and how much by getrusage.
	fmt.Printf("burned %d\n", rusageCPU())
	time.Sleep(30 * time.Second) // the parent kills us; this bounds an orphan's life
}

func TestOpenChild(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperBurn$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SYSSTAT_HELPER_BURN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	p, err := Open(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if p.CPUSource().Name != "clock" {
		t.Errorf("CPUSource() = %+v, want the process clock for a child", p.CPUSource())
	}
	// The test binary may print other lines first; the helper's is "burned NS".
	var burned time.Duration
	for sc := bufio.NewScanner(out); burned == 0; {
		if !sc.Scan() {
			t.Fatalf("waiting for the helper: %v", sc.Err())
		}
		var ns int64
		if _, err := fmt.Sscanf(sc.Text(), "burned %d", &ns); err == nil {
			burned = time.Duration(ns)
		}
	}
	s, err := p.Read()
	if err != nil {
		t.Fatal(err)
	}
	ticks, err := p.statCPU()
	if err != nil {
		t.Fatal(err)
	}
	leader := leaderSchedstat(t, cmd.Process.Pid)
	t.Logf("child: clock %v, its own getrusage %v, /proc/stat %v, leader-only schedstat %v, RSS %d KiB",
		s.CPU, burned, ticks, leader, s.RSS>>10)
	// The child's getrusage, read before it printed, covers all its threads,
	// and after printing it only sleeps: the clock, read later from outside,
	// must match it, however much CPU a busy machine let the child burn.
	if s.CPU < burned-time.Millisecond || s.CPU > burned+50*time.Millisecond {
		t.Errorf("child's process clock %v, its own getrusage %v", s.CPU, burned)
	}
	// /proc/PID/stat counts every thread in 10 ms ticks (read after the clock),
	// so the clock must agree with it to within a couple of ticks.
	if d := s.CPU - ticks; d < -30*time.Millisecond || d > 30*time.Millisecond {
		t.Errorf("clock %v and /proc/PID/stat %v disagree", s.CPU, ticks)
	}
	if s.RSS <= 0 || s.PeakRSS < s.RSS {
		t.Errorf("RSS %d, PeakRSS %d", s.RSS, s.PeakRSS)
	}

	// Once the child is gone, Read must say so rather than report zeros.
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if _, err := p.Read(); err == nil {
		t.Error("Read of an exited, reaped process succeeded")
	}
}

// leaderSchedstat is /proc/PID/schedstat's first field, which covers the main
// thread only; logged to show why it is not the CPU source.
func leaderSchedstat(t *testing.T, pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid))
	if err != nil {
		return -1
	}
	var ns int64
	if _, err := fmt.Sscan(string(b), &ns); err != nil {
		t.Logf("schedstat %q: %v", b, err)
	}
	return time.Duration(ns)
}

func TestStatFallback(t *testing.T) {
	p, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	// Force the /proc/PID/stat path, as when the clock is refused.
	fb := *p
	fb.src = CPUSource{Name: "proc-stat", Resolution: 10 * time.Millisecond}
	burnCPU(1, 50*time.Millisecond)
	a, err := fb.Read()
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Read()
	if err != nil {
		t.Fatal(err)
	}
	if a.CPU%(10*time.Millisecond) != 0 {
		t.Errorf("stat CPU %v is not whole 10 ms ticks", a.CPU)
	}
	if d := b.CPU - a.CPU; d < -20*time.Millisecond || d > 30*time.Millisecond {
		t.Errorf("stat CPU %v, clock CPU %v: more than a tick or two apart", a.CPU, b.CPU)
	}
}

func TestOpenBadPID(t *testing.T) {
	if _, err := Open(0); err == nil {
		t.Error("Open(0) succeeded")
	}
	// PIDs above pid_max (at most 2^22) never exist.
	if _, err := Open(1<<22 + 1); err == nil {
		t.Error("Open of a nonexistent pid succeeded")
	}
}
