package suite_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/suite"
)

// Targets of one protocol that differ only by options are told apart by their labels,
// which go into names (after the protocol) but not into groups, so they compare in one
// table; views are kept in file order.
func TestLabelsAndViews(t *testing.T) {
	s := mustParse(t, `
		|views: [grpc-params-table, jmh-per-protocol]
		|targets:
		|  - protocol: grpc-proto
		|    label: default
		|  - protocol: grpc-proto
		|    label: win-64KiB
		|    options: {initial_window_size: 64KiB}
		|workloads: [person.get]`)
	want := []string{"grpc-proto[default]/tcp/person.get/closed-c50", "grpc-proto[win-64KiB]/tcp/person.get/closed-c50"}
	if got := names(s); !reflect.DeepEqual(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	for _, b := range s.Benchmarks {
		if b.Spec.Group() != "person.get/closed-c50" {
			t.Errorf("%s: group %q", b.Name, b.Spec.Group())
		}
	}
	if s.Benchmarks[1].Spec.Label != "win-64KiB" {
		t.Errorf("label %q not in the Spec", s.Benchmarks[1].Spec.Label)
	}
	if want := []string{results.ViewGRPCParamsTable, results.ViewJMHPerProtocol}; !reflect.DeepEqual(s.Views, want) {
		t.Errorf("views %q, want %q", s.Views, want)
	}
}

func TestLabelAndViewErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`
		|views: [jmh, akka-latency, akka-latency]
		|targets: [direct]
		|workloads: [person.get]`, `t.yaml:1:9: views: unknown view "jmh" (known: jmh-per-protocol, rpcecho-lines, akka-latency, grpc-params-table, matrix)
t.yaml:1:28: views: "akka-latency" listed twice`},
		{`
		|targets:
		|  - protocol: grpc-proto
		|    label: "win 64"
		|workloads: [person.get]`, `t.yaml:3:12: label: "win 64", want letters, digits, '.', '_' and '-' (e.g. win-64KiB), at most 40`},
	} {
		_, err := suite.Parse("t.yaml", []byte(doc(c.text)))
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}

// --rate-scale multiplies open-model rates only, renames them, and rounds away float
// noise (14000 × 0.1 is 1400); a factor ≤ 0 is refused.
func TestScaleRates(t *testing.T) {
	text := `
		|targets: [grpc-proto]
		|workloads:
		|  - name: person.get
		|    load: {rates: [14000, 2000], concurrency: 100}
		|  - name: echo`
	s := mustParse(t, text)
	if err := s.ScaleRates(0.1); err != nil {
		t.Fatal(err)
	}
	want := []string{"grpc-proto/tcp/person.get/open-r1400-constant-c100", "grpc-proto/tcp/person.get/open-r200-constant-c100", "grpc-proto/tcp/echo[payload=11]/closed-c50"}
	if got := names(s); !reflect.DeepEqual(got, want) {
		t.Errorf("scaled: %q, want %q", got, want)
	}
	for _, f := range []float64{0, -1} {
		if err := mustParse(t, text).ScaleRates(f); err == nil || !strings.Contains(err.Error(), "> 0") {
			t.Errorf("ScaleRates(%v) = %v", f, err)
		}
	}
}
