package results

import "testing"

// A benchmark's series and group are its recorded fields whatever its name says; a
// file written before they existed has them read back from the name spec built
// ("series/transport/group"); failing that, rebuilt from the fields.
func TestIdentity(t *testing.T) {
	recorded := Benchmark{Name: "renamed by hand", Protocol: "http-json", Transport: "tcp",
		Series: "http-json[server=go-tuned-json]", Group: "echo[payload=11]/closed-c8"}
	legacy := Benchmark{Name: "http-json[server=go-tuned-json]/tcp/echo[payload=11]/closed-c8", Protocol: "http-json", Transport: "tcp"}
	other := Benchmark{Name: "x", Protocol: "grpc-proto", Transport: "unix", Label: "win", Workload: "echo",
		Params: map[string]any{"payload": float64(11)}, Load: Load{Model: ModelClosed, Concurrency: 8}}
	for _, c := range []struct {
		b             Benchmark
		series, group string
	}{
		{recorded, "http-json[server=go-tuned-json]", "echo[payload=11]/closed-c8"},
		{legacy, "http-json[server=go-tuned-json]", "echo[payload=11]/closed-c8"},
		{other, "grpc-proto[win]", "echo[payload=11]/closed-c8"},
	} {
		if got := SeriesOf(&c.b); got != c.series {
			t.Errorf("%s: series %q, want %q", c.b.Name, got, c.series)
		}
		if got := GroupOf(&c.b); got != c.group {
			t.Errorf("%s: group %q, want %q", c.b.Name, got, c.group)
		}
	}
	// All three share a group key, so they compare in one group, in their order.
	gs := Groups([]Benchmark{recorded, legacy, other})
	if len(gs) != 1 || gs[0].Name != "echo[payload=11]/closed-c8" || len(gs[0].Benchmarks) != 3 {
		t.Fatalf("groups %+v, want one of 3", gs)
	}
	if got := SeriesLabel(&other); got != "grpc-proto[win]/unix" {
		t.Errorf("label %q", got)
	}
}
