package suite

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/suite/originals"
)

// Original names the original experiment a suite reproduces: its published figures
// (suite/bundled/originals/NAME.yaml) and, when the suite reproduces one of its setups
// only, that setup.
type Original struct {
	Name, Setup string
}

// Deviation is one declared departure of a suite from its original: what differs,
// and why.
type Deviation struct {
	What, Why string
}

// readOriginal reads the original key: the name of an original's published figures
// (suite/bundled/originals/NAME.yaml), or a mapping of that name and one of its setups. The
// figures must load: a suite that declares an original whose figures are missing or
// malformed would print no Original vs wirebench table and not say why.
func (c *checker) readOriginal(n *yaml.Node, load func(string) (*originals.Original, error)) *Original {
	ref := &Original{}
	nameNode, setupNode := n, (*yaml.Node)(nil)
	if r := resolve(n); r != nil && r.Kind == yaml.MappingNode {
		fs, ok := c.fields(n, "original", []string{"name", "setup"}, nil)
		if !ok {
			return nil
		}
		if fs["name"].key == nil {
			c.at(n, "original: missing name (e.g. original: {name: metrifier, setup: cloud})")
			return nil
		}
		nameNode, setupNode = fs["name"].val, fs["setup"].val
	}
	name, ok := c.str("original", nameNode)
	if !ok {
		return nil
	}
	ref.Name = name
	o, err := load(name)
	if err != nil {
		c.at(resolve(nameNode), "original: %s", strings.ReplaceAll(err.Error(), "\n", "\n\t"))
		return nil
	}
	if setupNode != nil {
		setup, ok := c.str("original.setup", setupNode)
		if !ok {
			return nil
		}
		if o.SetupNamed(setup) == nil {
			var names []string
			for _, s := range o.Setups {
				names = append(names, s.Name)
			}
			c.at(resolve(setupNode), "original.setup: %s has no setup %q (its setups: %s)", name, setup, strings.Join(names, ", "))
			return nil
		}
		ref.Setup = setup
	}
	return ref
}

// readDeviations reads the deviations list: each entry a mapping of what differs from
// the original and why, both required.
func (c *checker) readDeviations(n *yaml.Node) []Deviation {
	items := resolve(n)
	if items == nil || items.Kind != yaml.SequenceNode || len(items.Content) == 0 {
		c.at(n, "deviations: want a list of {what, why} entries (lines starting with -)")
		return nil
	}
	var out []Deviation
	for _, it := range items.Content {
		fs, ok := c.fields(it, "a deviation", []string{"what", "why"}, nil)
		if !ok {
			continue
		}
		var d Deviation
		for key, dst := range map[string]*string{"what": &d.What, "why": &d.Why} {
			f, ok := fs[key]
			if !ok {
				c.at(it, "a deviation: missing %s (each says what differs from the original, and why)", key)
				continue
			}
			*dst, _ = c.str(key, f.val)
		}
		if d.What != "" && d.Why != "" {
			out = append(out, d)
		}
	}
	return out
}
