package driver

import "math/rand/v2"

// Rounds returns the order in which interleaved rounds visit n targets: rounds lists
// of 0..n-1, each a permutation drawn at random, so that no target always follows
// another (a target slowed by its predecessor's leftovers is slowed in every
// position alike). The same seed and stream give the same order, so a run's schedule
// can be reproduced; forks use different streams.
func Rounds(n, rounds int, seed, stream uint64) [][]int {
	r := rand.New(rand.NewPCG(seed, stream))
	out := make([][]int, rounds)
	for i := range out {
		out[i] = r.Perm(n)
	}
	return out
}
