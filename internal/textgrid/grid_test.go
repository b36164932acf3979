package textgrid

import (
	"strings"
	"testing"
)

func TestGrid(t *testing.T) {
	tests := []struct {
		name  string
		build func(g *Grid)
		want  string
	}{
		{
			// Columns as wide as their widest cell plus margin: "ccc" makes
			// column 0 three wide, "bb" with its two-space margin column 1 four.
			name: "columns",
			build: func(g *Grid) {
				g.NewRow()
				g.Add(1, "a", Left, "")
				g.Add(1, "bb", Right, "  ")
				g.NewRow()
				g.Add(1, "ccc", Left, "")
				g.Add(1, "d", Right, "  ")
			},
			want: "a    bb\nccc   d\n",
		},
		{
			// A blank cell is not written, the next one still starts at its
			// column, and the last cell of a row is not padded on the right.
			name: "blank cell and no right padding",
			build: func(g *Grid) {
				g.NewRow()
				g.Add(1, "a", Left, "")
				g.Add(1, "", Right, "  ")
				g.Add(1, "b", Left, "  ")
				g.NewRow()
				g.Add(1, "aaa", Left, "")
				g.Add(1, "12", Right, "  ")
				g.Add(1, "c", Left, "  ")
			},
			want: "a        b\naaa  12  c\n",
		},
		{
			// The 10-rune title plus its 3-rune margin needs 13 over columns
			// 1-2, which have 4 and 2: the wider column takes its rounded-up
			// half (7), the other the rest (6), so "2" is right-aligned in 5.
			name: "span widens columns",
			build: func(g *Grid) {
				g.NewRow()
				g.At(1).Add(2, "wide-title", Center, " │ ")
				g.NewRow()
				g.Add(1, "n", Left)
				g.Add(1, "1", Right, " │ ")
				g.Add(1, "2", Right)
			},
			want: "  │ wide-title\nn │    1     2\n",
		},
		{
			// With column 2 marked Shrink, column 1 alone grows to 11, and
			// column 2 keeps its width of 2 (" 2").
			name: "span with a shrink column",
			build: func(g *Grid) {
				g.Shrink(2)
				g.NewRow()
				g.At(1).Add(2, "wide-title", Center, " │ ")
				g.NewRow()
				g.Add(1, "n", Left)
				g.Add(1, "1", Right, " │ ")
				g.Add(1, "2", Right)
			},
			want: "  │ wide-title\nn │        1 2\n",
		},
		{
			// A Markdown rule: "--:" filled with dashes to the column's five.
			name: "fill",
			build: func(g *Grid) {
				g.NewRow()
				g.Add(1, "abcde", Left, "| ")
				g.Add(1, "|", Left, " ")
				g.NewRow()
				g.AddFill(1, "--:", '-', "| ")
				g.Add(1, "|", Left, " ")
			},
			want: "| abcde |\n| ----: |\n",
		},
		{
			// Widths count runes, not bytes: "µs" is two wide.
			name: "runes",
			build: func(g *Grid) {
				g.NewRow()
				g.Add(1, "µs", Left, "")
				g.Add(1, "x", Left, " ")
				g.NewRow()
				g.Add(1, "ab", Left, "")
				g.Add(1, "y", Left, " ")
			},
			want: "µs x\nab y\n",
		},
		{
			name:  "empty",
			build: func(*Grid) {},
			want:  "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g Grid
			tt.build(&g)
			var b strings.Builder
			if err := g.Write(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}
