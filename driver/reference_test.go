package driver

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
)

// The reference runs the real direct stack's person.get for its length on the CPUs
// it is given, and says so; a context that ends stops it with the context's error.
func TestMeasureReference(t *testing.T) {
	var cpus []int
	if runtime.NumCPU() >= 2 {
		cpus = []int{0}
	}
	s, err := MeasureReference(context.Background(), 100*time.Millisecond, cpus)
	if err != nil {
		t.Fatal(err)
	}
	// Person.get over a method call takes well under 100 µs anywhere: over 10 000 ops/s.
	if s.OpsS < 1e4 || s.Seconds < 0.1 || s.Seconds > 5 || s.Workload != results.ReferenceWorkload || s.At.IsZero() {
		t.Errorf("reference %+v", s)
	}
	if len(cpus) > 0 && s.CPUs != "0" {
		t.Errorf("reference on CPUs %q, want 0", s.CPUs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := MeasureReference(ctx, time.Second, nil); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("cancelled reference: %v, want the context's error", err)
	}
}

func TestReferenceWhyNot(t *testing.T) {
	if why := ReferenceWhyNot(spec.Hosts{}); why != "" {
		t.Errorf("local workers: %q, want none", why)
	}
	if why := ReferenceWhyNot(spec.Hosts{Server: "tcp://10.0.0.2:7000"}); !strings.Contains(why, "remote (tcp://10.0.0.2:7000)") {
		t.Errorf("remote server: %q", why)
	}
}
