package originals

import (
	"math"
	"strings"
	"testing"
)

func est(lo, mean, hi float64) Estimate { return Estimate{Mean: mean, Low: lo, High: hi} }

func claim(ratio, lo, hi float64) Claim { return Claim{Ratio: ratio, Low: lo, High: hi} }

// The original's ratio interval is the ratio of the two figures' intervals, each figure
// without a published error given ±10 %. Every expected value is worked out by hand
// from the figures in suite/bundled/originals. That interval is also the size a finding is held
// to (Judge): nothing widens it.
func TestClaimOf(t *testing.T) {
	fig := func(v, e float64) *Figure { return &Figure{Value: v, Error: e} }
	for _, tc := range []struct {
		name          string
		of, over      *Figure
		ratio, lo, hi float64
		assumed       bool
		side          int
	}{
		// metrifier cloud, RPCAvroBenchmark.getPerson 2771.051 ± 253.325 over
		// HttpBenchmark.getPerson 680.914 ± 52.23 ops/s: 2771.051/680.914 = 4.0696;
		// (2771.051−253.325)/(680.914+52.23) = 2517.726/733.144 = 3.4341;
		// (2771.051+253.325)/(680.914−52.23) = 3024.376/628.684 = 4.8106. Above 1.
		{"metrifier cloud Avro getPerson", fig(2771.051, 253.325), fig(680.914, 52.23), 4.0696, 3.4341, 4.8106, false, 1},
		// rpcecho, 10K over TCP: HTTP 760 over gRPC 310 ms, no errors: 760/310 = 2.4516;
		// 684/341 = 2.0059; 836/279 = 2.9964. Above 1.
		{"rpcecho 10K HTTP over gRPC", fig(760, 0), fig(310, 0), 2.4516, 2.0059, 2.9964, true, 1},
		// rpcecho, Hello World HTTP: Unix 160 over TCP 170 ms: 0.9412; 144/187 = 0.7701;
		// 176/153 = 1.1503. Includes 1.
		{"rpcecho Hello World HTTP Unix over TCP", fig(160, 0), fig(170, 0), 0.9412, 0.7701, 1.1503, true, 0},
		// grpc-params, stream, pool executor, window SMALL: OkHttp 21.456 ± 5.996 over
		// Netty 136.521 ± 125.297 ms/op: 0.15716; 15.46/261.818 = 0.059049;
		// 27.452/11.224 = 2.4458. Includes 1.
		{"grpc-params OkHttp over Netty pool SMALL", fig(21.456, 5.996), fig(136.521, 125.297), 0.15716, 0.059049, 2.4458, false, 0},
		// grpc-params, stream, pool, window MEDIUM: OkHttp 19.387 ± 27.275 over Netty
		// 127.194 ± 17.451: the error exceeds its figure, so Low is 0;
		// 46.662/109.743 = 0.42520. Below 1 all the same.
		{"an error larger than its figure", fig(19.387, 27.275), fig(127.194, 17.451), 0.15242, 0, 0.42520, false, -1},
		// An error as large as the divisor: High is unbounded; 9/10 = 0.9, so it
		// includes 1.
		{"an unbounded interval", fig(10, 1), fig(5, 5), 2, 0.9, math.Inf(1), false, 0},
	} {
		f := &Finding{Of: tc.of, Over: tc.over}
		c := ClaimOf(f)
		near := func(got, want float64) bool {
			return got == want || math.Abs(got-want) <= 5e-5*math.Max(1, math.Abs(want))
		}
		if !near(c.Ratio, tc.ratio) || !near(c.Low, tc.lo) || !near(c.High, tc.hi) || c.Assumed != tc.assumed || c.Side() != tc.side {
			t.Errorf("%s: %+v side %d, want %v [%v, %v] assumed %v side %d",
				tc.name, c, c.Side(), tc.ratio, tc.lo, tc.hi, tc.assumed, tc.side)
		}
	}
}

func TestJudge(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name  string
		claim Claim
		ours  Estimate
		want  Verdict
		// why must contain each of these.
		why []string
	}{
		// The cases issue 34 names; the claims' intervals are TestClaimOf's. A finding is
		// held to the original's own interval: no factor widens it.
		//
		// metrifier cloud, Avro getPerson: the original 4.07× [3.43, 4.81]; ours 8.86×
		// [3.03, 25.8]: wholly above 1 (3.03 > 1) and it overlaps the original's
		// interval (3.03 ≤ 4.81 and 25.8 ≥ 3.43): holds (the point rule said "does not
		// hold": 8.86/4.07 = 2.18 > 2).
		{"metrifier cloud Avro getPerson", claim(4.0696, 3.4341, 4.8106), est(3.03, 8.86, 25.8), Holds,
			[]string{"4.07× [3.43, 4.81] lies above 1", "8.86× [3.03, 25.8], lies above it too and overlaps that interval"}},
		// rpcecho, 10K over TCP, HTTP over gRPC: the original 2.45× [2.01, 3.00] (±10 %
		// per figure); ours 1.37× [1.26, 1.49]: above 1, but wholly under the original's
		// interval (1.49 < 2.01): does not hold. (A band widened 2×, [1.00, 5.99], had
		// it holding.)
		{"rpcecho 10K HTTP over gRPC", Claim{2.4516, 2.0059, 2.9964, true}, est(1.26, 1.37, 1.49), DoesNotHold,
			[]string{"2.45× [2.01, 3.00] (±10 % given to a figure published without an error) lies above 1",
				"1.37× [1.26, 1.49], lies wholly outside that interval"}},
		// rpcecho, Hello World, HTTP, Unix over TCP: the original 0.941× [0.770, 1.15]
		// includes 1, so it claims only a ratio within [0.770, 1.15]; ours 0.775×
		// [0.668, 0.899] reaches into it (0.899 ≥ 0.770) and beyond it (0.668 < 0.770):
		// inconclusive. (The first rule read the overlap as "no gap" and said "does not
		// hold"; a band widened 2×, [0.385, 2.30], had it holding.)
		{"rpcecho Hello World HTTP Unix over TCP", Claim{0.9412, 0.7701, 1.1503, true}, est(0.668, 0.775, 0.899), Inconclusive,
			[]string{"0.941× [0.770, 1.15]", "includes 1", "reaches into it and beyond it"}},
		// grpc-params, stream, pool executor, window SMALL, OkHttp over Netty: the
		// original 0.157× [0.0590, 2.45] includes 1; ours (the page of 2026-11-24)
		// 0.520× [0.497, 0.543] lies within it (0.497 ≥ 0.0590, 0.543 ≤ 2.45): holds.
		// The Why says what the figures show, never "no clear gap".
		{"grpc-params OkHttp over Netty pool SMALL", claim(0.15716, 0.059049, 2.4458), est(0.497, 0.520, 0.543), Holds,
			[]string{"0.157× [0.0590, 2.45] includes 1", "lies within it"}},
		// The same row's earlier run, 0.674× [0.296, 1.53]: also within [0.0590, 2.45].
		{"grpc-params OkHttp over Netty pool SMALL, wide", claim(0.15716, 0.059049, 2.4458), est(0.296, 0.674, 1.53), Holds, nil},

		// The rule's other branches.
		//
		// metrifier local, Protobuf getPerson 7345.886 ± 148.966 over 4352.536 ± 101.832:
		// 1.69× [7196.92/4454.368, 7494.852/4250.704] = [1.616, 1.763]; ours [1.5, 1.7]
		// above 1, overlapping it (1.5 ≤ 1.763, 1.7 ≥ 1.616): holds.
		{"above 1, overlapping", claim(1.6877, 1.6157, 1.7632), est(1.5, 1.6, 1.7), Holds, nil},
		// Ours [1.4, 1.6] ends just under the original's 1.616: does not hold (a band
		// widened 2×, [0.808, 3.53], had it holding).
		{"above 1, just under", claim(1.6877, 1.6157, 1.7632), est(1.4, 1.5, 1.6), DoesNotHold, []string{"wholly outside"}},
		// metrifier cloud, Protobuf getPerson 11.6× [6943.271/733.144, 8905.217/628.684]
		// = [9.47, 14.2]; ours [3.8, 4.2] above 1 but wholly under it: a different finding.
		{"above 1, under", claim(11.638, 9.4705, 14.165), est(3.8, 4, 4.2), DoesNotHold, []string{"wholly outside"}},
		// Over it: the original 2× [1.8, 2.2]; ours [2.3, 2.6] starts above 2.2.
		{"above 1, over", claim(2, 1.8, 2.2), est(2.3, 2.45, 2.6), DoesNotHold, []string{"wholly outside"}},
		// The interval's edges are in it: ours ending at 1.8, or starting at 2.2, meets
		// [1.8, 2.2].
		{"at the low edge", claim(2, 1.8, 2.2), est(1.5, 1.65, 1.8), Holds, nil},
		{"at the high edge", claim(2, 1.8, 2.2), est(2.2, 2.35, 2.5), Holds, nil},
		// rest-vs-grpc, stream: 149.167 ± 16.678 over 38.115 ± 1.301 ms/op, 3.91×
		// [132.489/39.416, 165.845/36.814] = [3.36, 4.50]; ours [0.35, 0.45]: reversed.
		{"reversed, above 1 then below", claim(3.9136, 3.3613, 4.5049), est(0.35, 0.4, 0.45), DoesNotHold, []string{"reversed"}},
		// rest-vs-grpc, ping-pong: 8.692 ± 0.822 over 17.536 ± 1.603, 0.496×
		// [7.87/19.139, 9.514/15.933] = [0.411, 0.597]; ours [1.2, 1.4]: reversed.
		{"reversed, below 1 then above", claim(0.4957, 0.4112, 0.5971), est(1.2, 1.3, 1.4), DoesNotHold, []string{"reversed"}},
		// Below 1, ours [0.55, 0.65] overlapping [0.411, 0.597] (0.55 ≤ 0.597): holds.
		{"below 1 holds", claim(0.4957, 0.4112, 0.5971), est(0.55, 0.6, 0.65), Holds, []string{"lies below it too"}},
		// The original above 1, [1.616, 1.763]; ours [0.90, 2.68] includes 1 and
		// overlaps it: too wide to tell.
		{"includes 1, overlapping", claim(1.6877, 1.6157, 1.7632), est(0.90, 1.55, 2.68), Inconclusive, []string{"includes 1"}},
		// Below 1 likewise: ours [0.319, 2.16] against [0.411, 0.597].
		{"includes 1, below", claim(0.4957, 0.4112, 0.5971), est(0.319, 0.829, 2.16), Inconclusive, nil},
		// Ours includes 1 but is wholly under [9.47, 14.2]: does not hold.
		{"includes 1, under", claim(11.638, 9.4705, 14.165), est(0.9, 1.05, 1.2), DoesNotHold, []string{"wholly outside"}},
		// An original whose interval includes 1, [0.82, 1.22]: ours [0.95, 1.08] within
		// it holds; [1.1, 1.4] reaches into it and beyond (1.4 > 1.22): inconclusive, and
		// its Why does not call ours too wide (it is narrower than the original's);
		// [1.3, 1.6] lies wholly above 1.22: does not hold (a band widened 2×,
		// [0.41, 2.44], had it holding).
		{"original includes 1, ours within", claim(1.0, 0.82, 1.22), est(0.95, 1.0, 1.08), Holds, nil},
		{"original includes 1, ours past it", claim(1.0, 0.82, 1.22), est(1.1, 1.25, 1.4), Inconclusive, []string{"reaches into it and beyond it", "neither bears that interval out nor rules it out"}},
		{"original includes 1, ours beyond it", claim(1.0, 0.82, 1.22), est(1.3, 1.45, 1.6), DoesNotHold, []string{"lies wholly outside it"}},
		// grpc-params' OkHttp ping-pong: 8.243 ± 4.851 over 11.057 ± 1.25, 0.746×
		// [3.392/12.307, 13.094/9.807] = [0.276, 1.34]; ours 0.735× [0.685, 0.788]:
		// within.
		{"original includes 1, ours its gap", claim(0.7455, 0.2756, 1.3352), est(0.685, 0.735, 0.788), Holds, nil},
		// An unbounded original, [0.9, ∞), includes 1: ours [0.6, 1.2] reaches out of it
		// (0.6 < 0.9); [1.5, 30] lies within it; [0.3, 0.6] wholly under it.
		{"unbounded original, ours reaching out", claim(2, 0.9, inf), est(0.6, 0.9, 1.2), Inconclusive, []string{"∞"}},
		{"unbounded original, ours within", claim(2, 0.9, inf), est(1.5, 5, 30), Holds, nil},
		{"unbounded original, ours under", claim(2, 0.9, inf), est(0.3, 0.4, 0.6), DoesNotHold, nil},
		// A point (latencies measured apart) is judged as an interval of one point.
		// Akka's p50, 3.43 over 1.48 ms, 2.32× [3.087/1.628, 3.773/1.332] =
		// [1.90, 2.83]: 2.0 holds; 1.8 (under 1.90), 23.7 and 1 lie outside it: none
		// holds. A point cannot be inconclusive against an original on one side of 1.
		{"point estimate", claim(2.3176, 1.8962, 2.8326), est(2.0, 2.0, 2.0), Holds, nil},
		{"point just under", claim(2.3176, 1.8962, 2.8326), est(1.8, 1.8, 1.8), DoesNotHold, nil},
		{"point far off", claim(2.3176, 1.8962, 2.8326), est(23.7, 23.7, 23.7), DoesNotHold, nil},
		{"point at 1", claim(2.3176, 1.8962, 2.8326), est(1, 1, 1), DoesNotHold, []string{"wholly outside"}},
		// A non-positive ratio cannot be judged.
		{"zero ratio", claim(0, 0, 0), est(1, 1, 1), NotComparable, nil},
	} {
		got, why := Judge(tc.claim, tc.ours)
		if got != tc.want {
			t.Errorf("%s: Judge(%+v, %+v) = %s (%s), want %s", tc.name, tc.claim, tc.ours, got, why, tc.want)
		}
		if why == "" {
			t.Errorf("%s: no reason given", tc.name)
		}
		for _, w := range tc.why {
			if !strings.Contains(why, w) {
				t.Errorf("%s: why %q lacks %q", tc.name, why, w)
			}
		}
		if strings.Contains(why, "no clear gap") {
			t.Errorf("%s: why %q claims what no original's figures claim", tc.name, why)
		}
	}
}
