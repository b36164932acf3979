package main

import (
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/runner"
)

// progressEvents are a run's events: one group of two targets in three forks, the
// first fork finished in an earlier run.
func progressEvents() []runner.Event {
	iv := &results.Interval{Phase: "measure", Interval: record.NewInterval(false)}
	iv.End = iv.Start.Add(time.Second)
	names := []string{"http-json/tcp/person.get/closed-c2", "grpc-proto/tcp/person.get/closed-c2"}
	group := "person.get/closed-c2"
	return []runner.Event{
		{Kind: runner.KindStart, Total: 2, Name: names[0], Group: names, GroupKey: group, Rounds: 2, Resumed: 1,
			Fork: 1, Forks: 3, Left: 80 * time.Second},
		{Kind: runner.KindInterval, Index: 1, Total: 2, Name: names[1], Interval: &driver.Event{Target: 1, Fork: 1, Interval: iv}},
		{Kind: runner.KindFork, Total: 2, Name: names[0], Group: names, GroupKey: group, Fork: 2, Forks: 3, Left: 40 * time.Second},
	}
}

// Plain progress: the group's line with the fork in progress, the time left and the
// forks an earlier run did; a phase line with the fork; a line per fork finished.
func TestProgressPlain(t *testing.T) {
	var out strings.Builder
	pr := newProgress(&out, false)
	for _, ev := range progressEvents() {
		pr.observe(ev)
	}
	pr.finish()
	for _, want := range []string{
		"[1-2/2] 2 targets interleaved, 2 rounds: http-json/tcp/person.get/closed-c2, grpc-proto/tcp/person.get/closed-c2 · fork 2 of 3, about 1m20s left (1 of its forks done in an earlier run)\n",
		"    fork 2 of 3  round 1/2  grpc-proto/tcp/person.get/closed-c2  fork 2 measure 1",
		"    fork 2 of 3 done (person.get/closed-c2), about 40s left\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, out.String())
		}
	}
}

// Forks settled without running (their benchmark failed at once) are said to be not
// run, not done.
func TestProgressForksNotRun(t *testing.T) {
	var out strings.Builder
	pr := newProgress(&out, false)
	pr.observe(runner.Event{Kind: runner.KindFork, Total: 5, Name: "a", Group: []string{"a"}, GroupKey: "person.get/closed-c4",
		Fork: 5, Forks: 25, NotRun: 4, Left: 2 * time.Minute})
	pr.finish()
	if want := "    4 forks not run (person.get/closed-c4): 5 of 25 settled, about 2m0s left\n"; out.String() != want {
		t.Errorf("progress %q, want %q", out.String(), want)
	}
}

// openPTY opens a pseudo-terminal: its controlling side and its terminal.
func openPTY(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return ptmx, tty
}

// On a terminal that knows its size the bar is live and shows the fork in progress,
// the group and the time left; a terminal of no size (which would show no line of a
// bar) gets plain lines.
func TestProgressLive(t *testing.T) {
	ptmx, tty := openPTY(t)
	if liveTerminal(tty) {
		t.Error("a terminal of no size taken as live")
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 150}); err != nil {
		t.Fatal(err)
	}
	if !liveTerminal(tty) {
		t.Fatal("a terminal of 150 × 40 not taken as live")
	}
	read := make(chan string)
	go func() {
		b, _ := io.ReadAll(ptmx) // until the terminal side closes
		read <- string(b)
	}()
	pr := newProgress(tty, true)
	for _, ev := range progressEvents() {
		pr.observe(ev)
	}
	pr.finish()
	tty.Close()
	out := <-read
	for _, want := range []string{"fork 3 of 3  person.get/closed-c2", "about 40s left", "round 1/2  grpc-proto/tcp/person.get/closed-c2"} {
		if !strings.Contains(out, want) {
			t.Errorf("the live bar lacks %q:\n%q", want, out)
		}
	}
}
