package suite

import (
	"math"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/spec"
)

// settings are the run settings one level of a suite sets (defaults, a target or a
// workload entry), by key of spec.Settings; a key that is absent is not set at that
// level, so the level below shows through.
type settings map[string]spec.Value

// over returns s with the settings o sets replaced. Two alternatives (duration and
// ops: how a slice ends) are one choice, so setting either drops the other from
// below.
func (s settings) over(o settings) settings {
	out := make(settings, len(s)+len(o))
	for k, v := range s {
		out[k] = v
	}
	for k, v := range o {
		if alt := spec.LookupSetting(k).Alternative; alt != "" {
			delete(out, alt)
		}
		out[k] = v
	}
	return out
}

// sets reports whether s sets any of keys.
func (s settings) sets(keys ...string) bool {
	for _, k := range keys {
		if _, ok := s[k]; ok {
			return true
		}
	}
	return false
}

// apply stores the settings in sp, over what it holds (spec.Default's values).
func (s settings) apply(sp *spec.Spec) {
	for _, st := range spec.Settings {
		if v, ok := s[st.Key]; ok {
			st.Set(sp, v)
		}
	}
}

// readSettings reads the setting keys among fs, each as its kind is written and
// checked against its bounds (spec.Setting.Check). Values that fail are reported at
// their position and left unset.
func (c *checker) readSettings(fs map[string]field) settings {
	s := settings{}
	for _, st := range spec.Settings {
		f, ok := fs[st.Key]
		if !ok {
			continue
		}
		if alt, ok := fs[st.Alternative]; ok && st.Key < st.Alternative {
			later := f.key
			if alt.key.Line > later.Line || (alt.key.Line == later.Line && alt.key.Column > later.Column) {
				later = alt.key
			}
			c.at(later, "set %s or %s, not both: a slice lasts a time or a number of ops", st.Key, st.Alternative)
		}
		v, ok := c.settingValue(st, f.val)
		if !ok {
			continue
		}
		if msg := st.Check(v); msg != "" {
			c.at(resolve(f.val), "%s: %s", st.Key, msg)
			continue
		}
		s[st.Key] = v
	}
	return s
}

// settingValue reads n as a value of st's kind, reporting a value that is not one.
// Bounds are left to st.Check.
func (c *checker) settingValue(st *spec.Setting, n *yaml.Node) (spec.Value, bool) {
	key := st.Key
	switch st.Kind {
	case spec.Duration:
		return c.duration(key, n, math.MinInt64, math.MaxInt64)
	case spec.Int:
		return c.integer(key, n, math.MinInt64, math.MaxInt64)
	case spec.Uint:
		return c.uinteger(key, n)
	case spec.Size:
		return c.size(key, n, math.MinInt64, math.MaxInt64)
	case spec.Enum, spec.Text:
		return c.str(key, n)
	case spec.CPUs:
		return c.cpus(key, n)
	case spec.Args:
		v, ok := c.str(key, n)
		return strings.Fields(v), ok
	case spec.Float:
		return c.number(key, n)
	case spec.Bool:
		return c.boolean(key, n)
	case spec.SLOs:
		return c.slos(key, n)
	}
	panic("suite: setting " + key + " has no kind")
}
