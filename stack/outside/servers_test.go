package outside_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/results"
)

// The outside servers these tests load are nobody's here: grpc-go's example servers
// (helloworld, route_guide, the reflection example), go-httpbin, and a grpc-gateway
// REST gateway (testdata/servers/gateway: the gateway's runtime, the route written
// by hand as its generator writes it) in front of the helloworld server, all built
// from the module proxy by TestMain (testdata/servers/go.mod pins them).
//
// grpc-go's helloworld and reflection servers listen on every address (":PORT"), so
// the tests run in a network namespace of their own, with nothing but loopback: as
// root, TestMain builds everything, then runs the tests again inside a new network
// namespace. Without root, the tests of those two servers skip (fail in CI).

const (
	envNetns    = "WIREBENCH_OUTSIDE_NETNS"    // "1" in the namespace's run
	envBin      = "WIREBENCH_OUTSIDE_BIN"      // the directory of the built servers and wirebench
	envExamples = "WIREBENCH_OUTSIDE_EXAMPLES" // the examples module's directory (its .proto files)
)

// examplesVersion is the grpc-go examples module the servers come from.
const examplesVersion = "v0.0.0-20260825154716-030ee8becb20"

var (
	binDir, examples string
	buildErr         error
)

func TestMain(m *testing.M) {
	if os.Getenv(envNetns) != "1" {
		dir, err := os.MkdirTemp("", "wboutside")
		if err != nil {
			panic(err)
		}
		os.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
		ex, err := build(dir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "outside servers: %v\n", err)
		}
		os.Setenv(envBin, dir)
		os.Setenv(envExamples, ex)
		if os.Geteuid() == 0 && err == nil {
			cmd := exec.Command(os.Args[0], os.Args[1:]...)
			cmd.Env = append(os.Environ(), envNetns+"=1")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
			err := cmd.Run()
			var ee *exec.ExitError
			switch {
			case err == nil:
				os.RemoveAll(dir)
				os.Exit(0)
			case errors.As(err, &ee):
				os.RemoveAll(dir)
				os.Exit(ee.ExitCode())
			}
			fmt.Fprintf(os.Stderr, "outside servers: no network namespace (%v): the tests run here\n", err)
		}
		buildErr = err
		binDir, examples = dir, ex
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	if err := loopbackUp(); err != nil {
		fmt.Fprintf(os.Stderr, "outside servers: loopback: %v\n", err)
		os.Exit(2)
	}
	binDir, examples = os.Getenv(envBin), os.Getenv(envExamples)
	os.Exit(m.Run())
}

// build builds wirebench and the outside servers into dir, and returns the examples
// module's directory.
func build(dir string) (string, error) {
	run := func(wd string, args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = wd
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	if _, err := run("../../cmd/wirebench", "build", "-o", filepath.Join(dir, "wirebench"), "."); err != nil {
		return "", err
	}
	srv := filepath.Join("testdata", "servers")
	for name, pkg := range map[string]string{
		"greeter_server":    "google.golang.org/grpc/examples/helloworld/greeter_server",
		"routeguide_server": "google.golang.org/grpc/examples/route_guide/server",
		"reflection_server": "google.golang.org/grpc/examples/features/reflection/server",
		"go-httpbin":        "github.com/mccutchen/go-httpbin/v2/cmd/go-httpbin",
		"gateway":           "./gateway",
	} {
		if _, err := run(srv, "build", "-o", filepath.Join(dir, name), pkg); err != nil {
			return "", err
		}
	}
	return run(srv, "list", "-m", "-f", "{{.Dir}}", "google.golang.org/grpc/examples@"+examplesVersion)
}

// loopbackUp brings up the new network namespace's loopback interface.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// needServers ends the test when the servers could not be built.
func needServers(t *testing.T) {
	t.Helper()
	if buildErr != nil {
		testtool.Missing(t, "the outside servers did not build from the module proxy: %v", buildErr)
	}
}

// needNetns ends the test unless it runs in a network namespace of its own (the
// servers that listen on every address).
func needNetns(t *testing.T) {
	t.Helper()
	needServers(t)
	if os.Getenv(envNetns) != "1" {
		testtool.Missing(t, "grpc-go's helloworld and reflection servers listen on every address: run as root, so the test runs them in a network namespace of its own")
	}
}

// freePort returns a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// serve starts the outside server name with args (where PORT is replaced by a free
// port), waits until it accepts on 127.0.0.1, stops it at the test's end, and returns
// its address and process.
func serve(t *testing.T, name string, args ...string) (string, *os.Process) {
	t.Helper()
	port := fmt.Sprint(freePort(t))
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "PORT", port)
	}
	cmd := exec.Command(filepath.Join(binDir, name), args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	addr := "127.0.0.1:" + port
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return addr, cmd.Process
		}
		select {
		case <-done:
			t.Fatalf("%s exited before it listened: %s", name, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not listen on %s after 10 s: %s", name, addr, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// quick are the settings of a short benchmark.
var quick = []string{"--warmup", "200ms", "--rounds", "2", "--duration", "300ms", "--forks", "1", "--no-pin", "-q", "--no-store"}

// wirebench runs the wirebench binary (bounded in time) and returns its exit code and
// output.
func wirebench(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "wirebench"), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "panic:") || strings.Contains(stderr.String(), "goroutine ") {
		t.Fatalf("wirebench %s crashed:\n%s", strings.Join(args, " "), stderr.String())
	}
	return code, stdout.String(), stderr.String()
}

// benchJSON runs a quick bench with args, wants it to succeed, and returns its one
// benchmark.
func benchJSON(t *testing.T, args ...string) results.Benchmark {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := wirebench(t, append(append([]string{"bench"}, quick...), append(args, "--json", out)...)...)
	if code != 0 {
		t.Fatalf("wirebench bench %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r results.Results
	if err := json.NewDecoder(f).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if len(r.Benchmarks) != 1 {
		t.Fatalf("%d benchmarks, want 1", len(r.Benchmarks))
	}
	return r.Benchmarks[0]
}

// wantCalls checks that b made calls and every one succeeded.
func wantCalls(t *testing.T, b results.Benchmark) {
	t.Helper()
	if b.Summary.Ops == 0 || b.Summary.Errors != 0 {
		t.Errorf("%s: %d ops, %d errors (%v, %v); want ops and no error", b.Name, b.Summary.Ops, b.Summary.Errors,
			b.Summary.ErrorsByKind, b.Summary.ErrorsByStatus)
	}
}

func helloProto() string {
	return filepath.Join(examples, "helloworld", "helloworld", "helloworld.proto")
}
func routeProto() string {
	return filepath.Join(examples, "route_guide", "routeguide", "route_guide.proto")
}
