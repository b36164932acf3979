package spec

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/load"
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
		{"iterations", func(s *Spec) { s.Iterations = 0 }},
		{"trials", func(s *Spec) { s.Trials = MaxTrials + 1 }},
		{"duration", func(s *Spec) { s.IterationOps = 10 }}, // both a duration and ops
		{"duration", func(s *Spec) { s.IterationTime = 0 }}, // neither
		{"warmup", func(s *Spec) { s.Warmup = -time.Second }},
		{"warmup_max", func(s *Spec) { s.Warmup, s.WarmupMax = 10*time.Second, 5*time.Second }}, // shorter than the warmup
		{"warmup_max", func(s *Spec) { s.Warmup, s.WarmupMax = 0, WarmupSlice/2 }},              // less than one slice
		{"warmup_max", func(s *Spec) { s.WarmupMax = MaxTime + time.Second }},
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
	b.Iterations++
	if SamePlan(a, b) {
		t.Error("other iterations, same plan")
	}
	b = a
	b.ClientCPUs = []int{0}
	if SamePlan(a, b) {
		t.Error("other CPUs, same plan")
	}
}
