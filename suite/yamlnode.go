package suite

import (
	"fmt"
	"github.com/wirebench/wirebench/internal/suggest"
	"math"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/spec"
)

// This file reads yaml.Nodes into Go values, reporting every problem at the node's
// position. Each reader returns ok=false after recording an error, so callers can keep
// going and report the other problems of the file too.

// resolve follows aliases (*name) to the node they name. yaml.v3 refuses aliases to
// undefined anchors and anchors that contain themselves, so the chain is short; the
// bound is a guard, not a limit users meet.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 16; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// describe names what n is, for "want X, got Y" messages.
func describe(n *yaml.Node) string {
	switch {
	case isNull(n):
		return "nothing"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.AliasNode:
		return "an alias"
	}
	return fmt.Sprintf("%q", n.Value)
}

// field is one key of a mapping and its value.
type field struct {
	key, val *yaml.Node
}

// fields reads the mapping n (null reads as empty). Keys outside valid are reported as
// unknown "in where", with the valid keys listed and hint(key) appended when it has
// something to say; a repeated key is reported at its second use.
func (c *checker) fields(n *yaml.Node, where string, valid []string, hint func(string) string) (map[string]field, bool) {
	n = resolve(n)
	out := map[string]field{}
	if isNull(n) {
		return out, true
	}
	if n.Kind != yaml.MappingNode {
		c.at(n, "%s: want a mapping (key: value lines), got %s", where, describe(n))
		return out, false
	}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolve(n.Content[i])
		if k == nil || k.Kind != yaml.ScalarNode || isNull(k) {
			c.at(n.Content[i], "%s: want a key name, got %s", where, describe(k))
			ok = false
			continue
		}
		name := k.Value
		if now := spec.RenamedKey(name); now != "" && slices.Contains(valid, now) {
			name = now // a former name, read as today's (checker.renamed)
			c.renamed(k, now)
		}
		if first, dup := out[name]; dup {
			if name != k.Value || first.key.Value != name {
				old := k.Value
				if old == name {
					old = first.key.Value
				}
				c.at(k, "key %q in %s sets %s again (first at line %d, as %q): %s is its former name", k.Value, where, name, first.key.Line, first.key.Value, old)
			} else {
				c.at(k, "key %q repeated in %s (first at line %d)", k.Value, where, first.key.Line)
			}
			ok = false
			continue
		}
		if !slices.Contains(valid, name) {
			// The key's own hint says more than the nearest name; without one, the
			// nearest valid key is offered.
			h := ""
			if hint != nil {
				h = hint(k.Value)
			}
			msg := fmt.Sprintf("unknown key %q in %s (valid: %s); %s", k.Value, where, strings.Join(valid, ", "), h)
			if h == "" {
				msg = fmt.Sprintf("unknown key %q in %s%s (valid: %s)", k.Value, where, suggest.Hint(k.Value, valid), strings.Join(valid, ", "))
			}
			c.at(k, "%s", msg)
			ok = false
			continue
		}
		out[name] = field{key: k, val: n.Content[i+1]}
	}
	return out, ok
}

// scalar returns n resolved when it is a non-null scalar.
func (c *checker) scalar(key string, n *yaml.Node, want string) (*yaml.Node, bool) {
	r := resolve(n)
	if r == nil || r.Kind != yaml.ScalarNode || isNull(r) {
		c.at(n, "%s: want %s, got %s", key, want, describe(r))
		return nil, false
	}
	return r, true
}

func (c *checker) str(key string, n *yaml.Node) (string, bool) {
	r, ok := c.scalar(key, n, "a string")
	if !ok {
		return "", false
	}
	return r.Value, true
}

// integer reads a YAML integer in [lo, hi].
func (c *checker) integer(key string, n *yaml.Node, lo, hi int64) (int64, bool) {
	r, ok := c.scalar(key, n, "an integer")
	if !ok {
		return 0, false
	}
	var v int64
	if r.ShortTag() != "!!int" || r.Decode(&v) != nil {
		c.at(r, "%s: want an integer, got %s", key, describe(r))
		return 0, false
	}
	if v < lo || v > hi {
		c.at(r, "%s: %d is out of range [%d, %d]", key, v, lo, hi)
		return 0, false
	}
	return v, true
}

func (c *checker) uinteger(key string, n *yaml.Node) (uint64, bool) {
	r, ok := c.scalar(key, n, "an integer")
	if !ok {
		return 0, false
	}
	var v uint64
	if r.ShortTag() != "!!int" || r.Decode(&v) != nil {
		c.at(r, "%s: want an integer from 0 to %d, got %s", key, uint64(math.MaxUint64), describe(r))
		return 0, false
	}
	return v, true
}

// boolean reads true or false.
func (c *checker) boolean(key string, n *yaml.Node) (bool, bool) {
	r, ok := c.scalar(key, n, "true or false")
	if !ok {
		return false, false
	}
	var v bool
	if r.ShortTag() != "!!bool" || r.Decode(&v) != nil {
		c.at(r, "%s: want true or false, got %s", key, describe(r))
		return false, false
	}
	return v, true
}

// number reads an integer or a float (a rate).
func (c *checker) number(key string, n *yaml.Node) (float64, bool) {
	r, ok := c.scalar(key, n, "a number")
	if !ok {
		return 0, false
	}
	var v float64
	if t := r.ShortTag(); (t != "!!int" && t != "!!float") || r.Decode(&v) != nil {
		c.at(r, "%s: want a number, got %s", key, describe(r))
		return 0, false
	}
	return v, true
}

// duration reads a Go duration ("500ms", "1s", "2m"); a bare 0 is zero.
func (c *checker) duration(key string, n *yaml.Node, lo, hi time.Duration) (time.Duration, bool) {
	r, ok := c.scalar(key, n, "a duration")
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(r.Value)
	if err != nil {
		c.at(r, "%s: %q is not a duration (want e.g. 500ms, 1s, 1m30s)", key, r.Value)
		return 0, false
	}
	if d < lo || d > hi {
		c.at(r, "%s: %v is out of range [%v, %v]", key, d, lo, hi)
		return 0, false
	}
	return d, true
}

func (c *checker) size(key string, n *yaml.Node, lo, hi int64) (int64, bool) {
	r, ok := c.scalar(key, n, "a size")
	if !ok {
		return 0, false
	}
	z, err := units.ParseSize(r.Value)
	if err != nil {
		c.at(r, "%s: %v", key, err)
		return 0, false
	}
	if int64(z) < lo || int64(z) > hi {
		c.at(r, "%s: %s is out of range [%s, %s]", key, z, units.Size(lo), units.Size(hi))
		return 0, false
	}
	return int64(z), true
}

// cpus reads a Linux CPU list ("0", "0-1", "0,2"), or none for no pinning (nil).
func (c *checker) cpus(key string, n *yaml.Node) ([]int, bool) {
	r, ok := c.scalar(key, n, `a CPU list such as "0", "0-1" or none`)
	if !ok {
		return nil, false
	}
	if r.Value == "none" {
		return nil, true
	}
	cpus, err := cpuset.ParseCPUList(r.Value)
	if err != nil {
		c.at(r, "%s: %v (or none to not pin)", key, err)
		return nil, false
	}
	return cpus, true
}

// list reads a list, or a single value as a list of one. An empty list is an error:
// every list in a suite is an axis of the expansion, and an empty axis would make the
// suite run nothing without saying so.
func (c *checker) list(key string, n *yaml.Node) ([]*yaml.Node, bool) {
	r := resolve(n)
	switch {
	case isNull(r):
		c.at(n, "%s: want a value or a list of values, got nothing", key)
		return nil, false
	case r.Kind == yaml.MappingNode:
		c.at(n, "%s: want a value or a list of values, got a mapping", key)
		return nil, false
	case r.Kind == yaml.SequenceNode:
		if len(r.Content) == 0 {
			c.at(n, "%s: empty list; give at least one value", key)
			return nil, false
		}
		return r.Content, true
	}
	return []*yaml.Node{n}, true
}

// stringMap reads a mapping of names to scalar values (protocol options).
func (c *checker) stringMap(key string, n *yaml.Node) (map[string]string, bool) {
	r := resolve(n)
	if isNull(r) {
		return nil, true
	}
	if r.Kind != yaml.MappingNode {
		c.at(n, "%s: want a mapping of option names to values, got %s", key, describe(r))
		return nil, false
	}
	out := map[string]string{}
	ok := true
	for i := 0; i+1 < len(r.Content); i += 2 {
		k, v := resolve(r.Content[i]), r.Content[i+1]
		if k == nil || k.Kind != yaml.ScalarNode || isNull(k) || k.Value == "" {
			c.at(r.Content[i], "%s: want an option name, got %s", key, describe(k))
			ok = false
			continue
		}
		if _, dup := out[k.Value]; dup {
			c.at(k, "%s: option %q repeated", key, k.Value)
			ok = false
			continue
		}
		s, vok := c.scalar(key+"."+k.Value, v, "a value")
		if !vok {
			ok = false
			continue
		}
		out[k.Value] = s.Value
	}
	return out, ok
}
