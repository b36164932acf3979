package main

import (
	"errors"
	"testing"
	"time"
)

func TestFold(t *testing.T) {
	run := func(rate, cpu, server float64, errs int64) *result {
		r := &result{protocol: "http-json", tool: "wrk", inflight: 16, rate: rate, requests: int64(rate) * 5,
			errors: errs, serverBusy: server}
		r.clientCPU = time.Duration(cpu * 1e3 * float64(r.requests)) // cpu µs per request
		r.finish()
		return r
	}
	failed := &result{protocol: "http-json", tool: "wrk", inflight: 16, err: errors.New("boom")}
	got := fold([]*result{run(60000, 10, 0.99, 1), failed, run(70000, 9, 0.97, 0), run(50000, 12, 0.95, 2)})
	if got.err != nil || got.repeats != 4 || got.failed != 1 {
		t.Fatalf("fold: err %v, %d repeats, %d failed; want no error, 4, 1", got.err, got.repeats, got.failed)
	}
	if got.rate != 60000 || got.rateMin != 50000 || got.rateMax != 70000 {
		t.Errorf("rate %v (%v–%v), want the median 60000 (50000–70000)", got.rate, got.rateMin, got.rateMax)
	}
	if got.cpuUs != 10 || got.cpuMin != 9 || got.cpuMax != 12 || got.serverBusy != 0.97 {
		t.Errorf("cpu %v (%v–%v), server %v; want 10 (9–12), 0.97", got.cpuUs, got.cpuMin, got.cpuMax, got.serverBusy)
	}
	if got.errors != 3 || got.requests != 900000 {
		t.Errorf("errors %d, requests %d; want the sums 3 and 900000", got.errors, got.requests)
	}
	two := fold([]*result{run(60000, 10, 0.9, 0), run(70000, 12, 0.9, 0)})
	if two.rate != 65000 || two.cpuUs != 11 {
		t.Errorf("median of two: rate %v, cpu %v; want 65000, 11", two.rate, two.cpuUs)
	}
	all := fold([]*result{failed, failed})
	if all.err == nil || all.failed != 2 {
		t.Errorf("all failed: err %v, failed %d; want the failure and 2", all.err, all.failed)
	}
}
