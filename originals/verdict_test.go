package originals

import "testing"

func est(lo, mean, hi float64) Estimate { return Estimate{Mean: mean, Low: lo, High: hi} }

func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		name  string
		claim Claim
		ours  Estimate
		want  Verdict
	}{
		// metrifier locally: Protobuf 1.69× HTTP; ours 1.5× [1.4, 1.6]: same side, size ratio 0.89.
		{"same side, similar size", Claim{1.69, true}, est(1.4, 1.5, 1.6), Holds},
		// metrifier in the cloud: 11.6×; ours 4× [3.8, 4.2]: same side but 0.34 of the size, a different finding.
		{"same side, size off by more than 2", Claim{11.6, true}, est(3.8, 4, 4.2), DoesNotHold},
		// Size ratio exactly 0.5 is within the band (inclusive).
		{"size at the band's edge", Claim{4, true}, est(1.9, 2, 2.1), Holds},
		// rest-vs-grpc streaming: gRPC 3.9× slower; ours 0.4× [0.35, 0.45]: reversed.
		{"reversed, above 1 then below", Claim{3.91, true}, est(0.35, 0.4, 0.45), DoesNotHold},
		// ping-pong: gRPC 0.50× REST's time; ours 1.3× [1.2, 1.4]: reversed the other way.
		{"reversed, below 1 then above", Claim{0.5, true}, est(1.2, 1.3, 1.4), DoesNotHold},
		// A clear gap in the original, but our interval straddles 1: we cannot tell the two apart.
		{"gap gone", Claim{2, true}, est(0.9, 1.05, 1.2), DoesNotHold},
		// metrifier's getPerson, 2026-11-24: the original 1.69×, ours 1.55× [0.90, 2.68].
		{"too wide to tell", Claim{1.69, true}, est(0.90, 1.55, 2.68), Inconclusive},
		{"too wide to tell, below 1", Claim{0.496, true}, est(0.319, 0.829, 2.16), Inconclusive},
		// Below-1 claim held: 0.5 vs our 0.6 [0.55, 0.65], size ratio 1.2.
		{"below 1 holds", Claim{0.5, true}, est(0.55, 0.6, 0.65), Holds},
		// The sweep's Netty pingpong rows overlap: no gap; our interval includes 1.
		{"no gap, ours includes 1", Claim{1.02, false}, est(0.95, 1.0, 1.08), Holds},
		// No gap; ours 1.05 [1.02, 1.08] excludes 1 but sits within ±10 %: about the same.
		{"no gap, ours within the band", Claim{0.98, false}, est(1.02, 1.05, 1.08), Holds},
		// No gap; ours includes 1 but reaches 0.8 and 1.2: it holds "the same" and gaps of 20 %.
		{"no gap, ours too wide", Claim{1.0, false}, est(0.8, 1.0, 1.2), Inconclusive},
		// rpcecho's 100K HTTP, Unix over TCP: no gap (0.931×); ours 0.982× [0.876, 1.10].
		{"no gap, ours just past the band", Claim{0.931, false}, est(0.876, 0.982, 1.10), Inconclusive},
		// No gap; ours [1.05, 1.3] excludes 1, partly inside the band: cannot tell.
		{"no gap, ours straddles the band's edge", Claim{1.0, false}, est(1.05, 1.15, 1.3), Inconclusive},
		// No gap in the original, but ours is 1.5× [1.4, 1.6]: a gap it did not have.
		{"no gap, ours a clear gap", Claim{1.0, false}, est(1.4, 1.5, 1.6), DoesNotHold},
		// grpc-params' OkHttp ping-pong, 2026-11-24: the original 0.746× with overlapping
		// errors (no clear gap), ours 0.735× [0.685, 0.788]: the original's own gap.
		{"no gap, ours the original's figure", Claim{0.746, false}, est(0.685, 0.735, 0.788), Holds},
		// The same, 1.10 times the original's ratio: at the band's edge, inclusive.
		{"no gap, ours at the edge of the original's figure", Claim{0.7, false}, est(0.72, 0.77, 0.82), Holds},
		// Past it: 0.775× against the original's 0.941× (rpcecho, Unix over TCP): a larger gap.
		{"no gap, ours a larger gap on its side", Claim{0.941, false}, est(0.668, 0.775, 0.899), DoesNotHold},
		// Within 10 % of the original's ratio but on the other side of 1.
		{"no gap, ours near its figure but across 1", Claim{1.04, false}, est(0.85, 0.88, 0.89), DoesNotHold},
		// A point with no interval (latencies) is judged by the point: Akka gRPC 2.3× HTTP's p50, ours 1.8×.
		{"point estimate", Claim{2.32, true}, est(1.8, 1.8, 1.8), Holds},
		// A point exactly at 1 where the original had a gap does not hold.
		{"point at 1", Claim{2, true}, est(1, 1, 1), DoesNotHold},
		// A non-positive ratio cannot be judged.
		{"zero ratio", Claim{0, true}, est(1, 1, 1), NotComparable},
	} {
		got, why := Judge(tc.claim, tc.ours)
		if got != tc.want {
			t.Errorf("%s: Judge(%+v, %+v) = %s (%s), want %s", tc.name, tc.claim, tc.ours, got, why, tc.want)
		}
		if why == "" {
			t.Errorf("%s: no reason given", tc.name)
		}
	}
}
