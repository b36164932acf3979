package sysstat

import "time"

// Sample is one reading of a process.
type Sample struct {
	// Time is when the reading was taken (wall clock, with Go's monotonic
	// reading, so Sub between samples is safe).
	Time time.Time
	// CPU is cumulative user+system CPU time of the whole process since it
	// started; per-interval figures are differences of two samples.
	CPU time.Duration
	// RSS is the resident set size now, in bytes (VmRSS).
	RSS int64
	// PeakRSS is the largest RSS the process has had, in bytes (VmHWM).
	PeakRSS int64
}

// CPUSource names where a Proc reads CPU time from, and how finely.
type CPUSource struct {
	// Name is "clock" (the process CPU clock) or "proc-stat" (/proc/PID/stat
	// utime+stime).
	Name string
	// Resolution is the smallest step CPU can change by: 1 ns for the clock
	// (or what clock_getres reports), 10 ms for /proc/PID/stat's USER_HZ ticks.
	Resolution time.Duration
}
