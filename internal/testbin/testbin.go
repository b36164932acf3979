// Package testbin builds the wirebench binary once for a package's tests, for tests
// that start worker processes (which run the binary's own `worker` command).
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Main builds the wirebench command at pkg (its import path,
// "github.com/wirebench/wirebench/cmd/wirebench", which holds wherever the test's
// package lives; or a path relative to the test's package) into a temporary directory, sets *binary to its path, runs
// the tests and exits with their code. Call it from TestMain. A failed build prints
// the compiler's output and exits 2.
func Main(m *testing.M, pkg string, binary *string) {
	dir, err := os.MkdirTemp("", "wbtest")
	if err != nil {
		panic(err)
	}
	*binary = filepath.Join(dir, "wirebench")
	// Commands record their results in the default store under the user's data
	// directory: the tests' go to a directory of their own (and the processes they
	// start inherit it).
	os.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	if out, err := exec.Command("go", "build", "-o", *binary, pkg).CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		os.Stderr.WriteString("testbin: building " + pkg + ": " + err.Error() + "\n")
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
