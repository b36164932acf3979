// Package suite reads suite files: YAML documents that say what to benchmark (targets ×
// workloads × load points, with their run settings). Parse validates a whole file
// before anything runs, reporting every problem at its FILE:LINE:COL, and expands it
// into the list of benchmarks the driver runs, each a spec.Spec built the way the
// bench command builds one from its flags. The format is described in docs/suites.md.
//
// Protocol names are checked against the protocol registry, so a program must register
// the adapters (import stack/all) before parsing. Parse and Load are safe for
// concurrent use; a Suite belongs to its caller.
package suite

import (
	"errors"
	"fmt"
	"github.com/wirebench/wirebench/internal/suggest"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
	"github.com/wirebench/wirebench/suite/bundled"
	"github.com/wirebench/wirebench/suite/originals"
)

// Benchmark is one expanded benchmark of a suite.
type Benchmark struct {
	// Name is Spec.Name(): stable, and unique within the suite.
	Name string
	// Spec is everything the driver needs.
	Spec spec.Spec
}

// Suite is a parsed, validated and expanded suite file.
type Suite struct {
	Name, Description string
	// Baseline names the target every comparison group's ratios are against, as
	// SERIES or SERIES/TRANSPORT (e.g. "grpc-proto" or "http-json/unix"); "" is each
	// group's first target. A group without it takes its first target too.
	Baseline string
	// Views are the extra views its reports show (results.ViewNames), in file order.
	Views []string
	// File is the file the suite was read from, as errors name it.
	File string
	// Benchmarks are in expansion order: targets × transports × workloads × params ×
	// load points, each in file order.
	Benchmarks []Benchmark
	// Hosts is where the workers run and the link between them: the workers block
	// and link key (the zero Hosts, a local run, without them).
	Hosts spec.Hosts
	// Original is the original experiment the suite reproduces (its original key),
	// checked to name published figures that load; nil for none.
	Original *Original
	// Deviations are the suite's declared departures from its original, in file order.
	Deviations []Deviation
	// Skips are the pairs of stacks the suite leaves out, and why (its skip list).
	Skips []Skip
	// SmokeRun is set by Smoke: the suite's figures will not be measurements.
	SmokeRun bool
	// Notes say what the file should change though it was read, one line each with
	// its FILE:LINE: a former setting key (spec.Setting.OldKey) read as today's. The
	// program shows them; a library does not print.
	Notes []string
	// Process is how the suite's benchmarks are measured: "" by the driver, with
	// worker processes per fork; ProcessOne in the process that runs the suite,
	// servers and clients of a comparison group together (driver.MeasureOneProcess).
	Process string
}

// ProcessOne is the process key's value that measures each comparison group in one
// process holding every server and client, as a program that benchmarks several
// protocols from its main function does.
const ProcessOne = results.ProcessOne

// Limits of one suite.
const (
	// MaxBenchmarks bounds a suite's expansion: a suite that big is a typo in a list.
	MaxBenchmarks = 10_000
	// MaxFileSize bounds a suite file.
	MaxFileSize = 1 << 20
)

// Parse reads, validates and expands a suite. file names the suite in errors. Every
// problem found is reported, each as an *Error at its position, joined with errors.Join.
func Parse(file string, data []byte) (*Suite, error) {
	return parse(file, data, originals.Load)
}

// parse is Parse with the reader of an original's figures given (tests give one that
// reads a malformed file).
func parse(file string, data []byte, loadOriginal func(string) (*originals.Original, error)) (*Suite, error) {
	c := newChecker(file)
	if len(data) > MaxFileSize {
		c.at(nil, "the file is %d bytes; a suite file is at most %d", len(data), MaxFileSize)
		return nil, c.err()
	}
	doc, err := decode(data)
	if err != nil {
		return nil, syntaxError(file, err)
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if isNull(resolve(doc)) {
		c.at(doc, "the suite is empty; it needs at least targets and workloads (see docs/suites.md)")
		return nil, c.err()
	}
	if r := resolve(doc); r.Kind != yaml.MappingNode {
		c.at(doc, "a suite is a mapping of keys (name, targets, workloads, ...), not %s", describe(r))
		return nil, c.err()
	}
	top, _ := c.fields(doc, "the suite", topPlace.keys, topPlace.hint)
	s := &Suite{File: file, Name: strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))}
	if f, ok := top["name"]; ok {
		if v, ok := c.str("name", f.val); ok {
			s.Name = v
		}
	}
	if f, ok := top["description"]; ok {
		if v, ok := c.str("description", f.val); ok {
			s.Description = v
		}
	}
	if f, ok := top["views"]; ok {
		s.Views = c.readViews(f.val)
	}
	if f, ok := top["original"]; ok {
		s.Original = c.readOriginal(f.val, loadOriginal)
	}
	if f, ok := top["deviations"]; ok {
		s.Deviations = c.readDeviations(f.val)
		if _, ok := top["original"]; !ok {
			c.at(f.key, "deviations: from what? name the original the suite reproduces (original: NAME)")
		}
	}
	base := settings{}
	if f, ok := top["defaults"]; ok {
		dfs, _ := c.fields(f.val, "defaults", defaultsPlace.keys, defaultsPlace.hint)
		base = base.over(c.readSettings(dfs))
	}
	baseLoad := defaultLoad()
	if f, ok := top["load"]; ok {
		baseLoad = c.readLoad(f.val, "load")
	}
	if f, ok := top["workers"]; ok {
		c.readWorkers(f.val, &s.Hosts)
	}
	if f, ok := top["link"]; ok {
		s.Hosts.Link = c.readLink(f.val)
	}
	if !c.failed() {
		if err := s.Hosts.Validate(); err != nil {
			at := doc
			if f, ok := top["workers"]; ok {
				at = f.key
			}
			if f, ok := top["link"]; ok && s.Hosts.Link.Loss > 0 && !s.Hosts.Netns {
				at = f.key
			}
			c.at(at, "%v", err)
		}
	}
	targets := readList(c, top, doc, "targets", "- protocol: grpc-proto", c.readTarget)
	workloads := readList(c, top, doc, "workloads", "- name: person.get", c.readWorkload)
	if c.failed() {
		return nil, c.err()
	}
	if product(len(targets), len(workloads)) > MaxBenchmarks {
		c.at(doc, "%d targets × %d workloads is over %d benchmarks", len(targets), len(workloads), MaxBenchmarks)
		return nil, c.err()
	}
	s.Benchmarks = expand(c, base, baseLoad, targets, workloads, doc)
	if f, ok := top["interleave_by"]; ok {
		if v, ok := c.str("interleave_by", f.val); ok {
			if v != spec.InterleaveServer {
				c.at(resolve(f.val), "interleave_by: %q, want %s (each server's clients in rounds of their own); leave it out for every target of a group in one set of rounds", v, spec.InterleaveServer)
			}
			for i := range s.Benchmarks {
				s.Benchmarks[i].Spec.InterleaveBy = v
			}
		}
	}
	if f, ok := top["skip"]; ok && !c.failed() {
		skips, nodes := c.readSkips(f.val)
		c.applySkips(s, skips, nodes)
		if len(s.Benchmarks) == 0 && !c.failed() {
			c.at(f.key, "skip: leaves no benchmark to run")
		}
	}
	if f, ok := top["process"]; ok && !c.failed() {
		c.readProcess(s, f, doc)
	}
	if f, ok := top["baseline"]; ok && !c.failed() {
		if v, ok := c.str("baseline", f.val); ok {
			s.Baseline = v
			if !s.matchesAny(v) {
				var names []string
				for _, b := range s.Benchmarks {
					if n := b.Spec.Series() + "/" + b.Spec.Transport; !slices.Contains(names, n) {
						names = append(names, n)
					}
				}
				c.at(resolve(f.val), "baseline: %q names no target of the suite (targets: %s)", v, strings.Join(names, ", "))
			}
		}
	}
	if c.failed() {
		return nil, c.err()
	}
	s.Notes = c.notes()
	return s, nil
}

// readViews reads the views list: known view names, each once.
func (c *checker) readViews(n *yaml.Node) []string {
	items, ok := c.list("views", n)
	if !ok {
		return nil
	}
	var out []string
	for _, it := range items {
		v, ok := c.str("views", it)
		switch {
		case !ok:
		case !slices.Contains(results.ViewNames, v):
			c.at(resolve(it), "views: unknown view %q (known: %s)", v, strings.Join(results.ViewNames, ", "))
		case slices.Contains(out, v):
			c.at(resolve(it), "views: %q listed twice", v)
		default:
			out = append(out, v)
		}
	}
	return out
}

// readList reads one of the entry lists (targets, workloads), which must not be empty.
func readList[T any](c *checker, top map[string]field, doc *yaml.Node, key, example string, read func(*yaml.Node, int) *T) []*T {
	f, ok := top[key]
	if !ok {
		c.at(doc, "no %s: a suite needs at least one (e.g. %s)", key, example)
		return nil
	}
	items := resolve(f.val)
	switch {
	case isNull(items) || (items.Kind == yaml.SequenceNode && len(items.Content) == 0):
		c.at(f.key, "%s: empty; list at least one (e.g. %s)", key, example)
		return nil
	case items.Kind != yaml.SequenceNode:
		c.at(f.val, "%s: want a list (lines starting with -), got %s", key, describe(items))
		return nil
	}
	out := make([]*T, 0, len(items.Content))
	for i, n := range items.Content {
		if e := read(n, i); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// decode parses YAML into a node tree. yaml.v3 reports syntax errors by panicking
// inside and recovering in Unmarshal; the recover here keeps a parser bug on hostile
// input an error rather than a crash of the whole run.
func decode(data []byte) (doc *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	doc = new(yaml.Node)
	if err := yaml.Unmarshal(data, doc); err != nil {
		return nil, err
	}
	return doc, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// syntaxError places a YAML parser error. The parser gives the line but not the
// column, so the error has none.
func syntaxError(file string, err error) error {
	msg := err.Error()
	e := &Error{File: file, Msg: strings.TrimPrefix(msg, "yaml: ")}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = msg[len(m[0]):]
	}
	if e.Line == 0 {
		e.Line = 1
	}
	e.Msg = "YAML syntax: " + e.Msg
	return e
}

// Load reads a bundled suite by name ("quick") or a suite file by path. An argument with
// a path separator or a .yaml/.yml extension is a path; a bare word is a bundled name
// first, then a file in the current directory.
func Load(nameOrPath string) (*Suite, error) {
	ext := filepath.Ext(nameOrPath)
	isPath := strings.ContainsRune(nameOrPath, '/') || strings.ContainsRune(nameOrPath, filepath.Separator) || ext == ".yaml" || ext == ".yml"
	if !isPath {
		if data, err := fs.ReadFile(bundled.FS, nameOrPath+".yaml"); err == nil {
			return Parse("suite/bundled/"+nameOrPath+".yaml", data)
		}
		if _, err := os.Stat(nameOrPath); err != nil {
			return nil, fmt.Errorf("unknown suite %q%s (bundled: %s); or give the path of a suite file", nameOrPath, suggest.Hint(nameOrPath, Bundled()), strings.Join(Bundled(), ", "))
		}
	}
	data, err := os.ReadFile(nameOrPath)
	if err != nil {
		return nil, fmt.Errorf("suite: %w", err)
	}
	return Parse(nameOrPath, data)
}

// Bundled returns the names of the bundled suites, sorted.
func Bundled() []string {
	names, err := bundled.Names()
	if err != nil {
		// The embedded directory is part of the binary; it cannot fail to list.
		panic(errors.Join(errors.New("suite: listing bundled suites"), err))
	}
	return names
}

// IsBaseline reports whether b is the target the suite's baseline names.
func (s *Suite) IsBaseline(b Benchmark) bool {
	return s.Baseline != "" && (s.Baseline == b.Spec.Series() || s.Baseline == b.Spec.Series()+"/"+b.Spec.Transport)
}

func (s *Suite) matchesAny(baseline string) bool {
	for _, b := range s.Benchmarks {
		if baseline == b.Spec.Series() || baseline == b.Spec.Series()+"/"+b.Spec.Transport {
			return true
		}
	}
	return false
}

// Groups splits bs into comparison groups, in first-seen order: benchmarks with the
// same workload, parameters and load (spec.Spec.Group; with interleave_by: server, the
// same server too: spec.Spec.RoundsGroup) and the same plan (spec.SamePlan), which
// differ only in their target. Each group lists indices into bs.
func Groups(bs []Benchmark) [][]int {
	var out [][]int
	for i, b := range bs {
		placed := false
		for g, members := range out {
			first := bs[members[0]].Spec
			if first.RoundsGroup(first.ServerStack) == b.Spec.RoundsGroup(b.Spec.ServerStack) && spec.SamePlan(first, b.Spec) {
				out[g] = append(out[g], i)
				placed = true
				break
			}
		}
		if !placed {
			out = append(out, []int{i})
		}
	}
	return out
}

// ScaleRates multiplies the rate of every open-model benchmark by f (> 0), as
// `wirebench run --rate-scale` does, and renames them. Benchmarks that become the same
// (rates that round to one name) run once.
func (s *Suite) ScaleRates(f float64) error {
	if !(f > 0) || math.IsInf(f, 0) {
		return fmt.Errorf("rate scale %v, want a number > 0", f)
	}
	return s.rewrite(func(b *Benchmark) error {
		if b.Spec.Load.Kind == load.Open {
			// Rounded to a millionth, so 14000 × 0.1 is named 1400, not 1400.0000000000002.
			b.Spec.Load.Rate = math.Round(b.Spec.Load.Rate*f*1e6) / 1e6
			if b.Spec.Load.Rate <= 0 {
				return fmt.Errorf("rate scale %v makes %s's rate 0", f, b.Name)
			}
		}
		return nil
	})
}

// rewrite changes every benchmark with f, renames it after its new spec, and keeps the
// first of benchmarks that have become the same. When f fails, the suite is left as
// it was and the error returned.
func (s *Suite) rewrite(f func(*Benchmark) error) error {
	out := make([]Benchmark, 0, len(s.Benchmarks))
	seen := map[string]bool{}
	for _, b := range s.Benchmarks {
		if err := f(&b); err != nil {
			return err
		}
		b.Name = b.Spec.Name()
		if !seen[b.Name] {
			seen[b.Name] = true
			out = append(out, b)
		}
	}
	s.Benchmarks = out
	return nil
}
