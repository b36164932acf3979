package deploytest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// binaryEnv names a wirebench binary to run instead of building one.
const binaryEnv = "WIREBENCH_DEPLOYTEST_BINARY"

// The binary the tests build, once per test process.
var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// wirebenchBinary builds the command (or takes $WIREBENCH_DEPLOYTEST_BINARY) and skips
// the test when it has no remote workers yet, whose flags the manifests use.
func wirebenchBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(binaryEnv)
	if bin == "" {
		buildOnce.Do(func() {
			if buildDir, buildErr = os.MkdirTemp("", "deploytest-"); buildErr != nil {
				return
			}
			build := exec.Command("go", "build", "-o", filepath.Join(buildDir, "wirebench"), "./cmd/wirebench")
			build.Dir = repoRoot
			if out, err := build.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			}
		})
		if buildErr != nil {
			t.Fatal(buildErr)
		}
		bin = filepath.Join(buildDir, "wirebench")
	}
	help, _ := exec.Command(bin, "worker", "--help").CombinedOutput()
	if !strings.Contains(string(help), "--token-file") {
		t.Skipf("this wirebench's worker has no --token-file (remote workers, issue 16): "+
			"the manifests' command lines are run once it has (or set %s)", binaryEnv)
	}
	return bin
}

// setFlag returns args with flag's value replaced.
func setFlag(t *testing.T, args []string, flag, value string) []string {
	t.Helper()
	out := slices.Clone(args)
	for i := range out {
		if out[i] == flag && i+1 < len(out) {
			out[i+1] = value
			return out
		}
	}
	t.Fatalf("no %s in %q", flag, args)
	return nil
}

// writeToken writes a token file in a temporary directory.
func writeToken(t *testing.T, token string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(f, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestWorkerCommandLine runs the worker container's command line (on loopback and a
// free port instead of 0.0.0.0:7070) and waits for "listening on".
func TestWorkerCommandLine(t *testing.T) {
	bin := wirebenchBinary(t)
	s := loadSet(t)
	for _, name := range []string{serverSTS, clientSTS} {
		c := one[*appsv1.StatefulSet](s, name).Spec.Template.Spec.Containers[0]
		args := setFlag(t, c.Args, "--listen", "tcp://127.0.0.1:0")
		args = setFlag(t, args, "--token-file", writeToken(t, strings.Repeat("ab", 32)))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, bin, args...)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if !strings.HasPrefix(line, "listening on tcp://127.0.0.1:") {
			t.Errorf("%s: %s %q printed %q (%v), want listening on tcp://127.0.0.1:PORT; stderr: %s", name, bin, args, line, err, stderr.String())
		}
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			t.Errorf("%s: the worker did not stop cleanly on SIGINT: %v; stderr: %s", name, err, stderr.String())
		}
		cancel()
	}
}

// TestWorkerRefusesPlaceholder: with secret.yaml applied as it is, a worker does not
// start, and says why.
func TestWorkerRefusesPlaceholder(t *testing.T) {
	bin := wirebenchBinary(t)
	s := loadSet(t)
	placeholder := one[*corev1.Secret](s, tokenSecret).StringData["token"]
	c := one[*appsv1.StatefulSet](s, serverSTS).Spec.Template.Spec.Containers[0]
	args := setFlag(t, c.Args, "--listen", "tcp://127.0.0.1:0")
	args = setFlag(t, args, "--token-file", writeToken(t, placeholder))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "token") {
		t.Errorf("worker with the placeholder token: %v, output %q; want exit status 2 and a message about the token", err, out)
	}
}

// TestDriverCommandLine parses the driver Job's command line with --list, which lists
// the suite's benchmarks and contacts no worker.
func TestDriverCommandLine(t *testing.T) {
	bin := wirebenchBinary(t)
	s := loadSet(t)
	c := one[*batchv1.Job](s, driverJob).Spec.Template.Spec.Containers[0]
	args := setFlag(t, c.Args, "--token-file", writeToken(t, strings.Repeat("cd", 32)))
	args = append(args, "--list")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %q: %v; stderr: %s", bin, args, err, stderr.String())
	}
	var want []string
	for _, b := range driverBenchmarks(t, c.Args) {
		want = append(want, b.Name)
	}
	if got := strings.Fields(string(out)); !slices.Equal(got, want) {
		t.Errorf("--list printed %q, want the suite's benchmarks %q", got, want)
	}
}
