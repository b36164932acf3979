package originals

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is one problem in a figures file, at the position of the key or value it is
// about.
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// parser collects the errors of one Parse; it is owned by one goroutine.
type parser struct {
	file string
	errs []*Error
}

func (p *parser) at(n *yaml.Node, format string, args ...any) {
	e := &Error{File: p.file, Line: 1, Column: 1, Msg: fmt.Sprintf(format, args...)}
	if n != nil && n.Line > 0 {
		e.Line, e.Column = n.Line, n.Column
	}
	p.errs = append(p.errs, e)
}

func (p *parser) err() error {
	if len(p.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(p.errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	errs := make([]error, len(p.errs))
	for i, e := range p.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// fields reads mapping n: its keys among valid (required ones marked by a trailing
// '!'), reporting unknown, repeated and missing keys.
func (p *parser) fields(n *yaml.Node, where string, valid ...string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if n == nil || n.Kind != yaml.MappingNode {
		p.at(n, "%s: want a mapping (key: value lines)", where)
		return out
	}
	names := make([]string, len(valid))
	for i, v := range valid {
		names[i] = strings.TrimSuffix(v, "!")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		switch {
		case !slices.Contains(names, k.Value):
			p.at(k, "unknown key %q in %s (valid: %s)", k.Value, where, strings.Join(names, ", "))
		case out[k.Value] != nil:
			p.at(k, "key %q repeated in %s", k.Value, where)
		default:
			out[k.Value] = n.Content[i+1]
		}
	}
	for _, v := range valid {
		if name, req := strings.CutSuffix(v, "!"); req && out[name] == nil {
			p.at(n, "%s: missing %s", where, name)
		}
	}
	return out
}

func (p *parser) str(fs map[string]*yaml.Node, key string) string {
	n := fs[key]
	if n == nil {
		return ""
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" || n.Value == "" {
		p.at(n, "%s: want a non-empty string", key)
		return ""
	}
	return n.Value
}

func (p *parser) num(fs map[string]*yaml.Node, key string) float64 {
	n := fs[key]
	if n == nil {
		return 0
	}
	v, err := strconv.ParseFloat(n.Value, 64)
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") || err != nil || math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		p.at(n, "%s: want a number ≥ 0, got %q", key, n.Value)
		return 0
	}
	return v
}

func (p *parser) list(fs map[string]*yaml.Node, key string) []*yaml.Node {
	n := fs[key]
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.at(n, "%s: want a list of at least one entry (lines starting with -)", key)
		return nil
	}
	return n.Content
}

// Parse reads and checks a figures file. file names it in errors. Every problem found is
// reported, each as an *Error at its position, joined with errors.Join.
func Parse(file string, data []byte) (*Original, error) {
	p := &parser{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: file, Line: 1, Column: 1, Msg: "YAML syntax: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		p.at(nil, "the file is empty; it needs name, sources, setups, figures and findings")
		return nil, p.err()
	}
	top := p.fields(doc.Content[0], "the file", "name!", "title!", "sources!", "setups!", "figures!", "findings!")
	o := &Original{File: file, Name: p.str(top, "name"), Title: p.str(top, "title")}
	sources := map[string]Source{}
	for i, n := range p.list(top, "sources") {
		fs := p.fields(n, fmt.Sprintf("sources[%d]", i), "id!", "repo!", "commit", "file!")
		s := Source{ID: p.str(fs, "id"), Repo: p.str(fs, "repo"), Commit: p.str(fs, "commit"), File: p.str(fs, "file")}
		if _, dup := sources[s.ID]; dup {
			p.at(fs["id"], "source %q listed twice", s.ID)
		}
		sources[s.ID] = s
		o.Sources = append(o.Sources, s)
	}
	setupNodes := p.list(top, "setups")
	o.Setups = make([]Setup, 0, len(setupNodes)) // not grown later: figures point into it
	for i, n := range setupNodes {
		fs := p.fields(n, fmt.Sprintf("setups[%d]", i), "name!", "source!", "tool!", "how!", "machine!", "stacks!")
		s := Setup{Name: p.str(fs, "name"), Tool: p.str(fs, "tool"), How: p.str(fs, "how"), Machine: p.str(fs, "machine"), Stacks: p.str(fs, "stacks")}
		if src := p.str(fs, "source"); src != "" {
			var ok bool
			if s.Source, ok = sources[src]; !ok {
				p.at(fs["source"], "source %q is not among sources", src)
			}
		}
		if o.SetupNamed(s.Name) != nil {
			p.at(fs["name"], "setup %q listed twice", s.Name)
		}
		o.Setups = append(o.Setups, s)
	}
	figNodes := p.list(top, "figures")
	o.Figures = make([]Figure, 0, len(figNodes))
	figures := map[string]*Figure{}
	for i, n := range figNodes {
		fs := p.fields(n, fmt.Sprintf("figures[%d]", i), "id!", "setup!", "row!", "value!", "error", "unit!", "note")
		f := Figure{ID: p.str(fs, "id"), Row: p.str(fs, "row"), Value: p.num(fs, "value"), Error: p.num(fs, "error"), Unit: p.str(fs, "unit"), Note: p.str(fs, "note")}
		f.Setup = p.setup(o, fs)
		if _, ok := units[f.Unit]; !ok && f.Unit != "" {
			p.at(fs["unit"], "unit %q, want one of %s", f.Unit, strings.Join(sortedKeys(units), ", "))
		}
		if figures[f.ID] != nil {
			p.at(fs["id"], "figure %q listed twice", f.ID)
		}
		o.Figures = append(o.Figures, f)
		figures[f.ID] = &o.Figures[len(o.Figures)-1]
	}
	for i, n := range p.list(top, "findings") {
		o.Findings = append(o.Findings, p.finding(o, figures, n, i))
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return o, nil
}

func (p *parser) setup(o *Original, fs map[string]*yaml.Node) *Setup {
	name := p.str(fs, "setup")
	s := o.SetupNamed(name)
	if s == nil && name != "" {
		p.at(fs["setup"], "setup %q is not among setups", name)
	}
	return s
}

func (p *parser) finding(o *Original, figures map[string]*Figure, n *yaml.Node, i int) Finding {
	where := fmt.Sprintf("findings[%d]", i)
	fs := p.fields(n, where, "id!", "setup!", "says!", "of!", "over!", "note", "ours!")
	f := Finding{ID: p.str(fs, "id"), Says: p.str(fs, "says"), Note: p.str(fs, "note"), Setup: p.setup(o, fs)}
	fig := func(key string) *Figure {
		id := p.str(fs, key)
		if id == "" {
			return nil
		}
		g := figures[id]
		switch {
		case g == nil:
			p.at(fs[key], "%s: figure %q is not among figures", key, id)
		case units[g.Unit] == count:
			p.at(fs[key], "%s: figure %q is a count (%s): a finding compares rates or times", key, id, g.Unit)
		case g.Value <= 0:
			p.at(fs[key], "%s: figure %q is %v: a ratio needs figures above 0", key, id, g.Value)
		}
		return g
	}
	f.Of, f.Over = fig("of"), fig("over")
	if f.Of != nil && f.Over != nil && f.Of.Unit != f.Over.Unit {
		p.at(fs["over"], "over: figure %q is in %s, of %q in %s: a ratio needs one unit", f.Over.ID, f.Over.Unit, f.Of.ID, f.Of.Unit)
	}
	if on := fs["ours"]; on != nil {
		ofs := p.fields(on, where+".ours", "metric!", "of!", "over!", "setup", "same_load")
		f.Ours.Metric = p.str(ofs, "metric")
		if f.Ours.Metric != "" && !slices.Contains(metrics, f.Ours.Metric) {
			p.at(ofs["metric"], "metric %q, want one of %s", f.Ours.Metric, strings.Join(metrics, ", "))
		}
		var setup Selector
		if sn := ofs["setup"]; sn != nil {
			setup = p.selector(sn, where+".ours.setup", setupKeys)
		}
		f.Ours.Of = merge(p.selector(ofs["of"], where+".ours.of", append(identityKeys, setupKeys...)), setup)
		f.Ours.Over = merge(p.selector(ofs["over"], where+".ours.over", append(identityKeys, setupKeys...)), setup)
		f.Ours.SameLoad = p.sameLoad(ofs, f.Ours)
	}
	return f
}

// sameLoad reads ours.same_load: load models (open, closed), each once, and only in a
// finding whose two selectors are under different ones.
func (p *parser) sameLoad(fs map[string]*yaml.Node, o Ours) []string {
	var out []string
	for _, n := range p.list(fs, "same_load") {
		switch {
		case n.Kind != yaml.ScalarNode || (n.Value != "open" && n.Value != "closed"):
			p.at(n, "same_load: %q, want open or closed", n.Value)
		case slices.Contains(out, n.Value):
			p.at(n, "same_load: %s listed twice", n.Value)
		default:
			out = append(out, n.Value)
		}
	}
	if len(out) > 0 && (o.Of.Load == "" || o.Over.Load == "" || o.Of.Load == o.Over.Load) {
		p.at(fs["same_load"], "same_load is for a finding whose of and over name two load models (one load: open, the other load: closed)")
	}
	return out
}

var (
	identityKeys = []string{"name", "protocol", "transport", "server_stack", "client_stack", "label", "workload", "load", "payload"}
	setupKeys    = []string{"increments", "trades", "concurrency", "connections", "rate"}
)

func (p *parser) selector(n *yaml.Node, where string, valid []string) Selector {
	if n == nil {
		return Selector{}
	}
	fs := p.fields(n, where, valid...)
	if len(fs) == 0 && n.Kind == yaml.MappingNode {
		p.at(n, "%s: empty; name the benchmark (name, or protocol, stacks, label, workload ...)", where)
	}
	integer := func(key string) int64 {
		v := p.num(fs, key)
		if v != math.Trunc(v) {
			p.at(fs[key], "%s: want an integer", key)
		}
		return int64(v)
	}
	s := Selector{Name: p.str(fs, "name"), Protocol: p.str(fs, "protocol"), Transport: p.str(fs, "transport"),
		ServerStack: p.str(fs, "server_stack"), ClientStack: p.str(fs, "client_stack"), Label: p.str(fs, "label"),
		Workload: p.str(fs, "workload"), Load: p.str(fs, "load"), Payload: p.str(fs, "payload"),
		Increments: integer("increments"), Trades: integer("trades"), Concurrency: integer("concurrency"),
		Connections: integer("connections"), Rate: p.num(fs, "rate")}
	if s.Load != "" && s.Load != "open" && s.Load != "closed" {
		p.at(fs["load"], "load %q, want open or closed", s.Load)
	}
	return s
}

// merge fills the setup fields s leaves at 0 from the finding's shared setup.
func merge(s, setup Selector) Selector {
	s.Increments = cmp.Or(s.Increments, setup.Increments)
	s.Trades = cmp.Or(s.Trades, setup.Trades)
	s.Concurrency = cmp.Or(s.Concurrency, setup.Concurrency)
	s.Connections = cmp.Or(s.Connections, setup.Connections)
	s.Rate = cmp.Or(s.Rate, setup.Rate)
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
