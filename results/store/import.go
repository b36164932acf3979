package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// ResultsFile is the name of a run directory's results document.
const ResultsFile = "results.json"

// FindResults returns the results documents a path names: a file itself; a run
// directory's results.json; or, for a directory of run directories (runs/ with
// one directory per run), each one's results.json, in name order (which is time
// order for run's default names).
func FindResults(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	if f := filepath.Join(path, ResultsFile); exists(f) {
		return []string{f}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if f := filepath.Join(path, e.Name(), ResultsFile); e.IsDir() && exists(f) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no %s in it or in its subdirectories", path, ResultsFile)
	}
	sort.Strings(out)
	return out, nil
}

func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
