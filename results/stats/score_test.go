package stats

import (
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		conf float64
		want Score
	}{
		{
			// 1..10: mean 5.5; Σ(x-mean)² = 82.5, s² = 82.5/9, s = 3.0276503541;
			// Error = t(0.9995, 9) · s/√10 = 4.7809125859 · 0.9574271078 = 4.5773753096.
			// JMH would print "5.500 ±(99.9%) 4.577".
			name: "ten iterations",
			xs:   []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
			conf: 0.999,
			want: Score{Mean: 5.5, Error: 4.57737530958393, Conf: 0.999,
				StdDev: 3.02765035409749, Min: 1, Max: 10, N: 10},
		},
		{
			// Throughputs 10, 12, 14, 16, 18 (order shuffled): mean 14, Σd² = 40,
			// s = √10; Error = t(0.9995, 4) · √10/√5 = 8.6103015814 · √2 = 12.1768052725.
			name: "five iterations, unsorted",
			xs:   []float64{16, 10, 18, 14, 12},
			conf: 0.999,
			want: Score{Mean: 14, Error: 12.1768052725091, Conf: 0.999,
				StdDev: math.Sqrt(10), Min: 10, Max: 18, N: 5},
		},
		{
			// Two values at 95 %: mean 2, s = √2, Error = t(0.975, 1) · √2/√2 = 12.7062047362.
			name: "two iterations at 95%",
			xs:   []float64{1, 3},
			conf: 0.95,
			want: Score{Mean: 2, Error: 12.7062047361747, Conf: 0.95,
				StdDev: math.Sqrt2, Min: 1, Max: 3, N: 2},
		},
		{
			// Identical scores have no spread, so the interval has zero width.
			name: "no spread",
			xs:   []float64{7, 7, 7},
			conf: 0.999,
			want: Score{Mean: 7, Error: 0, Conf: 0.999, StdDev: 0, Min: 7, Max: 7, N: 3},
		},
		{
			// Large, close values (ops/s): the two-pass variance keeps the
			// spread exact where Σx²-n·mean² would cancel. Deviations ±1, so
			// s = √2 and Error = t(0.975, 1) · √2/√2 = 12.7062047362, as for {1, 3}.
			name: "large close values",
			xs:   []float64{1e9 + 1, 1e9 + 3},
			conf: 0.95,
			want: Score{Mean: 1e9 + 2, Error: 12.7062047361747, Conf: 0.95,
				StdDev: math.Sqrt2, Min: 1e9 + 1, Max: 1e9 + 3, N: 2},
		},
		{
			// One iteration: a mean but no interval, as JMH prints no "±".
			name: "single iteration",
			xs:   []float64{42},
			conf: 0.999,
			want: Score{Mean: 42, Error: math.NaN(), Conf: 0.999,
				StdDev: math.NaN(), Min: 42, Max: 42, N: 1},
		},
		{
			// Nothing measured: everything NaN, N 0.
			name: "empty",
			xs:   nil,
			conf: 0.999,
			want: Score{Mean: math.NaN(), Error: math.NaN(), Conf: 0.999,
				StdDev: math.NaN(), Min: math.NaN(), Max: math.NaN(), N: 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(tt.xs, tt.conf)
			if got.N != tt.want.N || got.Conf != tt.want.Conf {
				t.Fatalf("got N=%d Conf=%v, want N=%d Conf=%v", got.N, got.Conf, tt.want.N, tt.want.Conf)
			}
			fields := []struct {
				name      string
				got, want float64
			}{
				{"Mean", got.Mean, tt.want.Mean},
				{"Error", got.Error, tt.want.Error},
				{"StdDev", got.StdDev, tt.want.StdDev},
				{"Min", got.Min, tt.want.Min},
				{"Max", got.Max, tt.want.Max},
			}
			for _, f := range fields {
				if math.IsNaN(f.want) != math.IsNaN(f.got) || (!math.IsNaN(f.want) && !close(f.got, f.want, 1e-10)) {
					t.Errorf("%s = %.15g, want %.15g", f.name, f.got, f.want)
				}
			}
		})
	}
}
