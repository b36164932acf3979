package driver

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/direct"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
)

// The reference workload (results.ReferenceWorkload) is fixed, so that its speed
// moves with the machine only: its data set is the defaults' (contract.DefaultSeed,
// contract.DefaultSize), its ids taken in turn from the first at every measurement.
const (
	// referenceSlices is how many slices the measured part is cut into; the speed is
	// their median, so one slice a neighbour's burst slowed does not set it.
	referenceSlices = 5
	// referenceChunk is how many ops run between two looks at the clock (about 50 µs
	// of person.get over direct on the 2-vCPU machine kind).
	referenceChunk = 256
)

// ReferenceWhyNot says why the reference cannot be measured where hosts put the
// server ("" when it can): it runs in the driver's process, which is on the server's
// host only when the server worker is spawned here.
func ReferenceWhyNot(hosts spec.Hosts) string {
	if hosts.Server != "" {
		return fmt.Sprintf("the server worker is remote (%s), and the reference runs where the driver does", hosts.Server)
	}
	return ""
}

// MeasureReference measures the machine's own speed: the in-process direct stack's
// person.get loop (results.ReferenceWorkload) for d, on one goroutine locked to a
// thread pinned to cpus (none: not pinned), as a spawned worker is pinned to its
// CPUs, after a garbage collection of this process. The first fifth of d warms up;
// the rest is cut into referenceSlices slices and the speed is their median ops/s.
// It stops early, with ctx's error, when ctx ends.
func MeasureReference(ctx context.Context, d time.Duration, cpus []int) (*results.ReferenceSample, error) {
	ds, err := contract.NewDataset(contract.DefaultSeed, contract.DefaultSize)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	st, err := protocol.LookupStack(direct.Name, direct.StackName, protocol.ClientSide)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	client, err := st.NewClient(ctx, protocol.ClientConfig{Local: contract.NewReference(ds)})
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	defer client.Close()
	w, err := contract.LookupWorkload("person.get")
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	op, err := w.New(w.DefaultParams(), ds)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	type outcome struct {
		opsS float64
		err  error
	}
	// A collection first: after a batch the driver holds its garbage (every slice's
	// histograms), and a collection during the loop would take its CPU.
	runtime.GC()
	done := make(chan outcome, 1)
	start := time.Now()
	go func() {
		runtime.LockOSThread()
		// Never unlocked: the thread's affinity was changed, so it ends with this
		// goroutine instead of going back to the scheduler.
		if err := pinThread(cpus); err != nil {
			done <- outcome{err: err}
			return
		}
		opsS, err := referenceLoop(ctx, op, client, d)
		done <- outcome{opsS, err}
	}()
	o := <-done
	if o.err != nil {
		return nil, fmt.Errorf("reference: %w", o.err)
	}
	return &results.ReferenceSample{At: start.UTC(), OpsS: o.opsS, Seconds: time.Since(start).Seconds(),
		CPUs: cpuset.FormatCPUList(cpus), Workload: results.ReferenceWorkload}, nil
}

// pinThread pins the calling thread to cpus (none: it is left as it is).
func pinThread(cpus []int) error {
	if len(cpus) == 0 {
		return nil
	}
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pinning to CPUs %v: %w", cpus, err)
	}
	return nil
}

// referenceLoop runs op over svc for d: a fifth to warm up, then referenceSlices
// slices, and returns their median ops/s. Every measurement runs the same ops in the
// same order (seq from 0).
func referenceLoop(ctx context.Context, op contract.Op, svc contract.Service, d time.Duration) (float64, error) {
	var seq uint64
	run := func(span time.Duration) (float64, error) {
		start := time.Now()
		for n := referenceChunk; ; n += referenceChunk {
			if err := referenceOps(ctx, op, svc, &seq); err != nil {
				return 0, err
			}
			if el := time.Since(start); el >= span {
				return float64(n) / el.Seconds(), nil
			}
		}
	}
	if _, err := run(d / 5); err != nil {
		return 0, err
	}
	speeds := make([]float64, referenceSlices)
	for i := range speeds {
		v, err := run((d - d/5) / referenceSlices)
		if err != nil {
			return 0, err
		}
		speeds[i] = v
	}
	slices.Sort(speeds)
	return speeds[len(speeds)/2], nil
}

// referenceOps runs referenceChunk ops, numbered on from *seq.
func referenceOps(ctx context.Context, op contract.Op, svc contract.Service, seq *uint64) error {
	for range referenceChunk {
		if err := op(ctx, svc, *seq); err != nil {
			return err
		}
		*seq++
	}
	return nil
}
