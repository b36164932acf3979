package launch

import (
	"os"
	"path/filepath"
)

// findInstalled finds a worker installed in its directory of the repository (rel, e.g.
// "workers/python"): the directory $env names, then rel beside the wirebench binary's
// bin/ directory, then rel under the current directory; the first that has marker (a
// path inside it that installing makes) is returned, absolute.
func findInstalled(opt Options, env, rel, marker string) (string, bool) {
	cands := []string{os.Getenv(env)}
	if opt.Binary != "" {
		cands = append(cands, filepath.Join(filepath.Dir(opt.Binary), "..", rel))
	}
	cands = append(cands, rel)
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(c, marker)); err == nil {
			if abs, err := filepath.Abs(c); err == nil {
				return abs, true
			}
		}
	}
	return "", false
}
