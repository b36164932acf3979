package suite_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// TestDocExamples parses every complete suite (a YAML block with targets and
// workloads) in docs/suites.md and checks the benchmark count the text gives for it.
func TestDocExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/suites.md")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"echo-sizes": 9, "echo-sweep": 45, "rate-sweep": 10}
	parsed := 0
	blocks := strings.Split(string(data), "```yaml\n")
	for _, b := range blocks[1:] {
		text, _, _ := strings.Cut(b, "```")
		if !strings.Contains(text, "targets:") || !strings.Contains(text, "workloads:") {
			continue
		}
		s, err := suite.Parse("docs/suites.md", []byte(text))
		if err != nil {
			t.Errorf("example:\n%s\n%v", text, err)
			continue
		}
		parsed++
		if n, ok := want[s.Name]; ok && len(s.Benchmarks) != n {
			t.Errorf("example %s expands to %d benchmarks, the text says %d", s.Name, len(s.Benchmarks), n)
		}
	}
	if parsed < len(want) {
		t.Errorf("parsed %d examples, want at least %d", parsed, len(want))
	}
}

// TestDocSettings: the settings table of docs/suites.md has a row for every setting
// of spec.Settings, in its order, and none other; its load table one for every key
// of spec.LoadKeys.
func TestDocSettings(t *testing.T) {
	if keys, want := docTableKeys(t, "### Settings\n"), spec.SettingKeys(); !slices.Equal(keys, want) {
		t.Errorf("docs/suites.md's settings table lists\n %v\nthe settings are\n %v", keys, want)
	}
	if keys, want := docTableKeys(t, "### Load\n"), spec.LoadKeyNames(); !slices.Equal(keys, want) {
		t.Errorf("docs/suites.md's load table lists\n %v\nthe load keys are\n %v", keys, want)
	}
}

// docTableKeys are the first cells of the first table after heading in
// docs/suites.md, without their backquotes.
func docTableKeys(t *testing.T, heading string) []string {
	t.Helper()
	data, err := os.ReadFile("../docs/suites.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), heading)
	var keys []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| `") {
			key, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			keys = append(keys, key)
		} else if len(keys) > 0 && !strings.HasPrefix(line, "|") {
			break // the end of the table
		}
	}
	return keys
}

// TestDocProtocols: the protocol row of docs/suites.md's targets table names every
// registered protocol.
func TestDocProtocols(t *testing.T) {
	data, err := os.ReadFile("../docs/suites.md")
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "| `protocol` |") {
			row = line
		}
	}
	if row == "" {
		t.Fatal("docs/suites.md has no protocol row")
	}
	for _, name := range protocol.Names() {
		if !strings.Contains(row, "`"+name+"`") {
			t.Errorf("docs/suites.md's protocol row does not name %s: %s", name, row)
		}
	}
}
