// Package markdown keeps names and messages literal in the Markdown that
// report and compare write. Its functions are pure and safe for concurrent use.
package markdown

import "strings"

// escaper undoes what Markdown would make of a benchmark's name or a message:
// no table cell split by "|", no emphasis, code span or raw HTML, and no line
// break. A ">" needs nothing: it quotes only at the start of a line, and no
// escaped text starts one, since newlines become spaces.
var escaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`",
	"<", "&lt;", "\n", " ", "\r", "",
)

// Escape returns s to show literally in Markdown text or a table cell.
func Escape(s string) string { return escaper.Replace(s) }

// Code returns s to show between single backticks: a code span cannot escape
// a backtick, so it becomes a quote.
func Code(s string) string { return strings.ReplaceAll(s, "`", "'") }
