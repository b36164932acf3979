package main

import (
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// terminalWidth is the number of columns of the terminal w is, or 0 when w is no
// terminal or one of no size. It is asked at each use: a terminal can be resized
// during a run.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(w) {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}

// fitLine cuts s to fit in width columns (one rune a column: the progress lines are
// ASCII but for "·" and "…"), ending in "…" when it was cut; s as it is when width
// is 0 (no terminal).
func fitLine(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	if width == 1 {
		return "…"
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// wrapLines wraps each line of s at spaces so that none is wider than width, the
// continuations indented by four spaces; a word wider than a line is cut (fitLine).
// s as it is when width is 0.
func wrapLines(s string, width int) string {
	if width <= 0 {
		return s
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		cur, indent := "", ""
		for _, word := range strings.Split(line, " ") {
			switch {
			case cur == "" || cur == indent:
				cur += word
			case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) <= width:
				cur += " " + word
			default:
				out = append(out, fitLine(cur, width))
				indent = "    "
				cur = indent + word
			}
		}
		out = append(out, fitLine(cur, width))
	}
	return strings.Join(out, "\n")
}
