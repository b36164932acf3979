package compare

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/testtool"
)

// perfTestdata is benchstat's own test data in the module cache, at the
// golang.org/x/perf version go.mod names.
func perfTestdata(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/perf").Output()
	dir := filepath.Join(strings.TrimSpace(string(out)), "cmd", "benchstat", "testdata")
	if err != nil || strings.TrimSpace(string(out)) == "" {
		testtool.Missing(t, "golang.org/x/perf is not in the module cache: %v", err)
	}
	if _, err := os.Stat(dir); err != nil {
		testtool.Missing(t, "benchstat test data: %v", err)
	}
	return dir
}

// readGoBench reads Go benchmark output into one table per unit, the units
// tidied as benchstat tidies them (ns/op → sec/op, MB/s → B/s).
func readGoBench(t *testing.T, path string) map[string]map[string][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string][]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(fields[0], "Benchmark")
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", path, sc.Text(), err)
			}
			unit := fields[i+1]
			switch unit {
			case "ns/op":
				unit, v = "sec/op", v*1e-9
			case "MB/s":
				unit, v = "B/s", v*1e6
			}
			if out[unit] == nil {
				out[unit] = map[string][]float64{}
			}
			out[unit][name] = append(out[unit][name], v)
		}
	}
	return out
}

// TestBenchstatConformance renders benchstat's own crc-old.txt and
// crc-new.txt test inputs through this package and checks the text against
// the output benchstat's tests expect (crcIgnore.stdout, without its
// configuration lines). It checks the medians, ± ranges, p-values, "~",
// deltas, geomean and the layout at once.
func TestBenchstatConformance(t *testing.T) {
	dir := perfTestdata(t)
	old := readGoBench(t, filepath.Join(dir, "crc-old.txt"))
	new := readGoBench(t, filepath.Join(dir, "crc-new.txt"))
	var names []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(mustRead(t, filepath.Join(dir, "crc-old.txt"))))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 && strings.HasPrefix(f[0], "Benchmark") && !seen[f[0]] {
			seen[f[0]] = true
			names = append(names, strings.TrimPrefix(f[0], "Benchmark"))
		}
	}
	var tables []metricTable
	for _, unit := range []string{"sec/op", "B/s"} {
		mt := metricTable{Unit: unit}
		for _, n := range names {
			o, nw := sorted(old[unit][n]), sorted(new[unit][n])
			mt.Rows = append(mt.Rows, metricRow{Name: n, Old: o, New: nw})
		}
		tables = append(tables, mt)
	}
	var got bytes.Buffer
	if err := writeBenchstat(&got, "crc-old.txt", "crc-new.txt", tables, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	want := mustRead(t, filepath.Join(dir, "crcIgnore.stdout"))
	// Drop the pkg, goarch and goos lines: wirebench has no such keys.
	for range 3 {
		want = want[bytes.IndexByte(want, '\n')+1:]
	}
	if got.String() != string(want) {
		t.Errorf("benchstat format differs from benchstat's own output\n got:\n%s\nwant:\n%s", got.String(), want)
	}
}

// TestBenchstatSmallSample is benchstat's smallSample case: one sample a
// side, so no interval and no test, each said in a footnote.
func TestBenchstatSmallSample(t *testing.T) {
	dir := perfTestdata(t)
	want := mustRead(t, filepath.Join(dir, "smallSample.stdout"))
	var got bytes.Buffer
	tables := []metricTable{{Unit: "sec/op", Rows: []metricRow{{Name: "X", Old: []float64{100e-9}, New: []float64{101e-9}}}}}
	if err := writeBenchstat(&got, "before", "after", tables, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sorted(xs []float64) []float64 {
	xs = append([]float64(nil), xs...)
	sortFloats(xs)
	return xs
}
