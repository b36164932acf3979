package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
)

// JournalFile is the name of the journal in a run's output directory.
const JournalFile = "journal.jsonl"

// ResultsFile is the results of a finished run, in its directory (store.ResultsFile
// too, which runner does not import: see EarlierTimings).
const ResultsFile = "results.json"

// ErrNoRun is the error of ReadHeader for a directory that holds no run.
var ErrNoRun = errors.New("not a wirebench run")

// journal is the durable record of a run: a header line (the suite, the environment,
// the arguments the run was started with), then one line per finished fork (what it
// measured of each target, histograms included) and one per finished comparison group
// (its benchmarks, summarized). Each line is written whole and synced to disk before
// the run goes on, so a run killed at any moment (kill -9 included) loses at most the
// fork in progress. A torn last line, from a kill in the middle of a write, is dropped
// when the journal is reopened.
type journal struct {
	f *os.File
}

type journalLine struct {
	Kind        string               `json:"kind"` // "header", "fork", "group" or "reference"
	Suite       string               `json:"suite,omitempty"`
	Environment *results.Environment `json:"environment,omitempty"`
	// Args are the run's arguments (Options.Args), in the header.
	Args map[string]json.RawMessage `json:"args,omitempty"`
	// Forks are one fork's targets, in a fork line.
	Forks      []forkRecord        `json:"forks,omitempty"`
	Benchmarks []results.Benchmark `json:"benchmarks,omitempty"`
	// Reference is a batch's reference, in a reference line: written when its start
	// is measured and again, whole, at its end (the later line of a batch wins).
	Reference *results.ReferenceRun `json:"reference,omitempty"`
}

// forkRecord is one fork of one benchmark, as the driver measured it.
type forkRecord struct {
	Name string `json:"name"`
	// Settings says how the benchmark was measured (settingsOf), for sameSettings.
	Settings      string      `json:"settings"`
	Index         int         `json:"index"`
	Warmup        *ivRecord   `json:"warmup,omitempty"`
	WarmupSlices  []*ivRecord `json:"warmup_slices,omitempty"`
	WarmupSettled bool        `json:"warmup_settled,omitempty"`
	KeepAlive     int         `json:"keepalive,omitempty"`
	Intervals     []*ivRecord `json:"intervals"`
	// Error is why the fork failed, and Phase what it was doing then
	// (results.ForkError); a journal written before Phase holds the whole error's
	// text in Error.
	Error string `json:"error,omitempty"`
	Phase string `json:"phase,omitempty"`
}

// ivRecord is a results.Interval with its histograms encoded (record.EncodeHistogram)
// and its durations in nanoseconds.
type ivRecord struct {
	Phase         string                      `json:"phase"`
	Index         int                         `json:"index"`
	Start         time.Time                   `json:"start"`
	End           time.Time                   `json:"end"`
	Ops           int64                       `json:"ops"`
	Errors        map[record.ErrorKind]int64  `json:"errors,omitempty"`
	FirstErrors   map[record.ErrorKind]string `json:"first_errors,omitempty"`
	Resp          string                      `json:"resp"`
	Service       string                      `json:"service,omitempty"`
	Lag           string                      `json:"lag,omitempty"`
	Clamped       int64                       `json:"clamped,omitempty"`
	Overflow      int64                       `json:"overflow,omitempty"`
	BytesSent     int64                       `json:"bytes_sent"`
	BytesReceived int64                       `json:"bytes_received"`
	ClientCPU     time.Duration               `json:"client_cpu_ns"`
	ClientCPUs    int                         `json:"client_cpus"`
	LinkCPU       time.Duration               `json:"link_cpu_ns,omitempty"`
	Parts         []*ivRecord                 `json:"parts,omitempty"`
	Server        *results.ProcReading        `json:"server,omitempty"`
	ServerCPU     time.Duration               `json:"server_cpu_ns,omitempty"`
}

// journalState is what an existing journal holds.
type journalState struct {
	header *journalLine
	// benchmarks are the groups' summaries, in journal order.
	benchmarks []results.Benchmark
	// forks are the journaled forks by benchmark, in journal order, and settings how
	// each benchmark's were measured.
	forks    map[string][]*results.Fork
	settings map[string]string
	// references are the batches' references, by batch, in journal order.
	references []results.ReferenceRun
}

// openJournal opens dir's journal for appending. With resume it reads what the
// journal holds (and cuts a torn last line); without, the journal must not exist yet,
// so a second run cannot mix its results into a first one's directory.
func openJournal(dir string, resume bool) (*journal, *journalState, error) {
	path := filepath.Join(dir, JournalFile)
	if !resume {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return nil, nil, fmt.Errorf("%s already holds a run: resume it with --resume %s, or choose another --out", dir, dir)
		}
		if err != nil {
			return nil, nil, err
		}
		return &journal{f: f}, newJournalState(), nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("nothing to resume in %s: it has no %s (%w)", dir, JournalFile, ErrNoRun)
	}
	if err != nil {
		return nil, nil, err
	}
	st, good, err := readJournal(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	if err := f.Truncate(int64(good)); err != nil {
		f.Close()
		return nil, nil, err
	}
	if _, err := f.Seek(int64(good), io.SeekStart); err != nil {
		f.Close()
		return nil, nil, err
	}
	return &journal{f: f}, st, nil
}

func newJournalState() *journalState {
	return &journalState{forks: map[string][]*results.Fork{}, settings: map[string]string{}}
}

// Header is what a run's journal says of the run: its suite's name and the
// arguments it was started with (Options.Args; nil in journals written before they
// were recorded, or when the run was killed before its header was written).
type Header struct {
	Suite string
	Args  map[string]json.RawMessage
}

// ReadHeader reads the header of the run journaled in dir; a directory without a
// journal is ErrNoRun.
func ReadHeader(dir string) (*Header, error) {
	data, err := os.ReadFile(filepath.Join(dir, JournalFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w: it has no %s", dir, ErrNoRun, JournalFile)
	}
	if err != nil {
		return nil, err
	}
	st, _, err := readJournal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, JournalFile), err)
	}
	if st.header == nil {
		return &Header{}, nil
	}
	return &Header{Suite: st.header.Suite, Args: st.header.Args}, nil
}

// readJournal parses a journal and returns the length of its complete lines. A last
// line without its newline, or that does not parse, is torn (a kill in the middle of
// its write) and left out; a line before it that does not parse is an error, since
// dropping it would lose a record silently.
func readJournal(data []byte) (*journalState, int, error) {
	st := newJournalState()
	good := 0
	for n := 1; good < len(data); n++ {
		nl := bytes.IndexByte(data[good:], '\n')
		if nl < 0 {
			break // no newline: a torn last line
		}
		end := good + nl + 1
		if err := st.add(data[good : end-1]); err != nil {
			if end == len(data) {
				break // the last line, torn
			}
			return nil, 0, fmt.Errorf("line %d: %v", n, err)
		}
		good = end
	}
	return st, good, nil
}

// add adds one journal line to st; st is unchanged when it fails.
func (st *journalState) add(line []byte) error {
	var l journalLine
	if err := json.Unmarshal(line, &l); err != nil {
		return err
	}
	switch l.Kind {
	case "header":
		if st.header == nil {
			st.header = &l
		}
	case "fork":
		forks := make([]*results.Fork, len(l.Forks))
		for i, r := range l.Forks {
			f, err := r.fork()
			if err != nil {
				return fmt.Errorf("fork %d of %s: %v", r.Index+1, r.Name, err)
			}
			forks[i] = f
		}
		for i, r := range l.Forks {
			st.forks[r.Name] = append(st.forks[r.Name], forks[i])
			st.settings[r.Name] = r.Settings
		}
	case "group":
		st.benchmarks = append(st.benchmarks, l.Benchmarks...)
	case "reference":
		if l.Reference == nil {
			return errors.New("a reference line without its reference")
		}
		st.addReference(*l.Reference)
	default:
		return fmt.Errorf("unknown entry %q", l.Kind)
	}
	return nil
}

// retryFailed forgets what failed, so that a resume measures it again, on new
// workers: the forks that failed (a worker that crashed, a pod that went away) and the
// summaries of the benchmarks that failed. The forks that finished are kept.
func (st *journalState) retryFailed() {
	st.benchmarks = slices.DeleteFunc(st.benchmarks, func(b results.Benchmark) bool {
		return slices.ContainsFunc(b.Warnings, func(w results.Warning) bool { return w.Kind == results.WarnFailed })
	})
	for name, forks := range st.forks {
		st.forks[name] = slices.DeleteFunc(forks, func(f *results.Fork) bool { return f.Err != nil })
	}
}

// append writes one line and syncs it to disk.
func (j *journal) append(l journalLine) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("syncing the journal: %w", err)
	}
	return nil
}

func (j *journal) close() error { return j.f.Close() }

// forkRecordOf is f, a fork of the benchmark name measured as settings says, as the
// journal holds it.
func forkRecordOf(name, settings string, f *results.Fork) (forkRecord, error) {
	r := forkRecord{Name: name, Settings: settings, Index: f.Index, WarmupSettled: f.WarmupSettled, KeepAlive: f.KeepAlive}
	if f.Err != nil {
		r.Phase, r.Error = results.ForkFailure(f.Err)
	}
	var err error
	if r.Warmup, err = ivRecordOf(f.Warmup); err != nil {
		return r, err
	}
	if r.WarmupSlices, err = ivRecordsOf(f.WarmupSlices); err != nil {
		return r, err
	}
	if r.Intervals, err = ivRecordsOf(f.Intervals); err != nil {
		return r, err
	}
	return r, nil
}

func ivRecordsOf(ivs []*results.Interval) ([]*ivRecord, error) {
	var out []*ivRecord
	for _, iv := range ivs {
		r, err := ivRecordOf(iv)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func ivRecordOf(iv *results.Interval) (*ivRecord, error) {
	if iv == nil {
		return nil, nil
	}
	r := &ivRecord{Phase: iv.Phase, Index: iv.Index, Start: iv.Start, End: iv.End, Ops: iv.Ops,
		Errors: iv.Errors, FirstErrors: iv.FirstErrors, Clamped: iv.Clamped, Overflow: iv.Overflow,
		BytesSent: iv.BytesSent, BytesReceived: iv.BytesReceived, ClientCPU: iv.ClientCPU,
		ClientCPUs: iv.ClientCPUs, LinkCPU: iv.LinkCPU, Server: iv.Server, ServerCPU: iv.ServerCPU}
	var err error
	if r.Resp, err = record.EncodeHistogram(iv.Resp); err != nil {
		return nil, err
	}
	if iv.Service != nil {
		if r.Service, err = record.EncodeHistogram(iv.Service); err != nil {
			return nil, err
		}
	}
	if iv.Lag != nil {
		if r.Lag, err = record.EncodeHistogram(iv.Lag); err != nil {
			return nil, err
		}
	}
	if len(iv.Parts) > 0 {
		if r.Parts, err = ivRecordsOf(iv.Parts); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// fork is the inverse of forkRecordOf.
func (r forkRecord) fork() (*results.Fork, error) {
	f := &results.Fork{Index: r.Index, WarmupSettled: r.WarmupSettled, KeepAlive: r.KeepAlive}
	switch {
	case r.Phase != "":
		f.Err = &results.ForkError{Fork: r.Index, Phase: r.Phase, Err: errors.New(r.Error)}
	case r.Error != "":
		f.Err = errors.New(r.Error)
	}
	var err error
	if f.Warmup, err = r.Warmup.interval(); err != nil {
		return nil, err
	}
	if f.WarmupSlices, err = intervals(r.WarmupSlices); err != nil {
		return nil, err
	}
	if f.Intervals, err = intervals(r.Intervals); err != nil {
		return nil, err
	}
	return f, nil
}

func intervals(rs []*ivRecord) ([]*results.Interval, error) {
	var out []*results.Interval
	for _, r := range rs {
		if r == nil {
			return nil, errors.New("an empty interval")
		}
		iv, err := r.interval()
		if err != nil {
			return nil, err
		}
		out = append(out, iv)
	}
	return out, nil
}

// interval is the inverse of ivRecordOf; it checks, as the driver does of a worker's
// interval, that the response histogram counts the interval's ops.
func (r *ivRecord) interval() (*results.Interval, error) {
	if r == nil {
		return nil, nil
	}
	iv := &results.Interval{Phase: r.Phase, Index: r.Index, Interval: &record.Interval{Start: r.Start, End: r.End,
		Ops: r.Ops, Errors: r.Errors, FirstErrors: r.FirstErrors, Clamped: r.Clamped, Overflow: r.Overflow},
		BytesSent: r.BytesSent, BytesReceived: r.BytesReceived, ClientCPU: r.ClientCPU, ClientCPUs: r.ClientCPUs,
		LinkCPU: r.LinkCPU, Server: r.Server, ServerCPU: r.ServerCPU}
	if iv.Errors == nil {
		iv.Errors = map[record.ErrorKind]int64{}
	}
	var err error
	if iv.Resp, err = record.DecodeHistogram(r.Resp); err != nil {
		return nil, err
	}
	if iv.Resp == nil || iv.Resp.TotalCount() != iv.Ops {
		return nil, fmt.Errorf("interval %s %d: its response histogram does not count its %d ops", r.Phase, r.Index+1, r.Ops)
	}
	if iv.Service, err = record.DecodeHistogram(r.Service); err != nil {
		return nil, err
	}
	if iv.Lag, err = record.DecodeHistogram(r.Lag); err != nil {
		return nil, err
	}
	if iv.Parts, err = intervals(r.Parts); err != nil {
		return nil, err
	}
	return iv, nil
}
