package testtool

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that records how the test would have ended.
type recorder struct {
	testing.TB
	ended, msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.ended, r.msg = "failed", fmt.Sprintf(format, args...)
}
func (r *recorder) Skipf(format string, args ...any) {
	r.ended, r.msg = "skipped", fmt.Sprintf(format, args...)
}
func (r *recorder) Logf(format string, args ...any) {
	r.ended, r.msg = "logged", fmt.Sprintf(format, args...)
}

func TestMissingAndPartial(t *testing.T) {
	for _, c := range []struct {
		ci               string
		missing, partial string
	}{
		// A laptop: a missing tool skips the test, or lets it go on with a note.
		{"", "skipped", "logged"},
		{"false", "skipped", "logged"},
		// CI services set CI=true; strconv.ParseBool's spellings of true count too.
		{"true", "failed", "failed"},
		{"1", "failed", "failed"},
		// Not a boolean: not CI.
		{"yes", "skipped", "logged"},
	} {
		t.Setenv("CI", c.ci)
		var m, p recorder
		Missing(&m, "grpcurl is %s", "missing")
		Partial(&p, "grpcurl is %s", "missing")
		if m.ended != c.missing || p.ended != c.partial {
			t.Errorf("CI=%q: Missing %s, Partial %s; want %s, %s", c.ci, m.ended, p.ended, c.missing, c.partial)
		}
		for _, r := range []recorder{m, p} {
			if want := "grpcurl is missing"; r.msg != want && r.msg != "CI=true requires it: "+want {
				t.Errorf("CI=%q: message %q", c.ci, r.msg)
			}
		}
	}
}

func TestCommand(t *testing.T) {
	t.Setenv("CI", "")
	if p := Command(t, "go"); p == "" {
		t.Error("go not found, although it runs this test")
	}
	t.Setenv("CI", "true")
	var r recorder
	Command(&r, "wirebench-no-such-tool")
	if r.ended != "failed" {
		t.Errorf("a missing command under CI=true: %s; want failed", r.ended)
	}
}
