package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wirebench/wirebench/results"
)

// JournalFile is the name of the journal in a run's output directory.
const JournalFile = "journal.jsonl"

// journal is the durable record of a run: a header line, then one line per finished
// comparison group (its benchmarks, measured together), each written whole and synced
// to disk before the next group starts, so a run killed at any moment (kill -9
// included) loses at most the group in progress. A torn last line, from a kill in the middle of a write, is dropped when
// the journal is reopened.
type journal struct {
	f *os.File
}

type journalLine struct {
	Kind        string               `json:"kind"` // "header" or "group"
	Suite       string               `json:"suite,omitempty"`
	Environment *results.Environment `json:"environment,omitempty"`
	Benchmarks  []results.Benchmark  `json:"benchmarks,omitempty"`
}

// journalState is what an existing journal holds.
type journalState struct {
	suite      string
	env        *results.Environment
	benchmarks []results.Benchmark
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
		return &journal{f: f}, &journalState{}, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("nothing to resume in %s: it has no %s", dir, JournalFile)
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

// readJournal parses a journal and returns the length of its complete lines.
func readJournal(data []byte) (*journalState, int, error) {
	st := &journalState{}
	good := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		end := good + len(line) + 1
		if end > len(data) {
			break // no newline: a torn last line
		}
		var l journalLine
		if err := json.Unmarshal(line, &l); err != nil {
			if end == len(data) {
				break // the last line, torn
			}
			return nil, 0, fmt.Errorf("line %d: %v", n, err)
		}
		switch {
		case l.Kind == "header":
			st.suite, st.env = l.Suite, l.Environment
		case l.Kind == "group":
			st.benchmarks = append(st.benchmarks, l.Benchmarks...)
		default:
			return nil, 0, fmt.Errorf("line %d: unknown entry %q", n, l.Kind)
		}
		good = end
	}
	return st, good, nil
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
