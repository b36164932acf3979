// Package store keeps the history of results: every recorded run of run, bench or
// capacity, tagged with its commit, branch, machine and time, in one SQLite file.
//
// Why SQLite (modernc.org/sqlite, pure Go) rather than DuckDB or a server: the store
// needs no cgo (wirebench builds with CGO_ENABLED=0 for its image and releases, and
// DuckDB's Go driver is cgo), it is one file a user can copy, back up or cache in CI,
// and SQLite's write-ahead log lets several processes write at once (each run is one
// transaction, taken with BEGIN IMMEDIATE; a writer waits for the other up to a busy
// timeout) while readers go on. A run killed mid-write leaves its transaction
// uncommitted, which SQLite rolls back when the file is next opened: a run is in the
// store whole or not at all. The series are small (a row per benchmark per run), so
// a column store's speed over large scans buys nothing here.
//
// A run is identified by the SHA-256 of its results document: recording the same
// results twice (a run's own recording, then `history import` of its directory) adds
// it once.
//
// Only results.go knows the results model; the rest of the package works on Run and
// Entry.
package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// Tags say where a run comes from.
type Tags struct {
	// Commit and Branch are the source's version control state ("" when unknown).
	Commit, Branch string
	// Machine names the host the run measured on; series are compared per machine.
	Machine string
	// Time is when the run started.
	Time time.Time
}

// Run is one recorded run: a results document and its tags.
type Run struct {
	ID int64
	// Key is the SHA-256 of the results document, in hex.
	Key string
	Tags
	// Recorded is when it was added to the store; Source what it came from (a
	// results directory or file, or the command that recorded it).
	Recorded time.Time
	Source   string
	// Entries are its benchmarks' scores, in the document's order.
	Entries []Entry
}

// Entry is one benchmark of a run: its score with the interval the run reported,
// and its ratio to its comparison group's baseline when it has one.
type Entry struct {
	// Name is the benchmark's identity: protocol, stacks, label, transport, workload,
	// parameters and load (spec.Spec.Name).
	Name string
	// Mode is "thrpt" (ops/s, higher is better) or "avgt" (ms/op, lower is better);
	// "capacity" for a capacity search's rate (ops/s).
	Mode string
	// Score ± Error at confidence Conf over N slices; Error is 0 without an
	// interval.
	Score, Error, Conf float64
	N                  int
	// Ratio to Baseline with its interval; NaN without one. RatioLow and RatioHigh
	// are NaN for a ratio whose interval rests on too few forks or rounds
	// (results.Relative.HasInterval).
	Baseline                   string
	Ratio, RatioLow, RatioHigh float64
	// P99Us is the response-time p99 in µs, Errors the failed calls.
	P99Us  float64
	Errors int64
}

// HigherIsBetter reports whether a larger score of the entry is an improvement.
func (e Entry) HigherIsBetter() bool { return e.Mode != "avgt" }

// Store is an open store. Safe for concurrent use; several processes may use one
// file at once.
type Store struct {
	db   *sql.DB
	path string
}

// busyTimeout is how long a writer waits for another's transaction.
const busyTimeout = 30 * time.Second

const schema = `
CREATE TABLE IF NOT EXISTS runs (
	id          INTEGER PRIMARY KEY,
	run_key     TEXT NOT NULL UNIQUE,
	started     TEXT NOT NULL,
	recorded    TEXT NOT NULL,
	commit_id   TEXT NOT NULL,
	branch      TEXT NOT NULL,
	machine     TEXT NOT NULL,
	source      TEXT NOT NULL,
	results     BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_branch ON runs(branch, machine, started);
CREATE TABLE IF NOT EXISTS entries (
	run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	name        TEXT NOT NULL,
	mode        TEXT NOT NULL,
	score       REAL NOT NULL,
	error       REAL NOT NULL,
	conf        REAL NOT NULL,
	n           INTEGER NOT NULL,
	baseline    TEXT NOT NULL,
	ratio       REAL,
	ratio_low   REAL,
	ratio_high  REAL,
	p99_us      REAL NOT NULL,
	errors      INTEGER NOT NULL,
	PRIMARY KEY (run_id, name)
);
CREATE INDEX IF NOT EXISTS entries_name ON entries(name);
`

// Open opens the store at path, creating the file (and its directory) and the
// tables when they do not exist.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: no path")
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("store %s: a path with ? or # is not supported", path)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
	}
	// busy_timeout first, so that the pragmas after it wait for another process too.
	dsn := path + fmt.Sprintf("?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)&_txlock=immediate",
		busyTimeout.Milliseconds())
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return s, nil
}

// init creates the tables. Switching a new file to WAL can be refused at once
// (not waited for) while another process does the same, so that is retried.
func (s *Store) init(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 50; attempt++ {
		var tx *sql.Tx
		if tx, err = s.db.BeginTx(ctx, nil); err == nil {
			if _, err = tx.ExecContext(ctx, schema); err == nil {
				err = tx.Commit()
			} else {
				tx.Rollback()
			}
		}
		if err == nil || !busy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return err
}

func busy(err error) bool {
	m := err.Error()
	return strings.Contains(m, "SQLITE_BUSY") || strings.Contains(m, "database is locked")
}

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// Record adds a results document (a results.json's bytes) with its tags, in one
// transaction. added is false when the same document is already in the store, in
// which case the run returned is the stored one. A Tags.Time of zero is taken from
// the document's start time.
func (s *Store) Record(ctx context.Context, doc []byte, tags Tags, source string) (run Run, added bool, err error) {
	parsed, err := parseResults(doc)
	if err != nil {
		return Run{}, false, err
	}
	if tags.Time.IsZero() {
		tags.Time = parsed.started
	}
	if tags.Time.IsZero() {
		tags.Time = time.Now()
	}
	run = Run{Key: Key(doc), Tags: tags, Recorded: time.Now().UTC(), Source: source, Entries: parsed.entries}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Run{}, false, fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	var existing int64
	switch err := tx.QueryRowContext(ctx, `SELECT id FROM runs WHERE run_key = ?`, run.Key).Scan(&existing); {
	case err == nil:
		tx.Rollback()
		stored, err := s.Run(ctx, existing)
		return stored, false, err
	case !errors.Is(err, sql.ErrNoRows):
		return Run{}, false, fmt.Errorf("store: %w", err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO runs (run_key, started, recorded, commit_id, branch, machine, source, results)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, run.Key, formatTime(tags.Time), formatTime(run.Recorded),
		tags.Commit, tags.Branch, tags.Machine, source, doc)
	if err != nil {
		return Run{}, false, fmt.Errorf("store: %w", err)
	}
	if run.ID, err = res.LastInsertId(); err != nil {
		return Run{}, false, fmt.Errorf("store: %w", err)
	}
	if afterRunInsert != nil {
		afterRunInsert()
	}
	for _, e := range run.Entries {
		if _, err := tx.ExecContext(ctx, `INSERT INTO entries (run_id, name, mode, score, error, conf, n, baseline,
			ratio, ratio_low, ratio_high, p99_us, errors) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			run.ID, e.Name, e.Mode, e.Score, e.Error, e.Conf, e.N, e.Baseline,
			nullable(e.Ratio), nullable(e.RatioLow), nullable(e.RatioHigh), e.P99Us, e.Errors); err != nil {
			return Run{}, false, fmt.Errorf("store: benchmark %s: %w", e.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return Run{}, false, fmt.Errorf("store: %w", err)
	}
	return run, true, nil
}

// afterRunInsert, when set, runs inside Record's transaction between the run's
// row and its entries: the kill test stops a writer there.
var afterRunInsert func()

// Key is a results document's identity in the store: its SHA-256, in hex.
func Key(doc []byte) string {
	sum := sha256.Sum256(doc)
	return hex.EncodeToString(sum[:])
}

// LastRecorded returns the run added to the store last, with all its entries.
func (s *Store) LastRecorded(ctx context.Context) (run Run, ok bool, err error) {
	return s.runWhere(ctx, `SELECT id FROM runs ORDER BY recorded DESC, id DESC LIMIT 1`)
}

// RunOf returns the run of the document whose Key is key, with all its entries; ok
// is false when the store does not hold that document.
func (s *Store) RunOf(ctx context.Context, key string) (run Run, ok bool, err error) {
	return s.runWhere(ctx, `SELECT id FROM runs WHERE run_key = ?`, key)
}

// runWhere returns the run whose id query selects (one row, one column), if any.
func (s *Store) runWhere(ctx context.Context, query string, args ...any) (run Run, ok bool, err error) {
	var id int64
	switch err := s.db.QueryRowContext(ctx, query, args...).Scan(&id); {
	case errors.Is(err, sql.ErrNoRows):
		return Run{}, false, nil
	case err != nil:
		return Run{}, false, fmt.Errorf("store: %w", err)
	}
	run, err = s.Run(ctx, id)
	return run, err == nil, err
}

// Filter selects runs and benchmarks; a zero field selects everything.
type Filter struct {
	// Benchmark is a substring of the benchmark names to keep.
	Benchmark string
	Branch    string
	Machine   string
	// Since and Until bound the runs' start times (Until exclusive).
	Since, Until time.Time
	// NoSmoke leaves out smoke runs (Smoke), recorded on purpose; Latest reads it.
	NoSmoke bool
	// id selects one run (Store.Run).
	id int64
}

// Runs returns the runs the filter selects, oldest first, each with the entries it
// selects; runs with none are left out.
func (s *Store) Runs(ctx context.Context, f Filter) ([]Run, error) {
	q := `SELECT r.id, r.run_key, r.started, r.recorded, r.commit_id, r.branch, r.machine, r.source,
		e.name, e.mode, e.score, e.error, e.conf, e.n, e.baseline, e.ratio, e.ratio_low, e.ratio_high, e.p99_us, e.errors
		FROM runs r JOIN entries e ON e.run_id = r.id WHERE 1=1`
	var args []any
	if f.id != 0 {
		q += ` AND r.id = ?`
		args = append(args, f.id)
	}
	if f.Benchmark != "" {
		q += ` AND instr(e.name, ?) > 0`
		args = append(args, f.Benchmark)
	}
	if f.Branch != "" {
		q += ` AND r.branch = ?`
		args = append(args, f.Branch)
	}
	if f.Machine != "" {
		q += ` AND r.machine = ?`
		args = append(args, f.Machine)
	}
	if !f.Since.IsZero() {
		q += ` AND r.started >= ?`
		args = append(args, formatTime(f.Since))
	}
	if !f.Until.IsZero() {
		q += ` AND r.started < ?`
		args = append(args, formatTime(f.Until))
	}
	q += ` ORDER BY r.started, r.id, e.rowid`
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var runs []Run
	for rows.Next() {
		var r Run
		var e Entry
		var started, recorded string
		var ratio, low, high sql.NullFloat64
		if err := rows.Scan(&r.ID, &r.Key, &started, &recorded, &r.Commit, &r.Branch, &r.Machine, &r.Source,
			&e.Name, &e.Mode, &e.Score, &e.Error, &e.Conf, &e.N, &e.Baseline, &ratio, &low, &high, &e.P99Us, &e.Errors); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		e.Ratio, e.RatioLow, e.RatioHigh = nanIfNull(ratio), nanIfNull(low), nanIfNull(high)
		if n := len(runs); n > 0 && runs[n-1].ID == r.ID {
			runs[n-1].Entries = append(runs[n-1].Entries, e)
			continue
		}
		if r.Time, err = parseTime(started); err != nil {
			return nil, err
		}
		if r.Recorded, err = parseTime(recorded); err != nil {
			return nil, err
		}
		r.Entries = []Entry{e}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return runs, nil
}

// Run returns the run with the given id, with all its entries.
func (s *Store) Run(ctx context.Context, id int64) (Run, error) {
	runs, err := s.Runs(ctx, Filter{id: id})
	if err != nil {
		return Run{}, err
	}
	if len(runs) == 0 {
		return Run{}, fmt.Errorf("store: no run %d", id)
	}
	return runs[0], nil
}

// Latest returns the most recent run (by start time) that the filter selects, other
// than the run whose key is exclude, with all its entries; ok is false when there is
// none. With f.NoSmoke, a smoke run is passed over for the one before it.
func (s *Store) Latest(ctx context.Context, f Filter, exclude string) (run Run, ok bool, err error) {
	runs, err := s.Runs(ctx, Filter{Branch: f.Branch, Machine: f.Machine, Since: f.Since, Until: f.Until})
	if err != nil {
		return Run{}, false, err
	}
	for i := len(runs) - 1; i >= 0; i-- {
		if runs[i].Key == exclude {
			continue
		}
		if f.NoSmoke {
			doc, err := s.Document(ctx, runs[i].ID)
			if err != nil {
				return Run{}, false, err
			}
			if Smoke(doc) {
				continue
			}
		}
		return runs[i], true, nil
	}
	return Run{}, false, nil
}

// Document returns the results document of a run, as it was recorded.
func (s *Store) Document(ctx context.Context, id int64) ([]byte, error) {
	var doc []byte
	if err := s.db.QueryRowContext(ctx, `SELECT results FROM runs WHERE id = ?`, id).Scan(&doc); err != nil {
		return nil, fmt.Errorf("store: run %d: %w", id, err)
	}
	return doc, nil
}

// Count returns the number of runs and of entries in the store.
func (s *Store) Count(ctx context.Context) (runs, entries int, err error) {
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM entries)`).Scan(&runs, &entries); err != nil {
		return 0, 0, fmt.Errorf("store: %w", err)
	}
	return runs, entries, nil
}

// Times are stored as RFC 3339 in UTC with fixed-width nanoseconds, so that
// their text order is their time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: bad time %q: %w", s, err)
	}
	return t, nil
}

func nullable(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return f
}

func nanIfNull(f sql.NullFloat64) float64 {
	if !f.Valid {
		return math.NaN()
	}
	return f.Float64
}
