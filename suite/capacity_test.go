package suite_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

// A load block with capacity makes capacity searches: the open model from the start
// rate, the objectives and limits as written, named after the objectives.
func TestCapacityLoad(t *testing.T) {
	s := mustParse(t, `
		|targets: [grpc-proto, http-json]
		|workloads: [person.get]
		|load:
		|  concurrency: 200
		|  capacity:
		|    slo: [p99=10ms, p99.9=50ms]
		|    budget: 30s
		|    step: 500ms
		|    start_rate: 2000`)
	if len(s.Benchmarks) != 2 {
		t.Fatalf("%d benchmarks, want 2", len(s.Benchmarks))
	}
	b := s.Benchmarks[0]
	c := b.Spec.Capacity
	if c == nil || b.Spec.Load.Kind != load.Open || b.Spec.Load.Rate != 2000 || b.Spec.Load.Concurrency != 200 {
		t.Fatalf("spec %+v", b.Spec)
	}
	if len(c.SLOs) != 2 || c.SLOs[1] != (spec.SLO{Quantile: 99.9, Max: 50 * time.Millisecond}) || c.Budget != 30*time.Second ||
		c.Step != 500*time.Millisecond || c.Confirm != spec.DefaultCapacityConfirm || c.Resolution != spec.DefaultCapacityResolution {
		t.Errorf("capacity %+v", c)
	}
	if want := "grpc-proto/tcp/person.get/capacity-p99=10ms-p99.9=50ms-c200"; b.Name != want {
		t.Errorf("name %q, want %q", b.Name, want)
	}
	if got := b.Estimate(); got != b.Spec.Warmup+30*time.Second+500*time.Millisecond {
		t.Errorf("estimate %v", got)
	}
	if c.Sweep {
		t.Error("a capacity block without sweep sweeps")
	}
	// Every other key of the block, and sweep.
	s = mustParse(t, `
		|targets: [grpc-proto]
		|workloads: [person.get]
		|load: {capacity: {slo: p50=2ms, max_error_rate: 0.01, confirm: 0s, resolution: 0.1, sweep: true}}`)
	want := spec.Capacity{SLOs: []spec.SLO{{Quantile: 50, Max: 2 * time.Millisecond}}, MaxErrorRate: 0.01, Budget: 2 * time.Minute,
		Step: time.Second, Confirm: 0, Resolution: 0.1, Sweep: true}
	if got := s.Benchmarks[0].Spec.Capacity; !reflect.DeepEqual(*got, want) {
		t.Errorf("capacity %+v, want %+v", *got, want)
	}
	// Without concurrency, the open model's default cap.
	s = mustParse(t, `
		|targets: [grpc-proto]
		|workloads: [person.get]
		|load: {capacity: {slo: p99=5ms}}`)
	if got := s.Benchmarks[0].Spec.Load; got.Concurrency != load.DefaultMaxInFlight || got.Rate != spec.DefaultCapacityStart {
		t.Errorf("default load %+v", got)
	}
}
