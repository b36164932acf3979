package textgrid

import (
	"strings"
	"unicode/utf8"
)

// Width is the width of the widest line of s, in runes.
func Width(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// Cut cuts s to fit in width columns (a rune a column), ending in "…" when it was
// cut; s as it is when width is 0 (no limit).
func Cut(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	if width == 1 {
		return "…"
	}
	return string([]rune(s)[:width-1]) + "…"
}

// Wrap wraps each line of s at spaces so that none is wider than width, each
// continuation indented as its line is and by indent more; a word wider than a line
// is cut (Cut). s as it is when width is 0.
func Wrap(s string, width int, indent string) string {
	if width <= 0 {
		return s
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		lead := line[:len(line)-len(strings.TrimLeft(line, " "))]
		cont := lead + indent
		cur := lead
		for _, word := range strings.Fields(line) {
			switch {
			case strings.TrimSpace(cur) == "":
				cur += word
			case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) <= width:
				cur += " " + word
			default:
				out = append(out, Cut(cur, width))
				cur = cont + word
			}
		}
		out = append(out, Cut(cur, width))
	}
	return strings.Join(out, "\n")
}
