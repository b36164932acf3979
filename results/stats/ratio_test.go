package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Synthetic rounds with a known ratio: both series share a machine speed that moves
// by ±40 % from round to round (what pairing must cancel), and each slice has its own
// 15 % noise. The estimate must find the ratio, and its 99.9 % interval must cover it
// in (nearly) every one of many repetitions.
func TestPairedRatioKnownRatio(t *testing.T) {
	const trueRatio, rounds, reps = 0.7, 150, 400
	r := rand.New(rand.NewPCG(1, 2))
	covered := 0
	var widths float64
	for range reps {
		target, base := make([]float64, rounds), make([]float64, rounds)
		for i := range rounds {
			speed := 20000 * math.Exp(0.4*r.NormFloat64())
			base[i] = speed * math.Exp(0.15*r.NormFloat64())
			target[i] = trueRatio * speed * math.Exp(0.15*r.NormFloat64())
		}
		got := PairedRatio(target, base, 0.999)
		if got.N != rounds || !(got.Low < got.Mean && got.Mean < got.High) {
			t.Fatalf("ratio %+v", got)
		}
		if got.Low <= trueRatio && trueRatio <= got.High {
			covered++
		}
		widths += (got.High - got.Low) / 2 / got.Mean
	}
	// The log ratios have sd 0.15·√2 = 0.212; t(0.9995, 149) = 3.36, so the interval's
	// half-width is about 3.36 × 0.212 / √150 = 5.8 % of the ratio.
	t.Logf("covered in %d of %d repetitions, mean half-width %.4f", covered, reps, widths/reps)
	if w := widths / reps; math.Abs(w-0.058) > 0.006 {
		t.Errorf("mean half-width %.4f, want about 0.058", w)
	}
	// At 99.9 %, 400 repetitions miss about 0.4 times; 5 misses would be very unlikely.
	if reps-covered > 4 {
		t.Errorf("the interval covered the true ratio in %d of %d repetitions", covered, reps)
	}
}

// Drift that the pairing does not cancel (a slow random walk in the ratio itself)
// makes neighbouring rounds alike: the interval widens by the AR(1) factor, so that it
// still covers the ratio far more often than an interval that ignores it.
func TestPairedRatioAutocorrelation(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const rounds, reps = 200, 200
	covered, naive := 0, 0
	for range reps {
		target, base := make([]float64, rounds), make([]float64, rounds)
		walk := 0.0
		for i := range rounds {
			walk = 0.9*walk + 0.05*r.NormFloat64() // AR(1), ρ = 0.9, stationary sd 0.115
			base[i] = 1000
			target[i] = 1000 * math.Exp(walk+0.05*r.NormFloat64())
		}
		got := PairedRatio(target, base, 0.999)
		if got.Autocorr < 0.3 {
			t.Fatalf("lag-1 autocorrelation %.2f of a ρ = 0.9 walk", got.Autocorr)
		}
		if got.Low <= 1 && 1 <= got.High {
			covered++
		}
		s := Summarize(logs(target, base), 0.999)
		if math.Abs(s.Mean) <= s.Error {
			naive++
		}
	}
	if covered <= naive || covered < reps*8/10 {
		t.Errorf("covered 1 in %d of %d repetitions (an interval ignoring autocorrelation: %d)", covered, reps, naive)
	} else {
		t.Logf("covered 1 in %d of %d repetitions (an interval ignoring autocorrelation: %d)", covered, reps, naive)
	}
}

func logs(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = math.Log(a[i] / b[i])
	}
	return out
}

func TestPairedRatioEdges(t *testing.T) {
	if r := PairedRatio(nil, nil, 0.999); r.N != 0 || !math.IsNaN(r.Mean) {
		t.Errorf("no rounds: %+v", r)
	}
	// One usable pair: a ratio, no interval. A zero slice is skipped.
	r := PairedRatio([]float64{0, 2}, []float64{1, 4}, 0.999)
	if r.N != 1 || r.Mean != 0.5 || !math.IsNaN(r.Low) {
		t.Errorf("one pair: %+v", r)
	}
	// Identical ratios: a zero-width interval at the ratio.
	r = PairedRatio([]float64{2, 4, 6}, []float64{1, 2, 3}, 0.999)
	if r.N != 3 || math.Abs(r.Mean-2) > 1e-12 || math.Abs(r.Low-2) > 1e-12 || math.Abs(r.High-2) > 1e-12 {
		t.Errorf("constant ratio: %+v", r)
	}
}
