package launch

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/protocol"
)

// installed makes a worker directory with marker in it and points env at it.
func installed(t *testing.T, env, marker string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(marker)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, marker), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(env, dir)
	return dir
}

// The Python and Node launchers: the worker's interpreter with its default options,
// then the user's runtime options (runtime_args), before the worker's script; the
// runtime's own profiler when profiled; and a clear error naming `make python` /
// `make node` when the worker is not installed.
func TestInterpretedWorkerCommands(t *testing.T) {
	dir := installed(t, PythonWorkerEnv, ".venv/bin/python")
	c := Command{Options: Options{RuntimeArgs: []string{"-Xdev"}}, Stack: &protocol.Stack{Worker: protocol.WorkerPython},
		Socket: "/tmp/s.sock", Profile: "/tmp/prof/server-0-0"}
	argv, err := pythonCommand(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, ".venv/bin/python"), "-X", "faulthandler", "-Xdev", "-m", "cProfile", "-o", "/tmp/prof/server-0-0.pstats",
		filepath.Join(dir, "worker.py"), "worker", "--listen", "unix:///tmp/s.sock"}
	if !slices.Equal(argv, want) {
		t.Errorf("python argv %q, want %q", argv, want)
	}
	if _, err := exec.LookPath("node"); err == nil {
		dir = installed(t, NodeWorkerEnv, "node_modules/@grpc/grpc-js/package.json")
		c.Options.RuntimeArgs = []string{"--max-old-space-size=8192"}
		argv, err = nodeCommand(c)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(argv, "--cpu-prof") || !slices.Contains(argv, "--cpu-prof-name=server-0-0.cpuprofile") ||
			!slices.Equal(argv[1:3], []string{"--max-old-space-size=4096", "--max-old-space-size=8192"}) || argv[len(argv)-4] != filepath.Join(dir, "worker.js") {
			t.Errorf("node argv %q, want node's default then the user's --max-old-space-size first", argv)
		}
	}
	t.Setenv(PythonWorkerEnv, t.TempDir()) // no venv there
	t.Chdir(t.TempDir())
	if _, err := pythonCommand(Command{Stack: c.Stack}); err == nil || !strings.Contains(err.Error(), "make python") {
		t.Errorf("no venv: %v, want an error naming make python", err)
	}
}
