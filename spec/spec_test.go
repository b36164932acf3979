package spec

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/spec/load"
)

func TestName(t *testing.T) {
	s := Default()
	s.Protocol, s.Workload, s.Params = "grpc-proto", "echo", contract.Params{Payload: 1024, Trades: 5}
	s.Load = load.Model{Kind: load.Closed, Concurrency: 4, Connections: 1}
	// Only the parameters the workload uses are named.
	if got, want := s.Name(), "grpc-proto/tcp/echo[payload=1024]/closed-c4"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	s = Default()
	s.Protocol, s.Transport = "http-json", Unix
	s.Load = load.Model{Kind: load.Open, Rate: 14000, Arrival: load.Constant, Concurrency: 100, Connections: 2}
	if got, want := s.Name(), "http-json/unix/person.get/open-r14000-constant-c100-x2"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	// Non-default stacks and a label are tags of the series, in a fixed order.
	s.ServerStack, s.ClientStack, s.Label = "go-tuned-json", "instrument", "big"
	if got, want := s.Series(), "http-json[big,server=go-tuned-json,client=instrument]"; got != want {
		t.Errorf("Series = %q, want %q", got, want)
	}
	if got, want := s.Group(), "person.get/open-r14000-constant-c100-x2"; got != want {
		t.Errorf("Group = %q, want %q", got, want)
	}
}

func TestValidate(t *testing.T) {
	ok := Default()
	ok.Protocol = "grpc-proto"
	if err := ok.Validate(); err != nil {
		t.Fatalf("the defaults with a protocol: %v", err)
	}
	tests := []struct {
		setting string
		change  func(*Spec)
	}{
		{"protocol", func(s *Spec) { s.Protocol = "" }},
		{"workload", func(s *Spec) { s.Workload = "nope" }},
		{"params", func(s *Spec) { s.Workload, s.Params.Payload = "echo", -1 }},
		{"load", func(s *Spec) { s.Load.Concurrency = 0 }},
		{"transport", func(s *Spec) { s.Transport = "udp" }},
		{"rounds", func(s *Spec) { s.Rounds = 0 }},
		{"forks", func(s *Spec) { s.Forks = MaxForks + 1 }},
		{"duration", func(s *Spec) { s.SliceOps = 10 }}, // both a duration and ops
		{"duration", func(s *Spec) { s.SliceTime = 0 }}, // neither
		{"warmup", func(s *Spec) { s.Warmup = -time.Second }},
		{"warmup_max", func(s *Spec) { s.Warmup, s.WarmupMax = 10*time.Second, 5*time.Second }}, // shorter than the warmup
		{"warmup_max", func(s *Spec) { s.Warmup, s.WarmupMax = 0, WarmupSlice/2 }},              // less than one slice
		{"warmup_max", func(s *Spec) { s.WarmupMax = MaxTime + time.Second }},
		{"keep_alive", func(s *Spec) { s.KeepAlive = 500 * time.Millisecond }}, // shorter than a warm-up slice
		{"call_timeout", func(s *Spec) { s.CallTimeout = 25 * time.Hour }},
		{"mode", func(s *Spec) { s.Mode = "fast" }},
		{"method", func(s *Spec) { s.Method = "random" }},
		{"data_size", func(s *Spec) { s.DataSize = 0 }},
		{"max_message_size", func(s *Spec) { s.MaxMessageSize = 0 }},
		{"client_cpus", func(s *Spec) { s.ClientCPUs = []int{-1} }},
	}
	for _, tt := range tests {
		s := ok
		tt.change(&s)
		err := s.Validate()
		var se *Error
		if !errors.As(err, &se) || se.Setting != tt.setting || !strings.HasPrefix(err.Error(), tt.setting+": ") {
			t.Errorf("%s: error %v, want one naming %s", tt.setting, err, tt.setting)
		}
	}
}

func TestSamePlan(t *testing.T) {
	a := Default()
	a.Protocol = "grpc-proto"
	b := a
	b.Protocol, b.Transport, b.ServerStack, b.Label = "http-json", Unix, "x", "y"
	b.Warmup = 10 * time.Second // a JVM target's longer warmup
	if !SamePlan(a, b) {
		t.Error("targets that differ only in protocol, transport, stack, label and warmup are not one plan")
	}
	b.Rounds++
	if SamePlan(a, b) {
		t.Error("other rounds, same plan")
	}
	b = a
	b.ClientCPUs = []int{0}
	if SamePlan(a, b) {
		t.Error("other CPUs, same plan")
	}
}

// TestSettingsTable checks the table's entries against their fields: each setting's
// value in Default has the Go type its kind names, reads back what Set stores, and
// has bounds that admit its default.
func TestSettingsTable(t *testing.T) {
	types := map[Kind]reflect.Type{Duration: reflect.TypeFor[time.Duration](), Int: reflect.TypeFor[int64](),
		Uint: reflect.TypeFor[uint64](), Size: reflect.TypeFor[int64](), Enum: reflect.TypeFor[string](),
		CPUs: reflect.TypeFor[[]int](), Args: reflect.TypeFor[[]string](), Text: reflect.TypeFor[string]()}
	d := Default()
	seen := map[string]bool{}
	for _, st := range Settings {
		if seen[st.Key] {
			t.Errorf("setting %s listed twice", st.Key)
		}
		seen[st.Key] = true
		v := st.Get(d)
		if got := reflect.TypeOf(v); got != types[st.Kind] && v != nil {
			t.Errorf("%s: a %v setting whose value is a %v", st.Key, st.Kind, got)
		}
		if alt := LookupSetting(st.Alternative); st.Alternative != "" && (alt == nil || alt.Alternative != st.Key) {
			t.Errorf("%s: alternative %q does not name it back", st.Key, st.Alternative)
		}
		if st.Alternative == "" || !reflect.ValueOf(v).IsZero() {
			if msg := st.Check(v); msg != "" {
				t.Errorf("%s: the default %v fails its own check: %s", st.Key, v, msg)
			}
		}
		var s Spec
		st.Set(&s, v)
		if got := st.Get(s); !reflect.DeepEqual(got, v) && !(reflect.ValueOf(v).IsZero() && reflect.ValueOf(got).IsZero()) {
			t.Errorf("%s: Set %v, Get %v", st.Key, v, got)
		}
	}
}

// TestAlternatives: setting duration clears ops and the other way round; a zero
// value (the alternative not chosen) clears nothing.
func TestAlternatives(t *testing.T) {
	s := Default()
	LookupSetting("ops").Set(&s, int64(100))
	if s.SliceOps != 100 || s.SliceTime != 0 {
		t.Errorf("after ops: %v, %d ops", s.SliceTime, s.SliceOps)
	}
	LookupSetting("duration").Set(&s, time.Duration(0))
	if s.SliceOps != 100 {
		t.Errorf("a zero duration cleared ops")
	}
	LookupSetting("duration").Set(&s, 2*time.Second)
	if s.SliceOps != 0 || s.SliceTime != 2*time.Second {
		t.Errorf("after duration: %v, %d ops", s.SliceTime, s.SliceOps)
	}
}
