package suite_test

import (
	"os"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/suite"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// doc turns a test's suite text, written with a | margin so the lines stay readable in
// Go source, into YAML: each line is the text after its first "|".
func doc(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if _, after, ok := strings.Cut(line, "|"); ok {
			b.WriteString(after)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func mustParse(t *testing.T, text string) *suite.Suite {
	t.Helper()
	s, err := suite.Parse("t.yaml", []byte(doc(text)))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

func names(s *suite.Suite) []string {
	var out []string
	for _, b := range s.Benchmarks {
		out = append(out, b.Name)
	}
	return out
}
