package main

import (
	"strings"
	"testing"
)

// TestTargets: each wirebench row is judged by its own targets: the default client
// against 0.2 × ghz, the instrument against 1.3 × h2load and 0.1 × ghz at 16 and 64
// in flight (none at 1), both against wrk on http-json; over h2c, against h2load with
// no target.
func TestTargets(t *testing.T) {
	row := func(proto, tool string, n int, cpu, rate, server float64) *result {
		return &result{protocol: proto, tool: tool, inflight: n, cpuUs: cpu, rate: rate, rateMin: rate, rateMax: rate, serverBusy: server}
	}
	rs := []*result{
		row("grpc-proto", "ghz", 16, 80, 10000, 0.3),
		row("grpc-proto", "h2load", 16, 4, 50000, 0.95),
		row("grpc-proto", "wirebench", 16, 15, 30000, 0.6),
		row("grpc-proto", instrumentTool, 16, 5.5, 49000, 0.95),
		row("grpc-proto", "ghz", 1, 140, 4000, 0.4),
		row("grpc-proto", "h2load", 1, 38, 8000, 0.6),
		row("grpc-proto", instrumentTool, 1, 36, 8400, 0.6),
		row("http-json", "wrk", 16, 6, 80000, 0.99),
		row("http-json", instrumentTool, 16, 6.3, 76000, 0.98),
		row(jsonH2c, "h2load", 16, 4, 60000, 0.97),
		row(jsonH2c, instrumentTool, 16, 5, 59000, 0.97),
	}
	got := targets(rs)
	for _, want := range []string{
		"- wirebench, grpc-proto, 16 in flight: CPU/req 0.19 × ghz's (target ≤ 0.2: met); rate 0.60 × the fastest peer's (h2load), server-bound at 95 %: NOT met.",
		"- wirebench-instrument, grpc-proto, 16 in flight: CPU/req 1.38 × h2load's (target ≤ 1.3: NOT met); CPU/req 0.07 × ghz's (target ≤ 0.1: met); rate 0.98 × the fastest peer's (h2load), server-bound at 95 %: met.",
		"- wirebench-instrument, grpc-proto, 1 in flight: CPU/req 0.95 × h2load's (no target at 1 in flight); CPU/req 0.26 × ghz's (no target at 1 in flight); rate 1.05 × the fastest peer's (h2load), server 60 % busy: not server-bound.",
		"- wirebench-instrument, http-json, 16 in flight: CPU/req 1.05 × wrk's (target ≤ 1: NOT met); rate 0.95 × the fastest peer's (wrk), server-bound at 99 %: NOT met.",
		"- wirebench-instrument, http-json-h2c, 16 in flight: CPU/req 1.25 × h2load's (no target set); rate 0.98 × the fastest peer's (h2load), server-bound at 97 %: met.",
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("targets lack\n%s\ngot\n%s", want, got)
		}
	}
}
