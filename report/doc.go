// Package report renders results (package results) as terminal tables, Markdown,
// CSV and a self-contained HTML page with charts, with the views in the shape of
// the original experiments' tables. It only reads results: what was measured and
// what it means is decided before, in driver and summary.
package report
