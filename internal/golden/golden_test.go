package golden

import (
	"strings"
	"testing"
)

func TestCheckEqual(t *testing.T) {
	Check(t, "two-lines.golden", []byte("one\ntwo\n"))
}

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct{ name, want, got, diff string }{
		// The second line is the first to differ.
		{"changed line", "a\nb\nc\n", "a\nB\nc\n", "line 2:\n  want b\n  got  B"},
		// An added last line differs from the missing one, shown empty.
		{"added line", "a\n", "a\nb\n", "line 2:\n  want \n  got  b"},
		// Equal text has no difference to show.
		{"equal", "a\n", "a\n", ""},
		// A long line is cut at 200 bytes.
		{"long", strings.Repeat("x", 300), "y", "line 1:\n  want " + strings.Repeat("x", 200) + "…\n  got  y"},
	} {
		if got := firstDiff([]byte(c.want), []byte(c.got)); got != c.diff {
			t.Errorf("%s: firstDiff = %q, want %q", c.name, got, c.diff)
		}
	}
}
