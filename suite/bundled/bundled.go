// Package suites holds the bundled suite files, embedded in the binary. A bundled suite
// is one NAME.yaml file in this directory: dropping a file here adds it to
// `wirebench run NAME`, to suite.Bundled, and to the suite package's tests, which parse
// every bundled file. The format is in docs/suites.md.
package bundled

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// FS holds the bundled suite files, NAME.yaml at its root.
//
//go:embed *.yaml
var FS embed.FS

// Names returns the names of the bundled suites (their file names without .yaml),
// sorted.
func Names() ([]string, error) {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok && !e.IsDir() {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}

// Originals holds the original experiments' published figures, originals/NAME.yaml, one
// file per original (package originals reads them; a suite names one with its original
// key). The format is in docs/suites.md ("Originals' figures").
//
//go:embed originals/*.yaml
var Originals embed.FS
