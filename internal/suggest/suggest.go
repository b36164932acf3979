// Package suggest finds the name a user most likely meant when they mistyped one (a
// protocol, a stack, a workload, a suite, a suite key), for an error to offer it. Safe
// for concurrent use.
package suggest

import (
	"fmt"
	"strings"
)

// Closest is the name of known nearest to name by edit distance (case ignored), or ""
// when none is near enough to be a typo: within a third of the name's length, at least
// 1 and at most 3 edits. A known name that name is a prefix or an extension of also
// counts ("grpc" → "grpc-proto") when it is the only one. Ties go to the first in
// known.
func Closest(name string, known []string) string {
	n := strings.ToLower(name)
	best, bestD := "", -1
	limit := min(max(len(n)/3, 1), 3)
	for _, k := range known {
		d := distance(n, strings.ToLower(k))
		if d <= limit && (bestD < 0 || d < bestD) {
			best, bestD = k, d
		}
	}
	if best != "" || n == "" {
		return best
	}
	var prefixed []string
	for _, k := range known {
		if l := strings.ToLower(k); strings.HasPrefix(l, n) || strings.HasPrefix(n, l) {
			prefixed = append(prefixed, k)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return ""
}

// Hint is " (did you mean "x"?)" for the name of known closest to name, or "".
func Hint(name string, known []string) string {
	if c := Closest(name, known); c != "" && c != name {
		return fmt.Sprintf(" (did you mean %q?)", c)
	}
	return ""
}

// distance is the optimal string alignment distance of a and b (Levenshtein's, with a
// swap of two neighbouring letters counted as one edit, the commonest typo), in bytes
// (names are ASCII).
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
