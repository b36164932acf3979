package originals_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/suite/originals"
)

// metrifier-v1's figures are seed 001's raw JMH tables, every Score and Error as
// printed: the seed's first two tables are the laptop's (HttpBenchmark, then
// RPCBenchmark), the next two GCP's. Read from the seed itself (shared/seeds beside
// the repository, as in CI, or beside a directory above it, as for a git worktree),
// not from the figures file; skipped where the seed is absent.
func TestMetrifierV1IsSeed001(t *testing.T) {
	const file = "shared/seeds/001_fa3088d9de939c1b.txt"
	var text []byte
	err := os.ErrNotExist
	for up := "../.."; err != nil && os.IsNotExist(err) && len(up) < 12; up += "/.." {
		text, err = os.ReadFile(up + "/" + file)
	}
	if os.IsNotExist(err) {
		t.Skipf("%s is absent beside the repository: no seed to check the figures against", file)
	}
	if err != nil {
		t.Fatal(err)
	}
	o, err := originals.Load("metrifier-v1")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`^(\w+Benchmark\.\w+) +thrpt +40 +([0-9.]+) ± +([0-9.]+) +ops/s$`)
	setups := []string{"local", "local", "cloud", "cloud"}
	table, seen := -1, 0
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "Benchmark ") && strings.Contains(line, "Score") {
			table++
			continue
		}
		m := row.FindStringSubmatch(line)
		if m == nil || table < 0 {
			continue
		}
		if table >= len(setups) {
			t.Fatalf("the seed has more than %d raw tables", len(setups))
		}
		seen++
		var fig *originals.Figure
		for i := range o.Figures {
			if f := &o.Figures[i]; f.Setup.Name == setups[table] && f.Row == m[1] {
				fig = f
			}
		}
		if fig == nil {
			t.Errorf("seed's %s row %s: no figure", setups[table], m[1])
			continue
		}
		score, _ := strconv.ParseFloat(m[2], 64)
		errv, _ := strconv.ParseFloat(m[3], 64)
		if fig.Value != score || fig.Error != errv || fig.Unit != "ops/s" {
			t.Errorf("%s: %v ± %v %s, the seed prints %s ± %s ops/s", fig.ID, fig.Value, fig.Error, fig.Unit, m[2], m[3])
		}
	}
	if table != len(setups)-1 || seen != len(o.Figures) {
		t.Errorf("read %d raw tables with %d rows from the seed, want 4 tables with the file's %d figures", table+1, seen, len(o.Figures))
	}
}
