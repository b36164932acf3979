package capacity

import (
	"fmt"
	"math"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
)

// Judge gives a step's verdict from its interval: a saturated client first (a
// result it set says nothing of the target), then failed calls, the achieved rate
// and the objectives. Lag (calls started late although a caller was free) blames the
// generator only where it decided the verdict: a rate missed while the generator was
// late, or an objective missed on response time (from the intended start) that the
// service time (from the actual start) meets. Lag only ever adds to the response
// time, so a step that passes despite it passes. (On the 2-vCPU VMs of
// docs/capacity.md a lag p99 of 1–4 ms appears at 1000–2000/s with the client 20 %
// busy: scheduling jitter, not a generator at its limit.)
func Judge(c *spec.Capacity, rate float64, iv *results.Interval) (verdict, why string) {
	secs := iv.Seconds()
	calls := iv.Ops + iv.ErrorCount()
	if secs <= 0 || calls == 0 {
		return results.VerdictRate, "no call finished"
	}
	if share := results.ClientCPUShare(iv.ClientCPU, iv.ClientCPUs, secs); share > results.MaxClientCPU {
		return results.VerdictGenerator, fmt.Sprintf("the client used %.0f%% of its CPUs", share*100)
	}
	tightest := time.Duration(math.MaxInt64)
	for _, o := range c.SLOs {
		tightest = min(tightest, o.Max)
	}
	var lag time.Duration // lag p99 with a caller free, when it is large enough to matter
	if iv.Lag != nil && iv.Overflow == 0 {
		if l := time.Duration(iv.Lag.ValueAtQuantile(99)); l > max(results.MaxLagP99, time.Duration(lagShare*float64(tightest))) {
			lag = l.Round(time.Microsecond)
		}
	}
	if share := float64(iv.ErrorCount()) / float64(calls); share > c.MaxErrorRate {
		return results.VerdictErrors, fmt.Sprintf("%.2f%% of calls failed (at most %.2f%%)", share*100, c.MaxErrorRate*100)
	}
	if achieved := float64(calls) / secs; achieved < results.MinAchieved*rate {
		if lag > 0 {
			return results.VerdictGenerator, fmt.Sprintf("achieved %.0f/s of %.0f/s with lag p99 %v and a caller free: the generator fell behind", achieved, rate, lag)
		}
		return results.VerdictRate, fmt.Sprintf("achieved %.0f/s of %.0f/s", achieved, rate)
	}
	for _, o := range c.SLOs {
		v := time.Duration(iv.Resp.ValueAtQuantile(o.Quantile))
		if v <= o.Max {
			continue
		}
		if lag > 0 && iv.Service != nil && sloHolds(c, iv.Service) {
			return results.VerdictGenerator, fmt.Sprintf("p%v %v > %v on response time only (service time within; lag p99 %v with a caller free): the generator fell behind",
				o.Quantile, v.Round(time.Microsecond), o.Max, lag)
		}
		return results.VerdictSLO, fmt.Sprintf("p%v %v > %v", o.Quantile, v.Round(time.Microsecond), o.Max)
	}
	return results.VerdictPass, ""
}

// sloHolds says whether every objective of c holds on h.
func sloHolds(c *spec.Capacity, h *hdr.Histogram) bool {
	for _, o := range c.SLOs {
		if time.Duration(h.ValueAtQuantile(o.Quantile)) > o.Max {
			return false
		}
	}
	return true
}
