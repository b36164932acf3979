package suite

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is one problem in a suite file, at the position of the key or value it is about.
type Error struct {
	File string
	Line int
	// Column is 0 when it is unknown: the YAML parser reports the line of a syntax
	// error but not its column.
	Column int
	Msg    string
}

func (e *Error) Error() string {
	if e.Column == 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// maxErrors bounds the errors one Parse reports: past a few dozen, the rest are
// usually echoes of the first ones.
const maxErrors = 50

// checker collects the errors of one Parse. It is owned by one goroutine.
type checker struct {
	file string
	errs []*Error
	seen map[Error]bool
	// old are the lines each former key was used on, in file order, by the rename.
	old     map[rename][]int
	oldKeys []rename // old's keys in the order first met
}

// rename is a former key (a setting's, spec.Setting.OldKey, or another's,
// spec.Key.OldKey) and the key it is now.
type rename struct{ old, now string }

// renamed records that key k is a former name of key now (read as now).
func (c *checker) renamed(k *yaml.Node, now string) {
	if c.old == nil {
		c.old = map[rename][]int{}
	}
	r := rename{k.Value, now}
	if _, seen := c.old[r]; !seen {
		c.oldKeys = append(c.oldKeys, r)
	}
	c.old[r] = append(c.old[r], k.Line)
}

// notes are what the file should change though it was read: one line per former
// key it uses, at its first use, with the lines of the others.
func (c *checker) notes() []string {
	var out []string
	for _, r := range c.oldKeys {
		lines := c.old[r]
		note := fmt.Sprintf("%s:%d: %q is deprecated: it is %q now (read as %s)", c.file, lines[0], r.old, r.now, r.now)
		if len(lines) > 1 {
			var more []string
			for _, l := range lines[1:] {
				more = append(more, strconv.Itoa(l))
			}
			note += "; also on line " + strings.Join(more, ", ")
		}
		out = append(out, note)
	}
	return out
}

func newChecker(file string) *checker {
	return &checker{file: file, seen: map[Error]bool{}}
}

// at records a problem at n's position. The same message at the same place is recorded
// once: a bad item of a list that is crossed with others would otherwise repeat.
func (c *checker) at(n *yaml.Node, format string, args ...any) {
	e := Error{File: c.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	if e.Line == 0 {
		e.Line, e.Column = 1, 1
	}
	if c.seen[e] {
		return
	}
	c.seen[e] = true
	c.errs = append(c.errs, &e)
}

func (c *checker) failed() bool { return len(c.errs) > 0 }

// err returns the errors sorted by position, joined, or nil.
func (c *checker) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(c.errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	errs := make([]error, 0, min(len(c.errs), maxErrors)+1)
	for _, e := range c.errs[:min(len(c.errs), maxErrors)] {
		errs = append(errs, e)
	}
	if n := len(c.errs) - maxErrors; n > 0 {
		errs = append(errs, fmt.Errorf("%s: and %d more errors", c.file, n))
	}
	return errors.Join(errs...)
}
