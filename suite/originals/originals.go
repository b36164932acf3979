// Package originals holds the published figures of the original experiments wirebench
// reproduces (../shared/ORIGINS.md) and sets a run's results beside them: per finding of
// an original (a ratio of two of its figures), the original's ratio, ours with its
// interval, the ratio of the two, and a verdict computed by one rule (Judge).
//
// The figures are data, one YAML file per original in suite/bundled/originals (embedded), read
// by Load and Parse with every problem reported at its FILE:LINE:COL; the format is in
// docs/suites.md ("Originals' figures"). Compare reads a projection of a results file
// (Bench, built by package report, which renders the table) so that this package
// depends on no other part of wirebench. Everything here is safe for concurrent use;
// an *Original is not modified after Parse returns it.
package originals

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/suite/bundled"
)

// Original is one original experiment's published figures and findings.
type Original struct {
	// Name is the file's name without .yaml ("metrifier"), as a suite's original key
	// gives it.
	Name, Title string
	Sources     []Source
	Setups      []Setup
	Figures     []Figure
	Findings    []Finding
	// File is where it was read from, as errors name it.
	File string
}

// Source is where figures were read: a repository, a commit and a file.
type Source struct {
	ID, Repo, Commit, File string
}

// Setup is one way the original measured: the tool and its mode, how long and how many,
// the machine and the stacks with their versions, and the source of its figures.
type Setup struct {
	Name, Tool, How, Machine, Stacks string
	Source                           Source
}

// Figure is one published figure, with what measured it.
type Figure struct {
	ID string
	// Row is the figure's row as the original printed it.
	Row          string
	Value, Error float64 // Error 0: none published
	Unit         string
	Note         string
	Setup        *Setup
}

// Finding is a comparison of two of the original's figures (Of over Over), and the two
// wirebench benchmarks that reproduce it.
type Finding struct {
	ID, Says, Note string
	// Setup is the setup the finding belongs to: a suite that reproduces one setup of
	// an original shows that setup's findings.
	Setup    *Setup
	Of, Over *Figure
	Ours     Ours
}

// Ratio is the original's ratio, Of over Over.
func (f *Finding) Ratio() float64 { return f.Of.Value / f.Over.Value }

// Ours says which of a run's benchmarks reproduce a finding and what to compare.
type Ours struct {
	// Metric is "score" (the benchmark's score in its mode: ops/s, or ms/op in avgt)
	// or a latency: "mean", "p50", "p75", "p90", "p99", "p999", "max".
	Metric   string
	Of, Over Selector
	// SameLoad, for a finding whose two figures the original measured under two load
	// models (Of and Over name different loads), lists the load models to judge it
	// under instead, in order of preference: the first under which the run measured
	// both benchmarks at the original's setup is judged. Empty: such a finding is not
	// comparable.
	SameLoad []string
}

// Selector picks one benchmark of a results file. The identity fields say which
// benchmark it is ("" matches any); the setup fields say how the original ran it, so a
// benchmark that is there but ran otherwise is "not run at the original's setup"
// rather than "not run".
type Selector struct {
	// Identity.
	Name, Protocol, Transport, ServerStack, ClientStack, Label, Workload string
	// Load is "open" or "closed"; Payload an echo payload size as suites write it
	// ("1KiB"), both identity: the originals vary them.
	Load, Payload string
	// Setup: workload parameters (increments, trades), callers and connections, an
	// open loop's rate; 0 is not checked.
	Increments, Trades, Concurrency, Connections int64
	Rate                                         float64
}

// Units a figure may have: a rate (more is better), a time (less is better) or a count.
var units = map[string]kind{
	"ops/s": rate, "req/s": rate,
	"ms/op": timeKind, "ms": timeKind, "ms/1000 calls": timeKind, "ms/10000 calls": timeKind, "µs/1000 calls": timeKind,
	"requests": count,
}

type kind int

const (
	count kind = iota
	rate
	timeKind
)

// metrics are the values of Ours.Metric.
var metrics = []string{"score", "mean", "p50", "p75", "p90", "p99", "p999", "max"}

// Names returns the names of the bundled originals, sorted.
func Names() []string {
	entries, err := fs.ReadDir(bundled.Originals, "originals")
	if err != nil {
		// The embedded directory is part of the binary; it cannot fail to list.
		panic(errors.Join(errors.New("originals: listing the bundled figures"), err))
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// Load reads the bundled original name (suite/bundled/originals/NAME.yaml).
func Load(name string) (*Original, error) {
	data, err := fs.ReadFile(bundled.Originals, "originals/"+name+".yaml")
	if err != nil {
		return nil, fmt.Errorf("no published figures for an original named %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return Parse("suite/bundled/originals/"+name+".yaml", data)
}

// SetupNamed returns the setup called name, or nil.
func (o *Original) SetupNamed(name string) *Setup {
	for i := range o.Setups {
		if o.Setups[i].Name == name {
			return &o.Setups[i]
		}
	}
	return nil
}

// FindingsOf returns the findings of setup ("" for all), in file order.
func (o *Original) FindingsOf(setup string) []*Finding {
	var out []*Finding
	for i := range o.Findings {
		if f := &o.Findings[i]; setup == "" || f.Setup.Name == setup {
			out = append(out, f)
		}
	}
	return out
}
