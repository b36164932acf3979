package suite_test

import (
	"cmp"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec/load"
	"github.com/wirebench/wirebench/suite"
	"github.com/wirebench/wirebench/suite/originals"
)

// Every bundled suite that declares an original runs each of that original's findings
// (of its setup): both benchmarks a finding names are among the suite's, at the
// original's setup, one each. A finding no suite can reproduce would read "not run" in
// every report, and a renamed label would silently turn a finding into one.
func TestBundledOriginalsFindingsRun(t *testing.T) {
	declared := 0
	for _, name := range suite.Bundled() {
		s, err := suite.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Original == nil {
			continue
		}
		declared++
		if len(s.Deviations) == 0 {
			t.Errorf("suite %s declares original %s but no deviations", name, s.Original.Name)
		}
		o, err := originals.Load(s.Original.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range originals.Compare(o, s.Original.Setup, benches(t, s)) {
			if row.Of == nil || row.Over == nil {
				t.Errorf("suite %s, finding %s: %s", name, row.Finding.ID, row.Why)
			}
		}
	}
	if declared == 0 {
		t.Error("no bundled suite declares an original")
	}
}

// The Akka original set a closed loop's latency over an open loop's: the suite measures
// both protocols under both, so each finding is judged with both under the open loop at
// the original's 14000/s; run with --rate-scale, never at another rate against the
// original's 14000/s, but with both under the closed loop.
func TestAkkaFindingsFollowRateScale(t *testing.T) {
	for _, tc := range []struct {
		scale float64
		load  string
		rate  float64
	}{{1, "open", 14000}, {0.5, "closed", 0}} {
		s, err := suite.Load("akka-http-vs-grpc")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ScaleRates(tc.scale); err != nil {
			t.Fatal(err)
		}
		o, err := originals.Load(s.Original.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range originals.Compare(o, s.Original.Setup, benches(t, s)) {
			if row.Of == nil || row.Over == nil || row.Load != tc.load {
				t.Errorf("scale %v, finding %s: judged under %q, want %q (%s)", tc.scale, row.Finding.ID, row.Load, tc.load, row.Why)
				continue
			}
			for _, b := range []*originals.Bench{row.Of, row.Over} {
				if b.Load != tc.load || b.Rate != tc.rate {
					t.Errorf("scale %v, finding %s: judged on %s", tc.scale, row.Finding.ID, b.Name)
				}
			}
		}
	}
}

// benches is what originals.Compare reads of a suite's benchmarks before they run,
// with a score of 1 so each finding gets as far as a ratio.
func benches(t *testing.T, s *suite.Suite) []originals.Bench {
	var out []originals.Bench
	for _, b := range s.Benchmarks {
		sp := b.Spec
		p, err := protocol.Lookup(sp.Protocol)
		if err != nil {
			t.Fatal(err)
		}
		kind := "closed"
		if sp.Load.Kind == load.Open {
			kind = "open"
		}
		out = append(out, originals.Bench{Name: b.Name, Protocol: sp.Protocol, Transport: sp.Transport,
			ServerStack: cmp.Or(sp.ServerStack, p.DefaultServer), ClientStack: cmp.Or(sp.ClientStack, p.DefaultClient),
			Label: sp.Label, Workload: sp.Workload, Load: kind, Concurrency: int64(sp.Load.Concurrency),
			Connections: int64(sp.Load.Connections), Rate: sp.Load.Rate, Payload: int64(sp.Params.Payload),
			Increments: int64(sp.Params.Increments), Trades: sp.Params.Trades, Avgt: strings.EqualFold(sp.Mode, "avgt"),
			Score: 1, Latency: map[string]float64{"mean": 1, "p50": 1, "p75": 1, "p90": 1, "p99": 1, "p999": 1, "max": 1}})
	}
	return out
}
