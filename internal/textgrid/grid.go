// Package textgrid lays out text in aligned columns: the terminal tables of
// reports and comparisons, benchstat's tables to the space, and Markdown
// tables whose source reads as a table too. It does no I/O but the final
// write; a Grid is owned by one goroutine.
package textgrid

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// Align places a value in its width.
type Align byte

const (
	Left   Align = 'l'
	Center Align = 'c'
	Right  Align = 'r'
)

// Grid lays out cells in columns the way benchstat's tables are laid out, so
// that the benchstat format matches it to the space: every column has a left
// margin as wide as the widest margin asked for in it (a narrower margin is
// right-aligned in it), a cell may span columns, and a spanning cell too wide
// for its columns widens only the columns not marked Shrink. A column is as
// wide as its widest cell; widths are counted in runes. Rows are not padded
// on the right, and a cell whose value and margin are both blank is not
// written.
type Grid struct {
	cells  []cell
	cols   int
	shrink map[int]bool
	row    int
	col    int
}

type cell struct {
	row, col, span int
	value, margin  string
	align          Align
	fill           rune // what pads a right-aligned value: a space, or '-' for a rule
}

// NewRow starts a row; the first call starts the first.
func (g *Grid) NewRow() {
	if len(g.cells) > 0 {
		g.row++
	}
	g.col = 0
}

// At moves to column col of the current row.
func (g *Grid) At(col int) *Grid {
	g.col = col
	return g
}

// Add places a cell spanning span columns at the current column and moves
// past it. A cell that is not first in its row and not empty gets a one-space
// margin unless margin says otherwise.
func (g *Grid) Add(span int, value string, align Align, margin ...string) {
	m := " "
	if g.col == 0 || value == "" {
		m = ""
	}
	if len(margin) > 0 {
		m = margin[0]
	}
	g.place(cell{span: span, value: value, margin: m, align: align, fill: ' '})
}

// AddFill places a cell whose value is right-aligned and the width left of it
// filled with fill: "---" and "--:" filled with '-' are the rule under a
// Markdown table's head.
func (g *Grid) AddFill(span int, value string, fill rune, margin string) {
	g.place(cell{span: span, value: value, margin: margin, align: Right, fill: fill})
}

func (g *Grid) place(c cell) {
	c.row, c.col = g.row, g.col
	g.cells = append(g.cells, c)
	g.col += c.span
	g.cols = max(g.cols, g.col)
}

// Shrink marks col as one a spanning cell does not widen.
func (g *Grid) Shrink(col int) {
	if g.shrink == nil {
		g.shrink = map[int]bool{}
	}
	g.shrink[col] = true
}

// Write writes the rows laid out, each ended by a newline.
func (g *Grid) Write(w io.Writer) error {
	n := utf8.RuneCountInString
	margin := make([]int, g.cols)
	for _, c := range g.cells {
		margin[c.col] = max(margin[c.col], n(c.margin))
	}
	widths := make([]int, g.cols)
	cells := append([]cell(nil), g.cells...)
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].span < cells[j].span })
	for _, c := range cells {
		need := n(c.value) + margin[c.col]
		if c.span == 1 {
			widths[c.col] = max(widths[c.col], need)
			continue
		}
		have := 0
		for col := c.col; col < c.col+c.span; col++ {
			have += widths[col]
		}
		if have >= need {
			continue
		}
		var grow []int
		for col := c.col; col < c.col+c.span; col++ {
			if g.shrink[col] {
				need -= widths[col]
			} else {
				grow = append(grow, col)
			}
		}
		// Share what is missing among the growable columns, widest first,
		// each taking its rounded-up share.
		sort.SliceStable(grow, func(i, j int) bool { return widths[grow[i]] > widths[grow[j]] })
		for left, col := range grow {
			k := len(grow) - left
			widths[col] = max(widths[col], (need+k-1)/k)
			need -= widths[col]
		}
	}
	offset := make([]int, g.cols+1)
	for i, wd := range widths {
		offset[i+1] = offset[i] + wd
	}

	sort.SliceStable(cells, func(i, j int) bool {
		if cells[i].row != cells[j].row {
			return cells[i].row < cells[j].row
		}
		return cells[i].col < cells[j].col
	})
	var b strings.Builder
	row, pos := 0, 0
	for _, c := range cells {
		if strings.TrimSpace(c.value) == "" && strings.TrimSpace(c.margin) == "" {
			continue
		}
		for ; row < c.row; row++ {
			b.WriteByte('\n')
			pos = 0
		}
		fmt.Fprintf(&b, "%*s%*s", offset[c.col]-pos, "", margin[c.col], c.margin)
		pos = offset[c.col] + margin[c.col]
		width := offset[c.col+c.span] - offset[c.col] - margin[c.col]
		s := c.value
		switch c.align {
		case Center:
			s = strings.Repeat(" ", max((width-n(s))/2, 0)) + s
		case Right:
			s = strings.Repeat(string(c.fill), max(width-n(s), 0)) + s
		}
		b.WriteString(s)
		pos += n(s)
	}
	if len(cells) > 0 {
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
