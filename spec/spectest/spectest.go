// Package spectest generates benchmark settings for property tests (testing/quick):
// values of every setting of spec.Settings drawn over their whole bounds, so that a
// round trip through a suite file or a control message is tried on values no
// hand-written case thought of. Only tests import it.
package spectest

import (
	"fmt"
	"math"
	"math/rand"
	"time"

	"github.com/wirebench/wirebench/spec"
)

// Settings draws a value of every setting of spec.Settings into s, satisfying the
// rules between settings that Validate checks: exactly one of the alternatives
// duration and ops, warmup_max 0 or from max(warmup, one slice), and keep_alive 0 or
// from one slice.
func Settings(r *rand.Rand, s *spec.Spec) {
	for _, st := range spec.Settings {
		st.Set(s, Value(r, st))
	}
	// One of the two ways a slice ends, the other cleared.
	alt := []string{"duration", "ops"}[r.Intn(2)]
	st := spec.LookupSetting(alt)
	st.Set(s, Value(r, st))
	if s.WarmupMax != 0 && s.WarmupMax < max(s.Warmup, spec.WarmupSlice) {
		lo := max(s.Warmup, spec.WarmupSlice)
		s.WarmupMax = lo + time.Duration(r.Int63n(int64(spec.MaxTime-lo)+1))
		if r.Intn(2) == 0 {
			s.WarmupMax = 0
		}
	}
	if s.KeepAlive != 0 && s.KeepAlive < spec.WarmupSlice {
		s.KeepAlive = spec.WarmupSlice + time.Duration(r.Int63n(int64(spec.MaxTime-spec.WarmupSlice)+1))
		if r.Intn(2) == 0 {
			s.KeepAlive = 0
		}
	}
}

// Value draws a valid value of st: half the time near its lower bound, where the
// defaults and most users' values are, half over its whole range.
func Value(r *rand.Rand, st *spec.Setting) spec.Value {
	between := func(lo, hi int64) int64 {
		if r.Intn(2) == 0 {
			hi = min(hi, lo+1000)
		}
		return lo + r.Int63n(hi-lo+1)
	}
	switch st.Kind {
	case spec.Duration:
		return time.Duration(between(st.Min, st.Max))
	case spec.Int, spec.Size:
		return between(st.Min, st.Max)
	case spec.Uint:
		if r.Intn(4) == 0 {
			return uint64(math.MaxUint64) - uint64(r.Intn(3))
		}
		return r.Uint64()
	case spec.Enum:
		return st.Choices[r.Intn(len(st.Choices))].Value
	case spec.CPUs:
		var cpus []int
		for c := range 64 {
			if r.Intn(8) == 0 {
				cpus = append(cpus, c)
			}
		}
		return cpus // sorted, no duplicates, nil for none: as a CPU list reads back
	case spec.Text:
		return []string{"", "a.proto", "pkg.Msg", "dir/with space/x.jsonl"}[r.Intn(4)]
	case spec.Args:
		var args []string
		for range r.Intn(4) {
			opts := []string{"-Xmx%dm", "-Xss%dk", "-XX:ActiveProcessorCount=%d", "-Dwirebench.n=%d"}
			args = append(args, fmt.Sprintf(opts[r.Intn(len(opts))], 1+r.Intn(4096)))
		}
		return args // nil for none: as an empty list reads back
	}
	panic("spectest: setting " + st.Key + " has no kind")
}
