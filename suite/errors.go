package suite

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

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
