package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wirebench/wirebench/results"
)

// The test binary doubles as a writer process for the tests of several processes:
// with STORE_TEST_WRITER set it records documents into STORE_TEST_PATH and exits.
func TestMain(m *testing.M) {
	if role := os.Getenv("STORE_TEST_WRITER"); role != "" {
		os.Exit(writer(role))
	}
	os.Exit(m.Run())
}

// writer records the documents STORE_TEST_FIRST..+STORE_TEST_COUNT−1. With role
// "hang", after those it starts one more and stops inside its transaction, after
// saying "in transaction" on stdout, until it is killed.
func writer(role string) int {
	path := os.Getenv("STORE_TEST_PATH")
	first, _ := strconv.Atoi(os.Getenv("STORE_TEST_FIRST"))
	count, _ := strconv.Atoi(os.Getenv("STORE_TEST_COUNT"))
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := first; i < first+count; i++ {
		if _, _, err := s.Record(ctx, document(i), Tags{Branch: "main", Machine: "m"}, "writer"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if role == "hang" {
		afterRunInsert = func() {
			fmt.Println("in transaction")
			select {} // until killed
		}
		s.Record(ctx, document(first+count), Tags{Branch: "main", Machine: "m"}, "writer")
	}
	return 0
}

// document is a valid results document with two benchmarks whose scores derive
// from i, started i minutes after a fixed time.
func document(i int) []byte {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	res := &results.Results{SchemaVersion: results.SchemaVersion, Environment: results.Environment{Started: start}}
	for j, name := range []string{"http-json/tcp/echo/closed-c1", "grpc-proto/tcp/echo/closed-c1"} {
		score := 1000 + float64(10*i+j)
		b := results.Benchmark{Name: name, Protocol: strings.Split(name, "/")[0], Transport: "tcp", Workload: "echo",
			Load: results.Load{Model: results.ModelClosed, Concurrency: 1, Connections: 1}, Mode: results.ModeThroughput,
			Rounds: 1, Forks: []results.ForkResult{{Slices: []results.Slice{{Seconds: 1, Ops: int64(score), ThroughputOpsS: score}}}},
			Summary: results.Summary{ThroughputOpsS: results.Throughput{Mean: score, Error: 5, CI: 0.999, N: 1}, Ops: int64(score),
				LatencyUs: results.Latency{P99: 900}}}
		if j == 1 {
			b.Summary.Relative = &results.Relative{Baseline: "http-json/tcp/echo/closed-c1", Rounds: 5,
				Ratio: results.Ratio{Mean: 1.01, CILow: 0.99, CIHigh: 1.03, CI: 0.999}}
		}
		res.Benchmarks = append(res.Benchmarks, b)
	}
	doc, err := Encode(res)
	if err != nil {
		panic(err)
	}
	return doc
}

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A recorded run comes back with its tags and entries; the same document twice is
// one run; filters select by branch, machine, benchmark and time.
func TestRecordAndQuery(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "sub", "h.db"))
	r, added, err := s.Record(ctx, document(1), Tags{Commit: "c1", Branch: "main", Machine: "ci"}, "test")
	if err != nil || !added {
		t.Fatalf("Record: %v, added %v", err, added)
	}
	if _, added, err := s.Record(ctx, document(1), Tags{Commit: "other", Branch: "x"}, "again"); err != nil || added {
		t.Fatalf("the same document again: added %v, %v; want not added", added, err)
	}
	if _, _, err := s.Record(ctx, document(2), Tags{Commit: "c2", Branch: "feature", Machine: "ci"}, "test"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Record(ctx, document(3), Tags{Commit: "c3", Branch: "main", Machine: "laptop"}, "test"); err != nil {
		t.Fatal(err)
	}
	if runs, entries, _ := s.Count(ctx); runs != 3 || entries != 6 {
		t.Errorf("%d runs, %d entries; want 3 and 6", runs, entries)
	}
	all, err := s.Runs(ctx, Filter{})
	if err != nil || len(all) != 3 {
		t.Fatalf("Runs: %d, %v", len(all), err)
	}
	got := all[0]
	if got.ID != r.ID || got.Commit != "c1" || got.Branch != "main" || got.Machine != "ci" || len(got.Entries) != 2 ||
		!got.Time.Equal(time.Date(2026, 11, 1, 0, 1, 0, 0, time.UTC)) {
		t.Errorf("first run %+v", got)
	}
	e0, e1 := got.Entries[0], got.Entries[1]
	// document(1)'s scores are 1000 + 10·1 + j.
	if e0.Name != "http-json/tcp/echo/closed-c1" || e0.Score != 1010 || e0.Error != 5 || !math.IsNaN(e0.Ratio) {
		t.Errorf("entry 0 %+v", e0)
	}
	if e1.Score != 1011 || e1.Ratio != 1.01 || e1.RatioLow != 0.99 || e1.Baseline != "http-json/tcp/echo/closed-c1" {
		t.Errorf("entry 1 %+v", e1)
	}
	for _, c := range []struct {
		f       Filter
		runs    int
		entries int
	}{
		{Filter{Branch: "main"}, 2, 4},
		{Filter{Machine: "laptop"}, 1, 2},
		{Filter{Benchmark: "grpc"}, 3, 3},
		{Filter{Since: time.Date(2026, 11, 1, 0, 2, 0, 0, time.UTC)}, 2, 4},
		{Filter{Until: time.Date(2026, 11, 1, 0, 2, 0, 0, time.UTC)}, 1, 2},
		{Filter{Branch: "nope"}, 0, 0},
	} {
		runs, err := s.Runs(ctx, c.f)
		n := 0
		for _, r := range runs {
			n += len(r.Entries)
		}
		if err != nil || len(runs) != c.runs || n != c.entries {
			t.Errorf("%+v: %d runs, %d entries (%v); want %d, %d", c.f, len(runs), n, err, c.runs, c.entries)
		}
	}
	latest, ok, err := s.Latest(ctx, Filter{Branch: "main"}, "")
	if err != nil || !ok || latest.Commit != "c3" {
		t.Errorf("latest of main: %+v %v %v; want c3", latest, ok, err)
	}
	latest, ok, _ = s.Latest(ctx, Filter{Branch: "main"}, latest.Key)
	if !ok || latest.Commit != "c1" {
		t.Errorf("latest of main but c3: %+v; want c1", latest)
	}
	if doc, err := s.Document(ctx, r.ID); err != nil || string(doc) != string(document(1)) {
		t.Errorf("the document does not come back as recorded (%v)", err)
	}
}

func TestRecordRefusesBadDocuments(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	for _, doc := range []string{"", "{", `{"schema_version": 9}`, `{"schema_version": 1, "environment": {}, "benchmarks": []}`} {
		if _, _, err := s.Record(context.Background(), []byte(doc), Tags{}, "test"); err == nil {
			t.Errorf("document %q recorded", doc)
		}
	}
	if _, err := Open(context.Background(), ""); err == nil {
		t.Error("Open with no path succeeded")
	}
}

func writerCmd(t *testing.T, path, role string, first, count int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STORE_TEST_WRITER="+role, "STORE_TEST_PATH="+path,
		"STORE_TEST_FIRST="+strconv.Itoa(first), "STORE_TEST_COUNT="+strconv.Itoa(count))
	cmd.Stderr = os.Stderr
	return cmd
}

// Two processes recording at once into one new file lose and duplicate nothing:
// every run each wrote is there once, with its entries.
func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	const each = 15
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = writerCmd(t, path, "write", w*each, each).Run()
		}()
	}
	wg.Wait()
	for w, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", w, err)
		}
	}
	s := open(t, path)
	runs, err := s.Runs(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range runs {
		seen[r.Key]++
		if len(r.Entries) != 2 {
			t.Errorf("run %d has %d entries, want 2", r.ID, len(r.Entries))
		}
	}
	if len(runs) != 2*each || len(seen) != 2*each {
		t.Errorf("%d runs, %d distinct; want %d", len(runs), len(seen), 2*each)
	}
	for i := range 2 * each {
		if _, added, err := s.Record(context.Background(), document(i), Tags{}, "check"); err != nil || added {
			t.Errorf("document %d was not in the store (added %v, %v)", i, added, err)
		}
	}
}

// A writer killed (SIGKILL) inside its transaction leaves the runs it committed and
// none of the one it was writing; the file is sound, another writer goes on at
// once, and the killed run can be recorded again, once.
func TestWriterKilledMidTransaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	cmd := writerCmd(t, path, "hang", 0, 3)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "in transaction\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("writer said %q (%v)", line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	s := open(t, path)
	ctx := context.Background()
	var check string
	if err := s.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity check: %q, %v", check, err)
	}
	if runs, entries, _ := s.Count(ctx); runs != 3 || entries != 6 {
		t.Fatalf("after the kill: %d runs, %d entries; want the 3 committed runs and their 6 entries", runs, entries)
	}
	if _, added, err := s.Record(ctx, document(3), Tags{}, "retry"); err != nil || !added {
		t.Fatalf("recording the killed run again: added %v, %v", added, err)
	}
	if _, added, _ := s.Record(ctx, document(3), Tags{}, "retry"); added {
		t.Error("the run was recorded twice")
	}
	if runs, entries, _ := s.Count(ctx); runs != 4 || entries != 8 {
		t.Errorf("%d runs, %d entries; want 4 and 8", runs, entries)
	}
}

func TestFindResults(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"20261101-100000", "20261102-100000", "empty"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	for _, d := range []string{"20261102-100000", "20261101-100000"} {
		os.WriteFile(filepath.Join(dir, d, ResultsFile), document(1), 0o644)
	}
	got, err := FindResults(dir)
	if err != nil || len(got) != 2 || !strings.Contains(got[0], "20261101") {
		t.Errorf("FindResults(results dir) = %v, %v", got, err)
	}
	if got, err := FindResults(filepath.Join(dir, "20261102-100000")); err != nil || len(got) != 1 {
		t.Errorf("FindResults(run dir) = %v, %v", got, err)
	}
	if _, err := FindResults(filepath.Join(dir, "empty")); err == nil {
		t.Error("an empty directory gave no error")
	}
	if _, err := FindResults(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing path gave no error")
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	if p, err := DefaultPath(); err != nil || p != "/data/wirebench/history.db" {
		t.Errorf("DefaultPath with XDG_DATA_HOME = %q, %v", p, err)
	}
}

// variant is document(i) changed by edit before encoding.
func variant(t *testing.T, i int, edit func(*results.Results)) []byte {
	t.Helper()
	res, err := results.Read(bytes.NewReader(document(i)))
	if err != nil {
		t.Fatal(err)
	}
	edit(res)
	doc, err := Encode(res)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// A smoke run recorded on purpose is passed over for a baseline (Filter.NoSmoke),
// and Smoke tells it apart from a measured run and from a file before the field.
func TestLatestPassesOverSmoke(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	smoke := variant(t, 2, func(r *results.Results) { r.Smoke = true })
	if !Smoke(smoke) || Smoke(document(1)) || Smoke([]byte("not json")) {
		t.Fatal("Smoke does not tell a smoke run from a measured one")
	}
	measured, _, err := s.Record(ctx, document(1), Tags{Branch: "main"}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Record(ctx, smoke, Tags{Branch: "main"}, "test"); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Latest(ctx, Filter{Branch: "main", NoSmoke: true}, "")
	if err != nil || !ok || got.ID != measured.ID {
		t.Errorf("Latest without smoke: run %d (ok %v, %v), want the measured run %d", got.ID, ok, err, measured.ID)
	}
	if got, _, _ := s.Latest(ctx, Filter{Branch: "main"}, ""); got.ID == measured.ID {
		t.Error("Latest passes over the smoke run when not asked to")
	}
}

// A ratio whose interval rests on too few forks is stored without one, as the
// run's report prints it ("too few"), not as the point [ratio, ratio].
func TestTooFewForksHaveNoInterval(t *testing.T) {
	doc := variant(t, 1, func(r *results.Results) {
		r.Benchmarks[1].Summary.Relative = &results.Relative{Baseline: r.Benchmarks[0].Name, Rounds: 1, Forks: 1,
			Ratio: results.Ratio{Mean: 1.097, CILow: 1.097, CIHigh: 1.097, CI: 0.999}}
	})
	p, err := parseResults(doc)
	if err != nil {
		t.Fatal(err)
	}
	e := p.entries[1]
	if e.Ratio != 1.097 || !math.IsNaN(e.RatioLow) || !math.IsNaN(e.RatioHigh) {
		t.Errorf("entry %+v: want ratio 1.097 with no interval", e)
	}
}
