package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A file written before warnings had kinds (its warnings texts only, its fork's error
// led by "trial N, PHASE: ") reads as the same results written today: each warning's
// kind from the label it begins with, a failure's fork and phase, the fork's phase.
func TestReadWarningsWrittenAsText(t *testing.T) {
	got, err := ReadFile(filepath.Join("testdata", "results-v1-text-warnings.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := sample(t)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings %+v, forks' errors %q %q;\nwant %+v, %q %q", got.Benchmarks[0].Warnings,
			got.Benchmarks[0].Forks[1].Phase, got.Benchmarks[0].Forks[1].Error,
			want.Benchmarks[0].Warnings, want.Benchmarks[0].Forks[1].Phase, want.Benchmarks[0].Forks[1].Error)
	}
}

// A reader from before warning_details (warnings as []string) reads the same texts a
// report prints today, so its reports say what they said.
func TestWarningsReadByOlderReaders(t *testing.T) {
	var buf bytes.Buffer
	if err := sample(t).Write(&buf); err != nil {
		t.Fatal(err)
	}
	var old struct {
		Benchmarks []struct {
			Warnings []string `json:"warnings"`
		} `json:"benchmarks"`
	}
	if err := json.Unmarshal(buf.Bytes(), &old); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`generator-bound: lag p99 40µs is over 1ms <no> & "quoted"`,
		"failed: fork 2, round 2: worker exited: signal: killed",
		"a warning of no kind",
	}
	if got := old.Benchmarks[0].Warnings; !slices.Equal(got, want) {
		t.Errorf("warnings as text %q, want %q", got, want)
	}
	if old.Benchmarks[1].Warnings != nil {
		t.Errorf("a benchmark without warnings wrote %q", old.Benchmarks[1].Warnings)
	}
}

// Each text of an older file, read and printed again, is the text it was, but that a
// failure's place says fork where it said trial.
func TestLegacyWarning(t *testing.T) {
	for _, c := range []struct {
		text string
		want Warning
	}{
		{"generator-bound: the client used 97% of its CPUs", Warning{Kind: WarnGenerator, Text: "the client used 97% of its CPUs"}},
		{"errors: 3 timeout (first: call timeout)", Warning{Kind: WarnErrors, Text: "3 timeout (first: call timeout)"}},
		// A failure in a fork: its number and phase taken apart.
		{"failed: trial 3, warmup: dial tcp: connection refused", Warning{Kind: WarnFailed, Fork: 3, Phase: "warmup", Text: "dial tcp: connection refused"}},
		// A failure before any fork has no place.
		{"failed: resolve http-json: no stack tonic", Warning{Kind: WarnFailed, Text: "resolve http-json: no stack tonic"}},
		{"too few forks or rounds for an interval: its interval rests on 3 forks", Warning{Kind: WarnTooFew, Text: "its interval rests on 3 forks"}},
		{"no steady state: a reached no steady state in 1 of its 5 forks", Warning{Kind: WarnUnsteadyRatio, Text: "a reached no steady state in 1 of its 5 forks"}},
		{"still warming up: no steady state in fork 1", Warning{Kind: WarnStillWarming, Text: "no steady state in fork 1"}},
		{"warmed up: warmed up during the rounds (fork 2 after 1.0 s (+9 %))", Warning{Kind: WarnWarmedUp, Text: "warmed up during the rounds (fork 2 after 1.0 s (+9 %))"}},
		{"the machine changed under this group's rounds: its speed trended +5 %", Warning{Kind: WarnMachineChanged, Text: "its speed trended +5 %"}},
		{"precision: ±1.0 % not reached", Warning{Kind: WarnPrecision, Text: "±1.0 % not reached"}},
		{"interrupted: 1 of its 3 forks finished", Warning{Kind: WarnInterrupted, Text: "1 of its 3 forks finished"}},
		// No label: of no kind, its text whole.
		{"warm-up did not settle within its 30s in fork 1", Warning{Kind: WarnOther, Text: "warm-up did not settle within its 30s in fork 1"}},
		{"errors are a label only with its colon", Warning{Kind: WarnOther, Text: "errors are a label only with its colon"}},
	} {
		got := legacyWarning(c.text)
		if got != c.want {
			t.Errorf("%q: read %+v, want %+v", c.text, got, c.want)
		}
		if s := got.String(); s != strings.Replace(c.text, "failed: trial ", "failed: fork ", 1) {
			t.Errorf("%q: printed again as %q", c.text, s)
		}
	}
}

// A fork's error of an older file loses its "trial N, PHASE: " to Phase only when N
// is the fork's own number.
func TestLegacyFork(t *testing.T) {
	for _, c := range []struct{ in, want ForkResult }{
		{ForkResult{Index: 1, Error: "trial 2, start: exit status 1"}, ForkResult{Index: 1, Phase: "start", Error: "exit status 1"}},
		{ForkResult{Index: 0, Error: "trial 2, start: exit status 1"}, ForkResult{Index: 0, Error: "trial 2, start: exit status 1"}},
		{ForkResult{Index: 0, Error: "context canceled"}, ForkResult{Index: 0, Error: "context canceled"}},
		{ForkResult{Index: 0, Phase: "round 1", Error: "trial 1, x: y"}, ForkResult{Index: 0, Phase: "round 1", Error: "trial 1, x: y"}},
	} {
		got := c.in
		legacyFork(&got)
		if got.Phase != c.want.Phase || got.Error != c.want.Error {
			t.Errorf("%+v: %+v, want %+v", c.in, got, c.want)
		}
	}
}

// A failure carries the fork (from 1) and phase of the driver's ForkError, whose text
// says them; any other error is a failure of no fork.
func TestFailure(t *testing.T) {
	cause := errors.New("worker exited")
	fe := &ForkError{Fork: 0, Phase: "isolation", Err: cause}
	if fe.Error() != "fork 1, isolation: worker exited" || !errors.Is(fe, cause) {
		t.Errorf("ForkError %q, wraps its cause: %v", fe, errors.Is(fe, cause))
	}
	if w := Failure(fe); w != (Warning{Kind: WarnFailed, Fork: 1, Phase: "isolation", Text: "worker exited"}) || w.String() != "failed: fork 1, isolation: worker exited" {
		t.Errorf("Failure(%q) = %+v, %q", fe, w, w)
	}
	if w := Failure(fmt.Errorf("resolve: %w", cause)); w != (Warning{Kind: WarnFailed, Text: "resolve: worker exited"}) {
		t.Errorf("Failure of no fork = %+v", w)
	}
	joined := errors.Join(fe, errors.New("release: EBUSY"))
	if phase, why := ForkFailure(joined); phase != "" || why != joined.Error() {
		t.Errorf("ForkFailure of a joined error = %q, %q: want its whole text", phase, why)
	}
	if phase, why := ForkFailure(fe); phase != "isolation" || why != "worker exited" {
		t.Errorf("ForkFailure = %q, %q", phase, why)
	}
}

// A detail without a kind does not match the schema.
func TestWarningDetailNeedsAKind(t *testing.T) {
	var buf bytes.Buffer
	if err := sample(t).Write(&buf); err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(buf.Bytes(), []byte(`"kind": "other",`), nil, 1)
	if err := ValidateJSON(bad); err == nil {
		t.Error("a warning detail without a kind validated")
	}
}
