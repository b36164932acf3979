package textgrid

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"fork 1 of 5  person.get", 0, "fork 1 of 5  person.get"}, // no limit: as it is
		{"fork 1 of 5", 11, "fork 1 of 5"},                        // exactly fits
		{"fork 1 of 5", 10, "fork 1 of…"},                         // 9 runes and the ellipsis
		{"a·b·c", 4, "a·b…"},                                      // runes, not bytes
	} {
		if got := Cut(tc.s, tc.width); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

func TestWrap(t *testing.T) {
	s := "[1-5/5] 5 targets interleaved, 15 rounds: direct/tcp/person.get, http-json/tcp/person.get · fork 1 of 15"
	for _, width := range []int{20, 60, 100, 200} {
		got := Wrap(s, width, "    ")
		if w := Width(got); w > width {
			t.Errorf("width %d: a line of %d:\n%s", width, w, got)
		}
		// Nothing lost but the spaces it breaks at (no word cut from 60 on).
		if width >= 60 && strings.Join(strings.Fields(got), " ") != s {
			t.Errorf("width %d: %q lost words", width, got)
		}
	}
	if got := Wrap(s, 0, "    "); got != s {
		t.Errorf("no limit: %q", got)
	}
	// An indented line's continuations keep its indent, and the extra one.
	got := Wrap("  warning: a b c d e f", 12, "  ")
	want := "  warning: a\n    b c d e\n    f"
	if got != want {
		t.Errorf("indented: %q, want %q", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if utf8.RuneCountInString(l) > 12 {
			t.Errorf("line %q over 12", l)
		}
	}
}
