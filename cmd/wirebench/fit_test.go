package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFitLine(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"fork 1 of 5  person.get", 0, "fork 1 of 5  person.get"}, // no terminal: as it is
		{"fork 1 of 5", 11, "fork 1 of 5"},                        // exactly fits
		{"fork 1 of 5", 10, "fork 1 of…"},                         // 9 runes and the ellipsis
		{"a·b·c", 4, "a·b…"},                                      // runes, not bytes
	} {
		if got := fitLine(tc.s, tc.width); got != tc.want {
			t.Errorf("fitLine(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

func TestWrapLines(t *testing.T) {
	s := "[1-5/5] 5 targets interleaved, 15 rounds: direct/tcp/person.get, http-json/tcp/person.get · fork 1 of 15"
	for _, width := range []int{20, 60, 100, 200} {
		got := wrapLines(s, width)
		for _, l := range strings.Split(got, "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("width %d: line of %d: %q", width, n, l)
			}
		}
		// Nothing lost but the spaces it breaks at (none cut at 60 and more).
		if width >= 60 && strings.Join(strings.Fields(got), " ") != s {
			t.Errorf("width %d: %q lost words", width, got)
		}
	}
	if got := wrapLines(s, 0); got != s {
		t.Errorf("no terminal: %q", got)
	}
}
