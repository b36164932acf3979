package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// forkedRounds draws forks × rounds pairs whose true ratio is ratio: each fork's
// log ratio is shifted by a normal effect of sd between (a process's whole-life
// effect), each round's by a normal of sd within; the machine's speed, common to
// both members of a pair, moves ±40 % and must cancel.
func forkedRounds(r *rand.Rand, forks, rounds int, ratio, between, within float64) (t, b [][]float64) {
	for range forks {
		shift := r.NormFloat64() * between
		var tf, bf []float64
		for range rounds {
			speed := 1e4 * (0.6 + 0.8*r.Float64())
			bf = append(bf, speed)
			tf = append(tf, speed*ratio*math.Exp(shift+r.NormFloat64()*within))
		}
		t, b = append(t, tf), append(b, bf)
	}
	return t, b
}

func TestPairedRatioForksCoverage(t *testing.T) {
	const reps = 1000
	cases := []struct {
		name                    string
		forks, rounds           int
		between, within         float64
		conf                    float64
		minCover, maxCover      float64
		pooledMaxCover          float64 // the one-level interval of the same rounds, pooled
		checkPooledUndercovered bool
	}{
		// A between-fork sd of 5 % against 20 % per round over 40 rounds: the fork
		// means vary by √(0.05² + 0.2²/40) = 5.9 %, of which the rounds explain 3.2 %.
		// Nominal 90 %: the two-level interval covers the truth 90 % ± 3 % of the
		// time (binomial sd over 1000 reps is 0.95 %); the pooled one-level interval,
		// which sees only the 3.2 %, covers far less.
		{"between dominates", 8, 40, 0.05, 0.20, 0.90, 0.87, 0.93, 0.75, true},
		// No process effect at all: the two-level interval is still nominal, a little
		// over (its floor, the one-level interval, only ever widens it).
		{"no between", 6, 40, 0, 0.20, 0.90, 0.87, 0.975, 1, false},
		// Two forks: one degree of freedom, t(0.95, 1) = 6.31, still nominal.
		{"two forks", 2, 100, 0.05, 0.20, 0.90, 0.87, 0.975, 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 11))
			covered, pooledCovered := 0, 0
			for range reps {
				tg, bs := forkedRounds(r, c.forks, c.rounds, 1.3, c.between, c.within)
				got := PairedRatioForks(tg, bs, c.conf)
				if got.Forks != c.forks || got.N != c.forks*c.rounds {
					t.Fatalf("forks %d rounds %d, want %d and %d", got.Forks, got.N, c.forks, c.forks*c.rounds)
				}
				if got.Low <= 1.3 && 1.3 <= got.High {
					covered++
				}
				var ft, fb []float64
				for f := range tg {
					ft, fb = append(ft, tg[f]...), append(fb, bs[f]...)
				}
				if p := PairedRatio(ft, fb, c.conf); p.Low <= 1.3 && 1.3 <= p.High {
					pooledCovered++
				}
			}
			cover := float64(covered) / reps
			if cover < c.minCover || cover > c.maxCover {
				t.Errorf("two-level coverage %.3f, want %.2f to %.2f", cover, c.minCover, c.maxCover)
			}
			if pc := float64(pooledCovered) / reps; c.checkPooledUndercovered && pc > c.pooledMaxCover {
				t.Errorf("pooled coverage %.3f: expected the one-level interval to miss the process effect (≤ %.2f)", pc, c.pooledMaxCover)
			}
		})
	}
}

func TestPairedRatioForksComponents(t *testing.T) {
	// 40 forks of 200 rounds: the components are estimated closely. Within is the
	// per-round variance, 0.2² = 0.04; Between the fork effect's, 0.06² = 0.0036
	// (its estimate from 40 forks has a relative sd of about √(2/39) = 23 %).
	r := rand.New(rand.NewPCG(3, 5))
	tg, bs := forkedRounds(r, 40, 200, 0.8, 0.06, 0.2)
	got := PairedRatioForks(tg, bs, 0.999)
	if math.Abs(got.Within-0.04)/0.04 > 0.05 {
		t.Errorf("within %.4f, want 0.04 ± 5 %%", got.Within)
	}
	if got.Between < 0.0036*0.5 || got.Between > 0.0036*1.6 {
		t.Errorf("between %.5f, want about 0.0036", got.Between)
	}
	if got.DF != 39 {
		t.Errorf("df %v, want forks − 1 = 39", got.DF)
	}
	if math.Abs(got.Mean/0.8-1) > 0.03 {
		t.Errorf("mean %.4f, want 0.8 within the fork effect's error (0.06/√40 ≈ 1 %%)", got.Mean)
	}
}

func TestPairedRatioForksEdges(t *testing.T) {
	// One fork: exactly PairedRatio, and the between-fork part unknown.
	one := PairedRatioForks([][]float64{{2, 4, 6, 8}}, [][]float64{{1, 2, 3, 5}}, 0.999)
	want := PairedRatio([]float64{2, 4, 6, 8}, []float64{1, 2, 3, 5}, 0.999)
	if one.Mean != want.Mean || one.Low != want.Low || one.High != want.High || one.Forks != 1 || !math.IsNaN(one.Between) {
		t.Errorf("one fork: %+v, want PairedRatio's %+v and Between NaN", one, want)
	}
	// Forks with no usable pair are not forks; nothing at all is NaN.
	none := PairedRatioForks([][]float64{{0}, {}}, [][]float64{{1}, {}}, 0.999)
	if none.Forks != 0 || !math.IsNaN(none.Mean) {
		t.Errorf("no pairs: %+v", none)
	}
	// Two forks whose rounds all agree exactly with each other: the fork means
	// differ (1.0 vs 1.2 in ratio), so the interval comes from them, with 1 df:
	// mean of logs (0 + ln 1.2)/2, se = |ln 1.2|/2, half = t(0.9995, 1) · se =
	// 636.6 · 0.0912 = 58.0: the interval is enormous, as two forks warrant.
	two := PairedRatioForks([][]float64{{1, 1, 1}, {1.2, 1.2, 1.2}}, [][]float64{{1, 1, 1}, {1, 1, 1}}, 0.999)
	if math.Abs(two.Mean-math.Sqrt(1.2)) > 1e-12 || two.DF != 1 {
		t.Errorf("two forks: mean %v df %v, want √1.2 and 1", two.Mean, two.DF)
	}
	if half := math.Log(two.High) - math.Log(two.Mean); math.Abs(half-636.619*math.Log(1.2)/2) > 0.01 {
		t.Errorf("two forks: log half-width %v, want t(0.9995,1)·ln(1.2)/2 = 58.04", half)
	}
}
