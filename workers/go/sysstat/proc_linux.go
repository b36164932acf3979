//go:build linux

package sysstat

import (
	"fmt"
	"os"
	"time"

	"github.com/prometheus/procfs"
	"golang.org/x/sys/unix"
)

// userHZ is the unit of /proc/PID/stat's utime and stime. Linux fixes it at
// 100 on every architecture wirebench runs on, whatever CONFIG_HZ is.
const userHZ = 100

// Proc reads one process. It holds no mutable state, so it is safe for
// concurrent use.
type Proc struct {
	pid   int
	proc  procfs.Proc
	clock int32 // process CPU clock id; meaningful only when src.Name == "clock"
	src   CPUSource
}

// Self returns a Proc for the calling process.
func Self() (*Proc, error) {
	return open(os.Getpid(), unix.CLOCK_PROCESS_CPUTIME_ID)
}

// Open returns a Proc for the process pid, which must be a process (thread
// group leader) visible in /proc.
func Open(pid int) (*Proc, error) {
	if pid <= 0 {
		return nil, fmt.Errorf("sysstat: open pid %d: not a process id", pid)
	}
	return open(pid, processCPUClock(pid))
}

// processCPUClock is the clock id glibc's clock_getcpuclockid(pid) returns:
// the kernel's MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED), i.e. the pid's
// complement shifted past the 3 clock-type bits, type 2 (SCHED), per-thread
// bit clear (whole process).
func processCPUClock(pid int) int32 {
	const cpuClockSched = 2
	return int32(^pid)<<3 | cpuClockSched
}

func open(pid int, clock int32) (*Proc, error) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return nil, fmt.Errorf("sysstat: open pid %d: %w", pid, err)
	}
	pp, err := fs.Proc(pid)
	if err != nil {
		return nil, fmt.Errorf("sysstat: open pid %d: %w", pid, err)
	}
	p := &Proc{pid: pid, proc: pp, clock: clock}
	var ts, res unix.Timespec
	if unix.ClockGettime(clock, &ts) == nil {
		p.src = CPUSource{Name: "clock", Resolution: time.Nanosecond}
		if unix.ClockGetres(clock, &res) == nil && res.Nano() > 0 {
			p.src.Resolution = time.Duration(res.Nano())
		}
	} else {
		p.src = CPUSource{Name: "proc-stat", Resolution: time.Second / userHZ}
	}
	return p, nil
}

// PID returns the process id p reads.
func (p *Proc) PID() int { return p.pid }

// CPUSource says where Read takes CPU time from and its resolution.
func (p *Proc) CPUSource() CPUSource { return p.src }

// Read takes one Sample. It fails once the process has exited (and been
// reaped), so a reader that needs a final figure should read before it waits.
func (p *Proc) Read() (Sample, error) {
	s := Sample{Time: time.Now()}
	cpu, err := p.cpu()
	if err != nil {
		return Sample{}, fmt.Errorf("sysstat: read pid %d cpu: %w", p.pid, err)
	}
	s.CPU = cpu
	st, err := p.proc.NewStatus()
	if err != nil {
		return Sample{}, fmt.Errorf("sysstat: read pid %d status: %w", p.pid, err)
	}
	s.RSS, s.PeakRSS = int64(st.VmRSS), int64(st.VmHWM)
	return s, nil
}

func (p *Proc) cpu() (time.Duration, error) {
	if p.src.Name == "clock" {
		var ts unix.Timespec
		if err := unix.ClockGettime(p.clock, &ts); err != nil {
			return 0, err
		}
		return time.Duration(ts.Nano()), nil
	}
	return p.statCPU()
}

// statCPU reads utime+stime from /proc/PID/stat, in 10 ms ticks.
func (p *Proc) statCPU() (time.Duration, error) {
	st, err := p.proc.Stat()
	if err != nil {
		return 0, err
	}
	return time.Duration(st.UTime+st.STime) * (time.Second / userHZ), nil
}
