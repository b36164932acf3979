package suite_test

import (
	"slices"
	"testing"
	"time"

	"github.com/wirebench/wirebench/suite"
)

// TestEstimateWarmWorkersByKindOfCall: in a batch of groups on the same workers, an
// adaptive warm-up counts as warm (three 4 s windows, 12 s) only when an earlier group
// of the batch ran the same kind of call (unary or stream); otherwise it counts as on
// new workers (25 s, within 1 s and warmup_max 30 s), but the fork starts no workers.
// Counted by hand, per fork, two Go targets (no JVM to start), keep-alive off,
// 2 rounds of 100 ms slices (+3 ms each) per target: 0.412 s of rounds a group.
//
//	person.get   new workers, cold:          0.5 + 2 × 25 + 0.412 = 50.912 s
//	person.list  unary after unary, warm:          2 × 12 + 0.412 = 24.412 s
//	stream       first stream, cold:               2 × 25 + 0.412 = 50.412 s
//	pingpong     unary again, warm:                2 × 12 + 0.412 = 24.412 s
//	stream       stream again, warm:               2 × 12 + 0.412 = 24.412 s
//
// Each group × 2 forks.
func TestEstimateWarmWorkersByKindOfCall(t *testing.T) {
	s := mustParse(t, `
		|defaults: {warmup: 1s, warmup_max: 30s, keep_alive: 0s, iterations: 2, duration: 100ms, forks: 2}
		|targets: [http-json, grpc-proto]
		|workloads:
		|  - name: person.get
		|  - name: person.list
		|  - name: stream
		|  - name: pingpong
		|  - name: stream
		|    trades: 100`)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	want := []time.Duration{2 * ms(50912), 2 * ms(24412), 2 * ms(50412), 2 * ms(24412), 2 * ms(24412)}
	if got := suite.GroupEstimates(s.Benchmarks); !slices.Equal(got, want) {
		t.Errorf("group estimates %v, counted %v", got, want)
	}
}
