package worker

import (
	"os"
	"runtime"
	"runtime/debug"

	"runtime/metrics"
)

// minHeapGoal is the heap size the load generator lets the garbage collector wait
// for before a cycle (see paceGC).
const minHeapGoal = 128 << 20

// paceGC makes the load generator collect garbage rarely, and returns the function
// that undoes it. The collector starts a cycle when the heap has grown by GOGC % of
// what was live after the last one; a generator's live heap is a few MiB while it
// allocates on every call (grpc-go about 1.5 KiB), so at the default it collected
// every few milliseconds, about a fifth of the client's CPU on grpc-proto. paceGC
// raises GOGC so that the heap may reach minHeapGoal between cycles (at most 21 ×
// the live heap, never less than twice it, the default), and adjusts it at each
// phase end as the live heap changes. The cost is memory: a client worker's RSS is
// about 125 MiB instead of 33. A GOGC set in the environment is left alone.
func paceGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	runtime.GC() // before measuring: the live heap of the set-up generator, in a few ms
	old := debug.SetGCPercent(gcPercentFor(liveHeap()))
	return func() { debug.SetGCPercent(old) }
}

// repaceGC adjusts GOGC to the live heap, if paceGC set it.
func repaceGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercentFor(liveHeap()))
	}
}

func gcPercentFor(live uint64) int {
	if live == 0 {
		return 100
	}
	return int(min(max(minHeapGoal*100/live, 100), 2000))
}

// liveHeap is the heap marked live by the last cycle (0 when unknown).
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
