package driver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/protocol"
)

// needJVMWorker returns the built main jar of the JVM worker, or skips the test saying
// why; under CI=true a missing JDK or jar fails it instead.
func needJVMWorker(t *testing.T) string {
	t.Helper()
	miss := t.Skipf
	if os.Getenv("CI") == "true" {
		miss = t.Fatalf
	}
	if _, err := exec.LookPath("java"); err != nil {
		miss("java is not installed (JDK 17+ runs the JVM worker)")
	}
	jar, err := filepath.Abs(filepath.Join("..", launch.JavaWorkerJarDir, launch.JavaWorkerJarName("")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(jar); err != nil {
		miss("%s is not built (run `make java`)", jar)
	}
	return jar
}

// TestJVMWorkerProfile: with a profile directory, a JVM worker leaves a JFR recording
// and a GC log named after it once it quits, and runs with the default JVM options.
func TestJVMWorkerProfile(t *testing.T) {
	jar := needJVMWorker(t)
	prof := t.TempDir()
	opt := launch.Options{JavaWorker: jar, ProfileDir: prof, StartTimeout: 20 * time.Second}
	st := &protocol.Stack{Name: "grpc-java-netty", Protocol: "grpc-proto", Worker: protocol.WorkerJava}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w, err := launch.Start(ctx, "server worker", st, opt, t.TempDir(), "server-0-0", []int{0}, nspair.End{})
	if err != nil {
		t.Fatal(err)
	}
	// What the JVM was started with, as the kernel has it.
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", w.Pid()))
	if err != nil {
		w.Close()
		t.Fatal(err)
	}
	args := strings.Split(string(cmdline), "\x00")
	info, err := w.Client.Info(ctx, &controlpb.InfoRequest{})
	if err != nil {
		w.Close()
		t.Fatal(err)
	}
	w.Close()
	if len(info.Stacks) == 0 {
		t.Errorf("the worker announced no stacks: %+v", info)
	}
	for _, want := range []string{"-Xms1g", "-Xmx1g", "-XX:+UseG1GC", "-XX:ActiveProcessorCount=1"} {
		if !slices.Contains(args, want) {
			t.Errorf("JVM started without %s: %q", want, args)
		}
	}
	for _, f := range []string{"server-0-0.jfr", "server-0-0.gc.log"} {
		fi, err := os.Stat(filepath.Join(prof, f))
		switch {
		case err != nil:
			t.Errorf("no %s after the worker quit: %v", f, err)
		case fi.Size() == 0:
			t.Errorf("%s is empty", f)
		}
	}
}

// TestJVMWarningsLeaveTheAddressLine: a JVM that warns as it starts (here about
// -XX:+UseLargePages on a machine without large pages, as a user's runtime_args may ask;
// in a run, about a stale hsperfdata file) still starts as a worker: its warnings go to
// stderr, not before its address on stdout.
func TestJVMWarningsLeaveTheAddressLine(t *testing.T) {
	jar := needJVMWorker(t)
	const warns = "-XX:+UseLargePages"
	out, err := exec.Command("java", warns, "-version").Output()
	if err != nil {
		t.Fatalf("java %s -version: %v", warns, err)
	}
	if !strings.Contains(string(out), "[warning]") {
		t.Skipf("java %s prints no warning on stdout here (large pages are configured): nothing to route", warns)
	}
	opt := launch.Options{JavaWorker: jar, RuntimeArgs: []string{warns}, StartTimeout: 20 * time.Second}
	st := &protocol.Stack{Name: "grpc-java-netty", Protocol: "grpc-proto", Worker: protocol.WorkerJava}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w, err := launch.Start(ctx, "server worker", st, opt, t.TempDir(), "server-0-0", nil, nspair.End{})
	if err != nil {
		t.Fatalf("a JVM worker with %s: %v", warns, err)
	}
	defer w.Close()
	if _, err := w.Client.Info(ctx, &controlpb.InfoRequest{}); err != nil {
		t.Fatalf("a JVM worker with %s does not answer: %v", warns, err)
	}
}
