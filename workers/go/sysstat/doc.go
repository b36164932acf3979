// Package sysstat reads what a benchmark costs a process, CPU time and
// memory. The host's description is package internal/host's, CPU lists and
// affinity internal/cpuset's.
//
// # CPU time
//
// [Proc.Read] reports CPU as the process's cumulative on-CPU time, user plus
// system, summed over all its threads including threads that have exited. On
// Linux it reads the process CPU clock (clock_gettime on the clock id that
// clock_getcpuclockid(3) gives for the pid: CPUCLOCK_SCHED of the thread
// group), which the scheduler keeps in nanoseconds (its sum_exec_runtime);
// the clock needs no permission for any pid in our PID namespace. That is the
// most accurate whole-process figure Linux offers, so per-op CPU over short
// slices does not suffer from tick rounding. The alternatives are worse:
//
//   - /proc/PID/stat utime+stime (what procfs's ProcStat.CPUTime uses) is in
//     USER_HZ ticks, 10 ms resolution: fine over many seconds, ±1 % over one
//     second.
//   - /proc/PID/schedstat is in nanoseconds but covers only the thread-group
//     leader (the main thread), not the Go runtime's other threads: a test that
//     burned four goroutines for 400 ms saw 411 ms there against 839 ms from the
//     process clock and from the sum of /proc/PID/task/*/schedstat.
//
// If the clock cannot be read when a Proc is opened (a kernel or sandbox that
// refuses it), Proc falls back to /proc/PID/stat ticks; [Proc.CPUSource] says
// which source is in use and its resolution, so results can state it.
//
// # Memory
//
// RSS and PeakRSS come from /proc/PID/status (VmRSS and VmHWM). The kernel keeps
// these counters per CPU and folds them in lazily, so they can be off by a few
// hundred KiB in a busy multi-threaded process: good for "MiB held", not for
// bytes per op.
package sysstat
