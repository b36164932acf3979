package suite_test

import (
	"os"
	"strings"
	"testing"

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
