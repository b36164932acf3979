package results

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Files written before Benchmark.Series and Benchmark.Group existed carry them only
// inside the name, as spec.Spec.Name built it: "series/transport/group". These read
// them back from there; nothing else parses a name.

// legacySeries is the protocol with the bracketed tags the name carries (label and
// non-default stacks), e.g. "http-json[server=go-tuned-json]", or with its label when
// the name has another form.
func legacySeries(b *Benchmark) string {
	if rest, ok := strings.CutPrefix(b.Name, b.Protocol+"["); ok && b.Protocol != "" {
		if tags, _, ok := strings.Cut(rest, "]/"); ok {
			return b.Protocol + "[" + tags + "]"
		}
	}
	if b.Label != "" {
		return b.Protocol + "[" + b.Label + "]"
	}
	return b.Protocol
}

// legacyGroup is the name minus its "series/transport/" prefix, or the same shape
// rebuilt from the fields for a name of another form.
func legacyGroup(b *Benchmark) string {
	series := legacySeries(b)
	for _, prefix := range []string{series + "/" + b.Transport + "/", series + "/"} {
		if rest, ok := strings.CutPrefix(b.Name, prefix); ok && rest != "" && b.Protocol != "" {
			return rest
		}
	}
	s := b.Workload
	if ps := ParamString(b.Params); ps != "" {
		s += "[" + ps + "]"
	}
	return s + "/" + LoadName(b.Load)
}

// Files written before warnings had kinds hold each as its text alone, as reports
// printed it: its kind's label, then for a failure in a fork "trial N, PHASE: ", then
// the message (Warning.String wrote them so, and still does). legacyWarning reads one
// back as data: the kind whose label the text begins with (WarnOther when none does),
// the fork and phase of a failure, and the message. Printed again, it is the same text.
func legacyWarning(s string) Warning {
	for k, l := range labels {
		rest, ok := strings.CutPrefix(s, l+": ")
		if !ok {
			continue
		}
		w := Warning{Kind: k, Text: rest}
		if k == WarnFailed {
			w.Fork, w.Phase, w.Text = legacyPlace(rest)
		}
		return w
	}
	return Warning{Kind: WarnOther, Text: s}
}

// legacyPlace takes "trial N, PHASE: why" apart (ForkError's text); a text of
// another form is all why.
func legacyPlace(s string) (fork int, phase, why string) {
	rest, ok := strings.CutPrefix(s, "trial ")
	if !ok {
		return 0, "", s
	}
	n, rest, ok := strings.Cut(rest, ", ")
	if !ok {
		return 0, "", s
	}
	phase, why, ok = strings.Cut(rest, ": ")
	fork, err := strconv.Atoi(n)
	if !ok || err != nil || fork < 1 || phase == "" {
		return 0, "", s
	}
	return fork, phase, why
}

// legacyFork brings the error of a fork from a file written before ForkResult.Phase,
// "trial N, PHASE: why" (N its own number), to Phase and Error.
func legacyFork(t *ForkResult) {
	if t.Phase != "" || t.Error == "" {
		return
	}
	if fork, phase, why := legacyPlace(t.Error); fork == t.Index+1 {
		t.Phase, t.Error = phase, why
	}
}

// stackFields is Stack without its methods, so that encoding/json decodes its fields
// and not UnmarshalJSON again.
type stackFields Stack

// UnmarshalJSON reads a stack, taking its runtime options from "jvm_args" in a file
// written before they were called runtime_args (2026-11-29). Written again, they are
// runtime_args.
func (s *Stack) UnmarshalJSON(data []byte) error {
	var j struct {
		stackFields
		JVMArgs []string `json:"jvm_args"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*s = Stack(j.stackFields)
	if s.RuntimeArgs == nil {
		s.RuntimeArgs = j.JVMArgs
	}
	return nil
}

// Files written before schema_version 3 (2026-11-29) call a benchmark's rounds per
// fork "iterations", a slice's length "iteration_s" or "iteration_ops", a fork's
// slices "iterations", and the steady-state class of too few rounds "too few
// iterations". These read them as today's names; written again, they are today's.

// formerSteadyUnknown is SteadyUnknown's text before schema_version 3.
const formerSteadyUnknown = "too few iterations"

// legacyRounds takes b's rounds and slice length from their former names in j, and
// its steady class from its former text.
func legacyRounds(b *Benchmark, j benchmarkJSON) {
	if b.Rounds == 0 {
		b.Rounds = j.Iterations
	}
	if b.SliceSeconds == 0 && b.SliceOps == 0 {
		b.SliceSeconds, b.SliceOps = j.IterationSeconds, j.IterationOps
	}
	if b.Steady == formerSteadyUnknown {
		b.Steady = SteadyUnknown
	}
}

// forkFields is ForkResult without its methods, so that encoding/json decodes its
// fields and not UnmarshalJSON again.
type forkFields ForkResult

// UnmarshalJSON reads a fork, taking its slices from "iterations" in a file written
// before they were called slices (schema_version 3), and its steady class from its
// former text.
func (f *ForkResult) UnmarshalJSON(data []byte) error {
	var j struct {
		forkFields
		Iterations []Slice `json:"iterations"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*f = ForkResult(j.forkFields)
	if f.Slices == nil {
		f.Slices = j.Iterations
	}
	if f.Steady != nil && f.Steady.Class == formerSteadyUnknown {
		f.Steady.Class = SteadyUnknown
	}
	return nil
}
