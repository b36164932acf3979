package suite_test

import (
	"flag"
	"os"
	"reflect"
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

// TestDocKeys: each key table of docs/suites.md has a row for every key of its table
// in spec, in the table's order, and none other: the file's keys (spec.FileKeys),
// the settings (spec.Settings), the load block's (spec.LoadKeys), a target's
// (spec.TargetKeys, then spec.OutsideKeys), a workload's (spec.WorkloadKeys) and the
// workers block's (spec.WorkersKeys). A row may name several keys (`tls_ca`,
// `tls_cert`), each in backquotes.
func TestDocKeys(t *testing.T) {
	for _, c := range []struct {
		heading string
		want    []string
	}{
		{"## The file\n", spec.KeyNames(spec.FileKeys)},
		{"### Settings\n", spec.SettingKeys()},
		{"### Load\n", spec.LoadKeyNames()},
		{"### Targets\n", append(spec.KeyNames(spec.TargetKeys), spec.KeyNames(spec.OutsideKeys)...)},
		{"### Workloads\n", spec.KeyNames(spec.WorkloadKeys)},
		{"### Workers\n", spec.KeyNames(spec.WorkersKeys)},
	} {
		var keys []string
		for _, row := range docTable(t, c.heading) {
			keys = append(keys, row.keys...)
		}
		if !slices.Equal(keys, c.want) {
			t.Errorf("docs/suites.md's table under %q lists\n %v\nthe keys are\n %v", strings.TrimSpace(c.heading), keys, c.want)
		}
	}
}

var update = flag.Bool("update", false, "rewrite docs/suites.md's settings table from spec.Settings")

// TestDocSettingsTable: docs/suites.md's settings table is the one spec.Settings gives
// (spec.SettingsTable: each setting's key, DocType, default and Doc), so a setting is
// documented in its row of the table and nowhere else. `go test ./suite -run
// TestDocSettingsTable -update` writes it.
func TestDocSettingsTable(t *testing.T) {
	const path = "../docs/suites.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	before, section, ok := strings.Cut(text, "### Settings\n")
	if !ok {
		t.Fatalf("%s has no heading \"### Settings\"", path)
	}
	start := strings.Index(section, "\n|")
	if start < 0 {
		t.Fatalf("%s has no table under \"### Settings\"", path)
	}
	start++
	end := strings.Index(section[start:], "\n\n")
	if end < 0 {
		t.Fatalf("%s: the settings table has no end", path)
	}
	end += start + 1
	got, want := section[start:end], spec.SettingsTable()
	if got == want {
		return
	}
	if *update {
		out := before + "### Settings\n" + section[:start] + want + section[end:]
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("%s's settings table differs from spec.Settings' at its line %d:\n have %s\n want %s\n(go test ./suite -run TestDocSettingsTable -update writes it)", path, i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("%s's settings table has %d lines, spec.Settings gives %d (go test ./suite -run TestDocSettingsTable -update writes it)", path, len(gl), len(wl))
}

// TestDocDefaults: the default docs/suites.md gives each setting is spec.Default's,
// as a suite file writes it (spec.Setting.Format), in backquotes (`1s`, `"0"`), so
// that the docs cannot keep a default the code has left. A zero default is written
// in words ("none", "0") and not checked.
func TestDocDefaults(t *testing.T) {
	d := spec.Default()
	rows := docTable(t, "### Settings\n")
	if len(rows) != len(spec.Settings) {
		t.Fatalf("docs/suites.md's settings table has %d rows, the settings are %d", len(rows), len(spec.Settings))
	}
	for i, st := range spec.Settings {
		v := st.Get(d)
		if reflect.ValueOf(v).IsZero() {
			continue
		}
		cell := rows[i].cells[1] // type, default, meaning
		if want := st.Format(v); !strings.Contains(cell, "`"+want+"`") && !strings.Contains(cell, "`\""+want+"\"`") {
			t.Errorf("docs/suites.md gives %s the default %s; spec.Default's is %s", st.Key, cell, want)
		}
	}
}

// docRow is a row of a key table of docs/suites.md: the backquoted keys of its
// first cell, and the text of the others.
type docRow struct{ keys, cells []string }

// docTable is the rows of the first table after heading in docs/suites.md whose first
// cell starts with a key (not "settings, `load`", which points elsewhere).
func docTable(t *testing.T, heading string) []docRow {
	t.Helper()
	data, err := os.ReadFile("../docs/suites.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, found := strings.Cut(string(data), heading)
	if !found {
		t.Fatalf("docs/suites.md has no heading %q", heading)
	}
	var rows []docRow
	inTable := false
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break // the end of the table
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if !strings.HasPrefix(strings.TrimSpace(cells[0]), "`") {
			continue // the header, its rule, or a row of no key
		}
		var row docRow
		for i, part := range strings.Split(cells[0], "`") {
			if i%2 == 1 {
				row.keys = append(row.keys, part)
			}
		}
		for _, c := range cells[1:] {
			row.cells = append(row.cells, strings.TrimSpace(c))
		}
		rows = append(rows, row)
	}
	return rows
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
