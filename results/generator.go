package results

import "time"

// The load generator, not the target, may set a result: it falls behind its schedule
// or runs out of CPU. One set of thresholds decides it, for a benchmark's summary
// (package summary, which warns and sets Benchmark.GeneratorBound) and for each step
// of a capacity search (package capacity, whose verdict is then VerdictGenerator).
const (
	// MaxLagP99 is the open model's lag p99 (start − intended) above which calls
	// started late.
	MaxLagP99 = time.Millisecond
	// MinAchieved is the share of the target rate below which an open run did not
	// keep its schedule.
	MinAchieved = 0.99
	// MaxClientCPU is the share of the client's CPUs above which it is saturated.
	MaxClientCPU = 0.90
)

// ClientCPUShare is the share of its CPUs the client used: cpu over cpus × seconds
// (0 when there is no time to share).
func ClientCPUShare(cpu time.Duration, cpus int, seconds float64) float64 {
	if seconds <= 0 {
		return 0
	}
	return cpu.Seconds() / (float64(max(cpus, 1)) * seconds)
}
