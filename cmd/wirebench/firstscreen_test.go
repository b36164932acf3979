package main

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/wirebench/wirebench/internal/testtool"
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

// The first screen a new user sees, on a 100-column terminal: run quick and run
// grpc-bench --smoke print no line over 100 characters, live bar and summary alike,
// and leave no stale progress line (issue 46: 115–250 characters, about 40 stale
// lines in a 5-fork run).
func TestFirstScreenFits100Columns(t *testing.T) {
	bar := regexp.MustCompile(`^(fork \d+ of \d+|\d+ of \d+ forks)  .*\[.*\].* left$`)
	check := func(t *testing.T, args ...string) {
		rows, code := runOnTerminal(t, 100, append(args, "--out", filepath.Join(t.TempDir(), "out"))...)
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
	t.Run("quick", func(t *testing.T) { check(t, "run", "quick", "--smoke", "--no-store") })
	t.Run("grpc-bench", func(t *testing.T) {
		if ok, why := jvmWorker(t); !ok {
			testtool.Missing(t, "run grpc-bench --smoke not checked: %s", why)
		}
		if ok, why := rustWorker(t); !ok {
			testtool.Missing(t, "run grpc-bench --smoke not checked: %s", why)
		}
		check(t, "run", "grpc-bench", "--smoke", "--no-store")
	})
}
