package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// WarningKind says what a warning is about, so that a report can choose and place
// warnings by their kind rather than by reading their text.
type WarningKind string

// The kinds of warning a benchmark can carry. A file may hold kinds this wirebench
// does not know (a newer writer's): readers show them as plain warnings.
const (
	// WarnGenerator: the load generator, not the target, may have set the result
	// (it fell behind its schedule or ran out of CPU).
	WarnGenerator WarningKind = "generator-bound"
	// WarnErrors: calls failed; the text counts them by kind, each with its first
	// error's message.
	WarnErrors WarningKind = "errors"
	// WarnFailed: the benchmark failed (to start, in a fork, or before it could be set
	// up); Fork and Phase say where when it was in a fork.
	WarnFailed WarningKind = "failed"
	// WarnTooFew: its ratio's interval rests on too few forks or rounds to be read.
	WarnTooFew WarningKind = "too-few"
	// WarnUnsteadyRatio: its ratio pairs every fork, forks without a steady state
	// included.
	WarnUnsteadyRatio WarningKind = "unsteady-ratio"
	// WarnStillWarming: some fork reached no steady state (its slices still changed
	// near the end) and was measured whole.
	WarnStillWarming WarningKind = "still-warming"
	// WarnWarmedUp and WarnSlowdown: some fork got faster, or slower, during its
	// measured rounds; only its steady rounds are measured.
	WarnWarmedUp WarningKind = "warmed-up"
	WarnSlowdown WarningKind = "slowdown"
	// WarnWarmupUnsettled: an adaptive warm-up stopped at its longest with its slices
	// still changing.
	WarnWarmupUnsettled WarningKind = "warmup-unsettled"
	// WarnMachineChanged: the machine's speed moved under a comparison group's rounds
	// (carried by the group's baseline).
	WarnMachineChanged WarningKind = "machine-changed"
	// WarnDriftOverInterval: the machine's speed moved under a comparison group's
	// rounds (Drift.Moved) by more than some of its ratios' intervals are wide: those
	// intervals do not cover how much the machine moved (carried by the baseline).
	WarnDriftOverInterval WarningKind = "drift-over-interval"
	// WarnClamped: calls took longer than the histograms hold; the maximum is a floor.
	WarnClamped WarningKind = "clamped"
	// WarnPrecision: a run for a precision ended (its budget spent) before the ratio's
	// interval was as narrow as asked.
	WarnPrecision WarningKind = "precision"
	// WarnInterrupted: the run stopped before every fork of the benchmark was measured.
	WarnInterrupted WarningKind = "interrupted"
	// WarnUnconfirmed and WarnOutOfBudget: a capacity search's rate was not confirmed
	// by the longer run, or its budget ended before its bracket was as narrow as asked.
	WarnUnconfirmed WarningKind = "unconfirmed"
	WarnOutOfBudget WarningKind = "out-of-budget"
	// WarnOther: a warning of no kind above, e.g. one read from a file written before
	// warnings had kinds whose text begins with none of their labels.
	WarnOther WarningKind = "other"
)

// labels are what a warning of each kind begins with in its printed form (String),
// before its place and text; a kind not here prints its text alone.
var labels = map[WarningKind]string{
	WarnGenerator:         "generator-bound",
	WarnErrors:            "errors",
	WarnFailed:            "failed",
	WarnTooFew:            "too few forks or rounds for an interval",
	WarnUnsteadyRatio:     SteadyNone,
	WarnStillWarming:      "still warming up",
	WarnWarmedUp:          SteadyWarmedUp,
	WarnSlowdown:          SteadySlowdown,
	WarnMachineChanged:    "the machine changed under this group's rounds",
	WarnDriftOverInterval: "the machine moved more than this group's intervals",
	WarnPrecision:         "precision",
	WarnInterrupted:       "interrupted",
}

// Label is what a warning of kind k begins with when printed ("generator-bound",
// "too few forks or rounds for an interval"); "" for a kind printed as its text alone.
func (k WarningKind) Label() string { return labels[k] }

// IsError reports whether a warning of kind k says that something failed (calls, or
// the benchmark itself) rather than that a figure needs care.
func (k WarningKind) IsError() bool { return k == WarnErrors || k == WarnFailed }

// Warning is one thing a reader must know before trusting a benchmark's figures. It is
// data: reports choose and place warnings by Kind, take a failure's reason from Text
// and where it happened from Fork and Phase, and print String; none reads the text
// for its meaning.
type Warning struct {
	Kind WarningKind `json:"kind"`
	// Fork is the fork a failure happened in, numbered from 1 as reports number forks
	// (its ForkResult.Index + 1); 0 when the warning is not of one fork. Phase is what
	// the fork was doing: "start", "isolation", "warmup", "round 3" ("iteration 2" in files written before schema_version 3).
	Fork  int    `json:"fork,omitempty"`
	Phase string `json:"phase,omitempty"`
	// Text is the warning's message without its kind's label or its place: the
	// figures of a generator-bound result, the reason a benchmark failed.
	Text string `json:"text"`
}

// String is w as reports print it, and as a results file's "warnings" holds it: its
// kind's label, its place, then its text, e.g. "failed: fork 2, round 1: worker
// exited" or "generator-bound: the client used 97% of its CPUs".
func (w Warning) String() string {
	s := w.Text
	if w.Fork > 0 && w.Phase != "" {
		s = fmt.Sprintf("fork %d, %s: %s", w.Fork, w.Phase, s)
	}
	if l := w.Kind.Label(); l != "" {
		s = l + ": " + s
	}
	return s
}

// Warnings are a benchmark's warnings, in the order they were found.
type Warnings []Warning

// Of are the warnings of kind k, in order.
func (ws Warnings) Of(k WarningKind) Warnings {
	var out Warnings
	for _, w := range ws {
		if w.Kind == k {
			out = append(out, w)
		}
	}
	return out
}

// Has reports whether ws hold a warning of kind k.
func (ws Warnings) Has(k WarningKind) bool {
	return slices.ContainsFunc(ws, func(w Warning) bool { return w.Kind == k })
}

// Strings are the warnings as reports print them (Warning.String), in order.
func (ws Warnings) Strings() []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
	}
	return out
}

// ForkError is a failure in one phase of one fork. The driver's errors carry it, so
// that the results keep where a fork failed as data (ForkResult.Phase, Warning.Fork and
// Phase) beside why (the error it wraps).
type ForkError struct {
	// Fork is the fork's index, as Fork.Index and ForkResult.Index count (from 0).
	Fork int
	// Phase is what the fork was doing: "start", "isolation", "warmup", "round 3".
	Phase string
	Err   error
}

// Error says where and why: "fork 2, round 1: worker exited" (before schema_version
// 2, "trial 2, round 1: worker exited", which legacyPlace reads).
func (e *ForkError) Error() string { return fmt.Sprintf("fork %d, %s: %v", e.Fork+1, e.Phase, e.Err) }

func (e *ForkError) Unwrap() error { return e.Err }

// Failure is the warning of a benchmark that failed with err: of kind WarnFailed, in
// the fork and phase a *ForkError gives.
func Failure(err error) Warning {
	w := Warning{Kind: WarnFailed, Text: err.Error()}
	if fe, ok := err.(*ForkError); ok {
		w.Fork, w.Phase, w.Text = fe.Fork+1, fe.Phase, fe.Err.Error()
	}
	return w
}

// ForkFailure is what a fork that err cut short records: the phase it failed in and
// why, for a *ForkError; else no phase and err's whole text. An error that joins a
// fork's failure with another (errors.Join) keeps its whole text, so nothing of it
// is lost.
func ForkFailure(err error) (phase, why string) {
	if fe, ok := err.(*ForkError); ok {
		return fe.Phase, fe.Err.Error()
	}
	return "", err.Error()
}

// The JSON of a benchmark's warnings has two parts: "warnings", each as reports print
// it (Warning.String), which is what files written before kinds hold and what readers
// from before them read; and "warning_details", the same warnings as data, in the same
// order. A file without warning_details (an older one) is read from its texts
// (legacyWarning).

// benchmarkJSON is Benchmark as JSON, its warnings in both parts.
type benchmarkJSON struct {
	benchmarkFields
	Warnings       []string `json:"warnings,omitempty"`
	WarningDetails Warnings `json:"warning_details,omitempty"`
	// Trials are the forks under their name in schema_version 1 (and in run journals
	// written before version 2), read only.
	Trials []ForkResult `json:"trials,omitempty"`
	// Target is the outside server's address under its name in files written before
	// 2026-11-29, read only.
	Target string `json:"target,omitempty"`
	// Iterations, IterationSeconds and IterationOps are Rounds, SliceSeconds and
	// SliceOps under their names in files written before schema_version 3, read only.
	Iterations       int     `json:"iterations,omitempty"`
	IterationSeconds float64 `json:"iteration_s,omitempty"`
	IterationOps     int64   `json:"iteration_ops,omitempty"`
}

// benchmarkFields is Benchmark without its methods, so that encoding/json encodes
// its fields and not MarshalJSON again.
type benchmarkFields Benchmark

// MarshalJSON writes b's warnings in both parts (see benchmarkJSON). Like Write, it
// leaves "<" and "&" as they are, so that names like "a<b" stay readable in the file.
func (b Benchmark) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	j := benchmarkJSON{benchmarkFields: benchmarkFields(b), WarningDetails: b.Warnings}
	if len(b.Warnings) > 0 {
		j.Warnings = b.Warnings.Strings()
	}
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads b's warnings from warning_details, or, in a file written
// before it, from their texts; takes its forks from "trials" in a file written
// before they were called forks (schema_version 1), its address from "target" in
// one written before it was called address (2026-11-29), and its rounds and slice
// length from "iterations", "iteration_s" and "iteration_ops" in one written before
// schema_version 3 (legacyRounds); and brings a fork's error of such a file to
// today's form (legacyFork).
func (b *Benchmark) UnmarshalJSON(data []byte) error {
	var j benchmarkJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*b = Benchmark(j.benchmarkFields)
	if b.Forks == nil {
		b.Forks = j.Trials
	}
	if b.Address == "" {
		b.Address = j.Target
	}
	legacyRounds(b, j)
	b.Warnings = j.WarningDetails
	if b.Warnings == nil && j.Warnings != nil {
		b.Warnings = make(Warnings, len(j.Warnings))
		for i, s := range j.Warnings {
			b.Warnings[i] = legacyWarning(s)
		}
	}
	for i := range b.Forks {
		legacyFork(&b.Forks[i])
	}
	return nil
}
