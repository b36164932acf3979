package results

import "strings"

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
