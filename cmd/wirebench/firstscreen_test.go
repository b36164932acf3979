package main

import (
	"context"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// runOnTerminal runs wirebench with args on a pseudo-terminal of width columns (the
// live bar and the summary both see it) and returns the screen's rows as a reader
// would see them, each logical line one row (the screen is as wide as any line, so
// a line too long shows as too long), and the exit code.
func runOnTerminal(t *testing.T, width uint16, args ...string) ([]string, int) {
	t.Helper()
	ptmx, tty := openPTY(t)
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: width}); err != nil {
		t.Fatal(err)
	}
	read := make(chan string)
	go func() {
		b, _ := io.ReadAll(ptmx)
		read <- string(b)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	err := cmd.Run()
	tty.Close()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	sc := &screen{width: 1 << 20}
	sc.write(<-read)
	rows := make([]string, len(sc.rows))
	for i, r := range sc.rows {
		rows[i] = string(r)
	}
	return rows, code
}

// firstScreens are the suites whose smoke run TestBundledSuitesSmoke makes on a
// 100-column pseudo-terminal (live bar, no --plain) rather than plainly, to check the
// first screen a new user sees with checkFirstScreen.
var firstScreens = map[string]bool{"quick": true, "grpc-bench": true}

// The first screen a new user sees, on a 100-column terminal: run quick and run
// grpc-bench --smoke print no line over 100 characters, live bar and summary alike,
// and leave no stale progress line (issue 46: 115–250 characters, about 40 stale
// lines in a 5-fork run). rows and code are those of runOnTerminal(t, 100, args...).
func checkFirstScreen(t *testing.T, args []string, rows []string, code int) {
	t.Helper()
	bar := regexp.MustCompile(`^(fork \d+ of \d+|\d+ of \d+ forks)  .*\[.*\].* left$`)
	screen := strings.Join(rows, "\n")
	if code != 0 {
		t.Errorf("%v: exit %d\n%s", args, code, screen)
	}
	bars := 0
	for _, r := range rows {
		if n := utf8.RuneCountInString(r); n > 100 {
			t.Errorf("%v: a line of %d characters: %q", args, n, r)
		}
		if bar.MatchString(r) {
			bars++
		}
	}
	if bars != 1 {
		t.Errorf("%v: %d progress bars on the screen, want the last one only:\n%s", args, bars, screen)
	}
	if !strings.Contains(screen, "[SMOKE]") {
		t.Errorf("%v: no summary on the screen:\n%s", args, screen)
	}
}
