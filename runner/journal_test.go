package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
)

var t0 = time.Date(2026, 11, 27, 22, 0, 0, 123456789, time.UTC)

// testInterval is a one-second interval of ops calls, each taking lat, with an error
// and a server reading; open adds the service and lag histograms.
func testInterval(phase string, i int, ops int64, lat time.Duration, open bool) *results.Interval {
	r := record.NewRecorder(open)
	for k := range ops {
		r.Record(t0, t0.Add(time.Duration(k)), t0.Add(lat+time.Duration(k)*time.Microsecond))
	}
	r.RecordError(record.ErrorKind("timeout"))
	iv := record.NewInterval(open)
	r.Drain(iv)
	iv.Start, iv.End = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i+1)*time.Second)
	iv.FirstErrors = map[record.ErrorKind]string{"timeout": "deadline exceeded"}
	return &results.Interval{Phase: phase, Index: i, Interval: iv, BytesSent: 100 * ops, BytesReceived: -1,
		ClientCPU: 300 * time.Millisecond, ClientCPUs: 2, LinkCPU: time.Millisecond,
		Server: &results.ProcReading{Time: iv.End, CPU: 7 * time.Second, RSS: 1 << 20, PeakRSS: 2 << 20}, ServerCPU: 400 * time.Millisecond}
}

func testFork(index int, open bool) *results.Fork {
	parts := []*results.Interval{testInterval("measure", 1, 30, 2*time.Millisecond, open), testInterval("measure", 1, 20, 3*time.Millisecond, open)}
	return &results.Fork{Index: index, Warmup: testInterval("warmup", 0, 10, time.Millisecond, open),
		WarmupSlices:  []*results.Interval{testInterval("warmup", 0, 5, time.Millisecond, open), testInterval("warmup", 1, 5, time.Millisecond, open)},
		WarmupSettled: true,
		Intervals:     []*results.Interval{testInterval("measure", 0, 40, time.Millisecond, open), results.Merge(parts)},
		Err:           &results.ForkError{Fork: index, Phase: "round 2", Err: errors.New("connection reset")}}
}

// sameInterval fails t unless got holds what want does, histograms included.
func sameInterval(t *testing.T, what string, got, want *results.Interval) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	if want == nil {
		return
	}
	if got.Phase != want.Phase || got.Index != want.Index || !got.Start.Equal(want.Start) || !got.End.Equal(want.End) ||
		got.Ops != want.Ops || got.Errors["timeout"] != want.Errors["timeout"] || got.FirstErrors["timeout"] != want.FirstErrors["timeout"] ||
		got.BytesSent != want.BytesSent || got.BytesReceived != want.BytesReceived || got.ClientCPU != want.ClientCPU ||
		got.ClientCPUs != want.ClientCPUs || got.LinkCPU != want.LinkCPU || got.ServerCPU != want.ServerCPU ||
		(got.Server == nil) != (want.Server == nil) || want.Server != nil && (got.Server.PeakRSS != want.Server.PeakRSS || !got.Server.Time.Equal(want.Server.Time)) {
		t.Errorf("%s: got %+v, want %+v", what, got, want)
	}
	for _, q := range []float64{50, 99, 100} {
		if g, w := got.Resp.ValueAtQuantile(q), want.Resp.ValueAtQuantile(q); g != w {
			t.Errorf("%s: response p%g %d, want %d", what, q, g, w)
		}
	}
	if (got.Lag == nil) != (want.Lag == nil) || want.Lag != nil && (got.Lag.TotalCount() != want.Lag.TotalCount() || got.Service.Max() != want.Service.Max()) {
		t.Errorf("%s: lag or service histogram not kept", what)
	}
	if len(got.Parts) != len(want.Parts) {
		t.Fatalf("%s: %d parts, want %d", what, len(got.Parts), len(want.Parts))
	}
	for k := range want.Parts {
		sameInterval(t, what+" part", got.Parts[k], want.Parts[k])
	}
}

// A fork read back from the journal is the fork the driver measured: every interval
// with its histograms, CPU, bytes, server reading and parts, and its error: its text,
// its fork and its phase.
func TestJournalForkRoundTrip(t *testing.T) {
	for _, open := range []bool{false, true} {
		want := testFork(2, open)
		rec, err := forkRecordOf("a", "0 s warmup", want)
		if err != nil {
			t.Fatal(err)
		}
		line, _ := json.Marshal(journalLine{Kind: "fork", Forks: []forkRecord{rec}})
		st, good, err := readJournal(append(line, '\n'))
		if err != nil || good != len(line)+1 {
			t.Fatalf("read: %v, %d of %d bytes", err, good, len(line)+1)
		}
		got := st.forks["a"]
		if len(got) != 1 || st.settings["a"] != "0 s warmup" {
			t.Fatalf("forks %v, settings %q", got, st.settings["a"])
		}
		f := got[0]
		if f.Index != 2 || !f.WarmupSettled || f.Err == nil || f.Err.Error() != want.Err.Error() ||
			len(f.Intervals) != 2 || len(f.WarmupSlices) != 2 {
			t.Fatalf("fork %+v, want %+v", f, want)
		}
		// Where it failed is kept as data, for the fork's phase and the failure warning.
		if fe, ok := f.Err.(*results.ForkError); !ok || fe.Fork != 2 || fe.Phase != "round 2" || fe.Err.Error() != "connection reset" {
			t.Errorf("fork error %#v, want fork 2's round 2: connection reset", f.Err)
		}
		sameInterval(t, "warmup", f.Warmup, want.Warmup)
		for k := range want.Intervals {
			sameInterval(t, "interval", f.Intervals[k], want.Intervals[k])
		}
		for k := range want.WarmupSlices {
			sameInterval(t, "warmup slice", f.WarmupSlices[k], want.WarmupSlices[k])
		}
	}
}

// testJournal is a journal of a header, two forks of a group of two targets, the
// group's line, and a fork of the next group: its lines, each ending in a newline.
func testJournal(t testing.TB) [][]byte {
	var lines [][]byte
	add := func(l journalLine) {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, append(b, '\n'))
	}
	args := map[string]json.RawMessage{"smoke": json.RawMessage("true")}
	add(journalLine{Kind: "header", Suite: "quick", Environment: &results.Environment{Cores: 2}, Args: args})
	for i := range 2 {
		var recs []forkRecord
		for _, name := range []string{"a", "b"} {
			r, err := forkRecordOf(name, "s", testFork(i, false))
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
		}
		add(journalLine{Kind: "fork", Forks: recs})
	}
	add(journalLine{Kind: "group", Benchmarks: []results.Benchmark{{Name: "a"}, {Name: "b"}}})
	r, _ := forkRecordOf("c", "s", testFork(0, true))
	add(journalLine{Kind: "fork", Forks: []forkRecord{r}})
	return lines
}

// counts is what a journal state holds: header or not, forks, summaries.
func counts(st *journalState) (header bool, forks, benchmarks int) {
	for _, fs := range st.forks {
		forks += len(fs)
	}
	return st.header != nil, forks, len(st.benchmarks)
}

// A journal torn anywhere (a kill in the middle of a write) reads as its complete
// lines before the tear, every one of them; a line that does not parse before the
// last is an error, not a record dropped in silence.
func TestReadJournalTorn(t *testing.T) {
	lines := testJournal(t)
	data := bytes.Join(lines, nil)
	ends := []int{0}
	for _, l := range lines {
		ends = append(ends, ends[len(ends)-1]+len(l))
	}
	// What the first k lines hold, counted by hand from testJournal.
	want := []struct {
		header            bool
		forks, benchmarks int
	}{{false, 0, 0}, {true, 0, 0}, {true, 2, 0}, {true, 4, 0}, {true, 4, 2}, {true, 5, 2}}
	// Cuts at, next to and between every line end (every byte: half a minute of
	// histogram decoding).
	var cuts []int
	for i, e := range ends {
		cuts = append(cuts, e, min(e+1, len(data)), max(e-1, 0))
		if i+1 < len(ends) {
			cuts = append(cuts, (e+ends[i+1])/2)
		}
	}
	for _, cut := range cuts {
		k := 0
		for k+1 < len(ends) && ends[k+1] <= cut {
			k++
		}
		st, good, err := readJournal(data[:cut])
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if good != ends[k] {
			t.Fatalf("cut at %d: %d good bytes, want %d (%d lines)", cut, good, ends[k], k)
		}
		h, f, b := counts(st)
		if h != want[k].header || f != want[k].forks || b != want[k].benchmarks {
			t.Fatalf("cut at %d: header %v, %d forks, %d summaries; want %+v", cut, h, f, b, want[k])
		}
	}
	// The torn line with a newline after it (a later line written after a tear that was
	// not cut away) is corruption.
	bad := bytes.Join([][]byte{lines[0], lines[1][:len(lines[1])/2], []byte("\n"), lines[2]}, nil)
	if _, _, err := readJournal(bad); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a bad line 2 before a good one: error %v, want one naming line 2", err)
	}
}

// Resuming cuts the torn last line away before appending, so the next line starts on
// a line of its own; ReadHeader gives the suite and the arguments, and says a
// directory without a journal is no run.
func TestOpenJournalResumeCutsTear(t *testing.T) {
	dir := t.TempDir()
	lines := testJournal(t)
	torn := append(bytes.Join(lines[:3], nil), lines[3][:20]...)
	if err := os.WriteFile(filepath.Join(dir, JournalFile), torn, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := ReadHeader(dir)
	if err != nil || h.Suite != "quick" || string(h.Args["smoke"]) != "true" {
		t.Fatalf("header %+v, %v", h, err)
	}
	j, st, err := openJournal(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, f, _ := counts(st); f != 4 {
		t.Errorf("%d forks read, want 4", f)
	}
	if err := j.append(journalLine{Kind: "group", Benchmarks: []results.Benchmark{{Name: "x"}}}); err != nil {
		t.Fatal(err)
	}
	j.close()
	data, _ := os.ReadFile(filepath.Join(dir, JournalFile))
	st, good, err := readJournal(data)
	if err != nil || good != len(data) || len(st.benchmarks) != 1 {
		t.Errorf("after the resume's append: %v, %d of %d bytes good, %d summaries", err, good, len(data), len(st.benchmarks))
	}
	if _, err := ReadHeader(t.TempDir()); !errors.Is(err, ErrNoRun) {
		t.Errorf("an empty directory: %v, want ErrNoRun", err)
	}
	if _, _, err := openJournal(t.TempDir(), true); !errors.Is(err, ErrNoRun) {
		t.Errorf("resuming an empty directory: %v, want ErrNoRun", err)
	}
}

// FuzzReadJournal reads whatever a crash may leave: it never panics, what it keeps
// is whole lines, reading what it kept gives the same, and a journal whose lines all
// parse, cut in the middle of any line, keeps every line before the cut.
func FuzzReadJournal(f *testing.F) {
	// Small journals: decoding a histogram allocates its whole range, which makes a
	// fuzzed run of a large one slow.
	one := &results.Fork{Intervals: []*results.Interval{testInterval("measure", 0, 3, time.Millisecond, false)}}
	rec, err := forkRecordOf("a", "s", one)
	if err != nil {
		f.Fatal(err)
	}
	var data []byte
	for _, l := range []journalLine{{Kind: "header", Suite: "quick"}, {Kind: "fork", Forks: []forkRecord{rec}},
		{Kind: "group", Benchmarks: []results.Benchmark{{Name: "a"}}}} {
		b, _ := json.Marshal(l)
		data = append(append(data, b...), '\n')
	}
	f.Add(data)
	f.Add(data[:len(data)-7])
	f.Add([]byte(`{"kind":"fork","forks":[{"name":"a","index":0,"intervals":[{"phase":"measure","resp":"x","ops":1}]}]}` + "\n"))
	f.Add([]byte("{\"kind\":\"header\"}\n\x00\x00\x00"))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, good, err := readJournal(data)
		if err != nil {
			return
		}
		if good > len(data) || good > 0 && data[good-1] != '\n' {
			t.Fatalf("%d good bytes of %d, not ending a line", good, len(data))
		}
		again, good2, err := readJournal(data[:good])
		if err != nil || good2 != good {
			t.Fatalf("reading the kept %d bytes again: %v, %d", good, err, good2)
		}
		h, f, b := counts(st)
		if h2, f2, b2 := counts(again); h != h2 || f != f2 || b != b2 {
			t.Fatalf("kept bytes read as %v %d %d, first read %v %d %d", h2, f2, b2, h, f, b)
		}
		if good != len(data) {
			return
		}
		// Every line parses: cut each in the middle.
		start := 0
		for start < len(data) {
			end := start + bytes.IndexByte(data[start:], '\n') + 1
			if _, g, err := readJournal(data[:start+(end-start)/2]); err != nil || g != start {
				t.Fatalf("cut in the line at %d: %v, %d good bytes, want %d", start, err, g, start)
			}
			start = end
		}
	})
}
