package main

import (
	"io"
	"os"

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
