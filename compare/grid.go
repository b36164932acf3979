package compare

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// grid lays out text in columns the way benchstat's tables are laid out, so
// that the benchstat format matches it to the space: every column has a left
// margin as wide as the widest margin asked for in it (a narrower margin is
// right-aligned in it), a cell may span columns, and a spanning cell too wide
// for its columns widens only the columns not marked shrink. Rows are not
// padded on the right.
type grid struct {
	cells  []gridCell
	cols   int
	shrink map[int]bool
	row    int
	col    int
}

type gridCell struct {
	row, col, span int
	value, margin  string
	align          byte // 'l', 'c' or 'r'
}

func (g *grid) newRow() {
	if len(g.cells) > 0 {
		g.row++
	}
	g.col = 0
}

// at moves to column col of the current row.
func (g *grid) at(col int) *grid {
	g.col = col
	return g
}

// add places a cell spanning span columns at the current column. A cell that
// is not first in its row and not empty gets a one-space margin unless margin
// says otherwise ("" keeps the default).
func (g *grid) add(span int, value string, align byte, margin ...string) {
	m := " "
	if g.col == 0 || value == "" {
		m = ""
	}
	if len(margin) > 0 {
		m = margin[0]
	}
	g.cells = append(g.cells, gridCell{g.row, g.col, span, value, m, align})
	g.col += span
	g.cols = max(g.cols, g.col)
}

func (g *grid) setShrink(col int) {
	if g.shrink == nil {
		g.shrink = map[int]bool{}
	}
	g.shrink[col] = true
}

func (g *grid) write(w io.Writer) error {
	n := utf8.RuneCountInString
	margin := make([]int, g.cols)
	for _, c := range g.cells {
		margin[c.col] = max(margin[c.col], n(c.margin))
	}
	widths := make([]int, g.cols)
	cells := append([]gridCell(nil), g.cells...)
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
		case 'c':
			s = strings.Repeat(" ", max((width-n(s))/2, 0)) + s
		case 'r':
			s = strings.Repeat(" ", max(width-n(s), 0)) + s
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
