package driver

import (
	"fmt"
	"slices"
	"testing"
)

func TestRounds(t *testing.T) {
	rs := Rounds(5, 200, 42, 0)
	if len(rs) != 200 {
		t.Fatalf("%d rounds, want 200", len(rs))
	}
	first := map[int]int{}
	for i, r := range rs {
		// Every target exactly once per round.
		if s := slices.Sorted(slices.Values(r)); !slices.Equal(s, []int{0, 1, 2, 3, 4}) {
			t.Fatalf("round %d visits %v", i, r)
		}
		first[r[0]]++
	}
	// Random order: every target leads some rounds (each about 40 of 200; the chance
	// that one never leads is 200 × 0.8^200 ≈ 1e-17).
	for k := range 5 {
		if first[k] == 0 {
			t.Errorf("target %d never goes first: %v", k, first)
		}
	}
	// Reproducible from the seed; another fork (stream) or seed gives another order.
	if fmt.Sprint(Rounds(5, 200, 42, 0)) != fmt.Sprint(rs) {
		t.Error("the same seed gave another order")
	}
	if fmt.Sprint(Rounds(5, 200, 42, 1)) == fmt.Sprint(rs) || fmt.Sprint(Rounds(5, 200, 43, 0)) == fmt.Sprint(rs) {
		t.Error("another stream or seed gave the same order")
	}
}
