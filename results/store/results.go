package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/wirebench/wirebench/results"
)

// This file is the store's one contact with the results model: a document is read
// (and checked against the schema) here and turned into entries.

// Encode returns the results document of res as `run` writes it to results.json,
// byte for byte, so that recording a run and importing its directory give the same
// key.
func Encode(res *results.Results) ([]byte, error) {
	var buf bytes.Buffer
	if err := res.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Smoke reports whether a results document is of a smoke run (results.Results.Smoke):
// its figures are not measurements, so recording commands leave it out of the store
// unless asked, and gate takes no baseline from it.
func Smoke(doc []byte) bool {
	var head struct {
		Smoke bool `json:"smoke"`
	}
	return json.Unmarshal(doc, &head) == nil && head.Smoke
}

// parsed is what the store keeps of a document besides its bytes.
type parsed struct {
	started time.Time
	entries []Entry
}

// parseResults reads a results document. A benchmark with no score (nothing
// succeeded) has no entry: a series holds measurements only.
func parseResults(doc []byte) (parsed, error) {
	res, err := results.Read(bytes.NewReader(doc))
	if err != nil {
		return parsed{}, err
	}
	p := parsed{started: res.Environment.Started}
	for _, b := range res.Benchmarks {
		e, ok := entryOf(b)
		if ok {
			p.entries = append(p.entries, e)
		}
	}
	if len(p.entries) == 0 {
		return parsed{}, fmt.Errorf("results: no benchmark with a score to record")
	}
	return p, nil
}

// Modes of an entry besides report's thrpt and avgt.
const ModeCapacity = "capacity"

func entryOf(b results.Benchmark) (Entry, bool) {
	s := b.Summary
	e := Entry{Name: b.Name, Mode: b.Mode, P99Us: s.LatencyUs.P99, Errors: s.Errors,
		Ratio: math.NaN(), RatioLow: math.NaN(), RatioHigh: math.NaN()}
	score := s.ThroughputOpsS
	switch {
	case b.Capacity != nil:
		e.Mode = ModeCapacity
		score = results.Throughput{Mean: b.Capacity.RateOpsS, N: 1}
	case b.Mode == results.ModeAverageTime && s.AvgTimeMs != nil:
		score = *s.AvgTimeMs
	}
	e.Score, e.Error, e.Conf, e.N = score.Mean, score.Error, score.CI, score.N
	if r := s.Relative; r != nil && r.Of == "" && b.Capacity == nil {
		e.Baseline, e.Ratio = r.Baseline, r.Ratio.Mean
		if r.HasInterval() { // else too few forks: no interval, as the run's report says
			e.RatioLow, e.RatioHigh = r.Ratio.CILow, r.Ratio.CIHigh
		}
	}
	return e, e.Score > 0 && (s.Ops > 0 || b.Capacity != nil)
}
