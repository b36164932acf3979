package suite

import (
	"errors"
	"strings"
	"testing"

	_ "github.com/wirebench/wirebench/stack/all"

	"github.com/wirebench/wirebench/suite/originals"
)

const originalSuite = `original: %s
deviations:
  - what: the data set has 20 persons
    why: because
targets: [http-json]
workloads: [person.get]
`

func TestOriginalAndDeviations(t *testing.T) {
	s, err := Parse("s.yaml", []byte(strings.Replace(originalSuite, "%s", "{name: metrifier, setup: cloud}", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if *s.Original != (Original{Name: "metrifier", Setup: "cloud"}) {
		t.Errorf("Original = %+v", s.Original)
	}
	if len(s.Deviations) != 1 || s.Deviations[0] != (Deviation{What: "the data set has 20 persons", Why: "because"}) {
		t.Errorf("Deviations = %+v", s.Deviations)
	}
	s, err = Parse("s.yaml", []byte(strings.Replace(originalSuite, "%s", "rpcecho", 1)))
	if err != nil || *s.Original != (Original{Name: "rpcecho"}) {
		t.Errorf("scalar original: %+v, %v", s.Original, err)
	}
}

// A suite whose original's figures are missing, malformed, or lack the setup it names
// is an error at the original key, carrying the figures file's own position.
func TestOriginalErrors(t *testing.T) {
	malformed := func(string) (*originals.Original, error) {
		return originals.Parse("suite/bundled/originals/bad.yaml", []byte("name: bad\ntitle: [\n"))
	}
	broken := func(string) (*originals.Original, error) {
		return originals.Parse("suite/bundled/originals/bad.yaml", []byte("name: bad\ntitle: t\nsources: []\n"))
	}
	for _, tc := range []struct {
		name, original string
		load           func(string) (*originals.Original, error)
		want           string
	}{
		{"missing", "nope", originals.Load, `s.yaml:1:11: original: no published figures for an original named "nope" (known: akka-http-vs-grpc, grpc-bench, metrifier, metrifier-v1, rest-vs-grpc, rpcecho, rpcecho-2022)`},
		{"syntax", "bad", malformed, `s.yaml:1:11: original: suite/bundled/originals/bad.yaml:1:1: YAML syntax`},
		{"malformed", "bad", broken /* the first line names the suite, the rest the figures file */, "suite/bundled/originals/bad.yaml:3:10: sources: want a list of at least one entry"},
		{"no such setup", "{name: metrifier, setup: moon}", originals.Load, `s.yaml:1:36: original.setup: metrifier has no setup "moon" (its setups: local, cloud)`},
		{"no name", "{setup: local}", originals.Load, `s.yaml:1:11: original: missing name`},
	} {
		_, err := parse("s.yaml", []byte(strings.Replace(originalSuite, "%s", tc.original, 1)), tc.load)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: not a *suite.Error: %T", tc.name, err)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"deviations:\n  - what: x\ntargets: [http-json]\nworkloads: [person.get]\n", "s.yaml:1:1: deviations: from what?"},
		{"original: rpcecho\ndeviations:\n  - what: x\ntargets: [http-json]\nworkloads: [person.get]\n", "s.yaml:3:5: a deviation: missing why"},
		{"original: rpcecho\ndeviations: []\ntargets: [http-json]\nworkloads: [person.get]\n", "s.yaml:2:13: deviations: want a list"},
	} {
		if _, err := Parse("s.yaml", []byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.text, err, tc.want)
		}
	}
}
