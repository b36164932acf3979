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

// The Python and Node launchers: the worker's interpreter with the recorded runtime
// options (never the JVM's), the runtime's own profiler when profiled, and a clear
// error naming `make python` / `make node` when the worker is not installed.
func TestInterpretedWorkerCommands(t *testing.T) {
	dir := installed(t, PythonWorkerEnv, ".venv/bin/python")
	c := Command{Options: Options{RuntimeArgs: []string{"-Xmx1g"}}, Stack: &protocol.Stack{Worker: protocol.WorkerPython},
		Socket: "/tmp/s.sock", Profile: "/tmp/prof/server-0-0"}
	argv, err := pythonCommand(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, ".venv/bin/python"), "-X", "faulthandler", "-m", "cProfile", "-o", "/tmp/prof/server-0-0.pstats",
		filepath.Join(dir, "worker.py"), "worker", "--listen", "unix:///tmp/s.sock"}
	if !slices.Equal(argv, want) {
		t.Errorf("python argv %q, want %q", argv, want)
	}
	if _, err := exec.LookPath("node"); err == nil {
		dir = installed(t, NodeWorkerEnv, "node_modules/@grpc/grpc-js/package.json")
		argv, err = nodeCommand(c)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(argv, "--cpu-prof") || !slices.Contains(argv, "--cpu-prof-name=server-0-0.cpuprofile") ||
			slices.Contains(argv, "-Xmx1g") || argv[len(argv)-4] != filepath.Join(dir, "worker.js") {
			t.Errorf("node argv %q", argv)
		}
	}
	t.Setenv(PythonWorkerEnv, t.TempDir()) // no venv there
	t.Chdir(t.TempDir())
	if _, err := pythonCommand(Command{Stack: c.Stack}); err == nil || !strings.Contains(err.Error(), "make python") {
		t.Errorf("no venv: %v, want an error naming make python", err)
	}
}
