package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestWarmupSettled(t *testing.T) {
	flat := []float64{100, 101, 99, 100, 102, 98, 100, 101}
	for _, c := range []struct {
		name string
		xs   []float64
		want bool
	}{
		{"too few slices", flat[:7], false},
		{"flat", flat, true},
		// The Akka gRPC 0.4 warm-up of docs/method.md, at its 26th slice: still
		// creeping up by about 1.5 % a slice.
		{"creeping", []float64{5455, 5712, 5838, 5963, 6374, 6597, 6891, 6833, 6890, 7092}, false},
		{"settled after a ramp", []float64{20, 40, 80, 100, 101, 99, 100, 102, 99, 100, 101}, true},
		// 2.5 % between windows of the same size is within the 3 % tolerance;
		// 3.5 % is not, either way.
		{"2.5 % step", []float64{100, 100, 100, 100, 97.5, 97.5, 97.5, 97.5}, true},
		{"3.5 % step down", []float64{100, 100, 100, 100, 96.5, 96.5, 96.5, 96.5}, false},
		{"3.5 % step up", []float64{100, 100, 100, 100, 103.5, 103.5, 103.5, 103.5}, false},
		{"a slice that finished nothing", []float64{100, 100, 100, 100, 100, 0, 100, 100}, false},
		{"not a number", []float64{100, 100, 100, 100, 100, math.NaN(), 100, 100}, false},
		// Slices swinging fourfold from one second to the next, as http4s's did
		// (docs/method.md), with windows of equal means.
		{"swinging", []float64{2000, 8000, 4000, 4000, 8000, 2000, 4000, 4000}, false},
		// Within the noise bound: ±8 % swings.
		{"noisy but level", []float64{92, 108, 100, 100, 108, 92, 100, 100}, true},
		// Only the last two windows count: an old stall is forgotten.
		{"old stall", []float64{0, 100, 100, 100, 100, 100, 100, 100, 100}, true},
	} {
		if got := WarmupSettled(c.xs); got != c.want {
			t.Errorf("%s: WarmupSettled(%v) = %v, want %v", c.name, c.xs, got, c.want)
		}
	}
}

// TestWarmupSettledNoise: a flat series with 3 % noise per one-second slice (about
// what a JVM server's slices show here once warm) settles within a few slices of the
// least (8), and a ramp of +2 % a slice with 1 % noise (a JIT late in its warm-up)
// never settles while it lasts.
func TestWarmupSettledNoise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const series = 1000
	var slices int
	for range series {
		var xs []float64
		for !WarmupSettled(xs) && len(xs) < 100 {
			xs = append(xs, 1000*math.Exp(0.03*r.NormFloat64()))
		}
		slices += len(xs)
	}
	if mean := float64(slices) / series; mean > 11 {
		t.Errorf("flat series with 3 %% noise took %.1f slices on average to settle, want at most 11 (8 is the least)", mean)
	}
	for s := range series {
		xs := []float64{}
		for i := range 30 {
			xs = append(xs, 100*math.Pow(1.02, float64(i))*math.Exp(0.01*r.NormFloat64()))
			if WarmupSettled(xs) {
				t.Fatalf("series %d: a ramp of +2 %% a slice settled after %d slices: %v", s, i+1, xs)
			}
		}
	}
}
