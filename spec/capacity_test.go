package spec

import (
	"math"
	"reflect"
	"testing"
	"time"
)

// TestCapacitySettingsTable: each capacity setting is listed once, its default (from
// DefaultCapacitySpec) has the Go type its kind names, passes its own check, is
// written as a user writes it, and reads back what Set stores.
func TestCapacitySettingsTable(t *testing.T) {
	types := map[Kind]reflect.Type{Duration: reflect.TypeFor[time.Duration](), Float: reflect.TypeFor[float64](),
		Bool: reflect.TypeFor[bool](), SLOs: reflect.TypeFor[[]SLO]()}
	// The defaults as `wirebench capacity --help` and docs/suites.md give them,
	// written out.
	want := map[string]string{"slo": "p99=10ms", "max_error_rate": "0", "budget": "2m0s", "step": "1s",
		"confirm": "5s", "resolution": "0.05", "start_rate": "1000", "sweep": "false"}
	d := DefaultCapacitySpec()
	seen := map[string]bool{}
	for _, st := range CapacitySettings {
		if seen[st.Key] || LookupSetting(st.Key) != nil {
			t.Errorf("capacity setting %s listed twice, or also a benchmark setting", st.Key)
		}
		seen[st.Key] = true
		v := st.Get(d)
		if got := reflect.TypeOf(v); got != types[st.Kind] {
			t.Errorf("%s: a %v setting whose value is a %v", st.Key, st.Kind, got)
		}
		if msg := st.Check(v); msg != "" {
			t.Errorf("%s: the default %v fails its own check: %s", st.Key, v, msg)
		}
		if got := st.Format(v); got != want[st.Key] {
			t.Errorf("%s: default written %q, want %q", st.Key, got, want[st.Key])
		}
		s := Spec{Capacity: &Capacity{}}
		st.Set(&s, v)
		if got := st.Get(s); !reflect.DeepEqual(got, v) {
			t.Errorf("%s: Set %v, Get %v", st.Key, v, got)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%d capacity settings, want %d", len(seen), len(want))
	}
	if d.Load.Concurrency != 1000 || d.Load.Rate != 1000 {
		t.Errorf("default capacity load %+v, want a cap of 1000 calls in flight from 1000 ops/s", d.Load)
	}
}

// Two objectives are written as the repeated flag reads them, comma-separated; a
// rate that is not finite is refused.
func TestCapacityFormatAndCheck(t *testing.T) {
	slo := CapacitySettings[0]
	v := []SLO{{Quantile: 99, Max: 10 * time.Millisecond}, {Quantile: 99.9, Max: 50 * time.Millisecond}}
	if got := slo.Format(v); got != "p99=10ms,p99.9=50ms" {
		t.Errorf("two objectives written %q", got)
	}
	var rate *Setting
	for _, st := range CapacitySettings {
		if st.Key == "start_rate" {
			rate = st
		}
	}
	if msg := rate.Check(math.Inf(1)); msg != "+Inf, want a finite number" {
		t.Errorf("an infinite rate: %q", msg)
	}
	if msg := rate.Check(2000.0); msg != "" {
		t.Errorf("2000 ops/s refused: %q", msg)
	}
}
