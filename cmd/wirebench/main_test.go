package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/testbin"
	"github.com/wirebench/wirebench/protocol"
)

var binary string

func TestMain(m *testing.M) { testbin.Main(m, ".", &binary) }

// runCLI runs the command in-process and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code := run(ctx, args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bogus"}, "unexpected argument"},
		{[]string{"serve", "--protocol", "nope"}, `unknown protocol "nope"`},
		{[]string{"serve", "--protocol", "direct"}, "in-process"},
		{[]string{"serve", "--protocol", "http-json", "--listen", "http://x:1"}, "unknown scheme"},
		{[]string{"serve", "--protocol", "http-json", "--listen", "udp://127.0.0.1:0"}, "go-nethttp-json server stack of http-json does not speak"},
		{[]string{"serve", "--protocol", "http-json", "--stack", "go-quicgo-json-h3"}, "over QUIC only"},
		{[]string{"bench", "--protocol", "http-json", "--transport", "quic"}, "http-json's HTTP/3 stacks: go-quicgo-json-h3"},
		{[]string{"worker", "--listen", "udp://127.0.0.1:0"}, "udp carries QUIC benchmarks only"},
		{[]string{"call", "--protocol", "direct", "frobnicate"}, "unknown operation"},
		{[]string{"call", "--protocol", "http-json", "person.get"}, "--address (or WIREBENCH_ADDRESS) is required"},
		{[]string{"conform", "--protocol", "http-json"}, "--address (or WIREBENCH_ADDRESS) is required"},
		{[]string{"call", "--protocol", "direct", "--data-size", "0", "stats"}, "data set size"},
		{[]string{"call", "--protocol", "direct", "--person", "{", "person.create"}, "not a JSON person"},
		{[]string{"call", "--protocol", "direct", "echo", "--payload", "hello"}, "--payload-text"},
		{[]string{"call", "--protocol", "direct", "person.gt"}, `(did you mean "person.get"?)`},
		// A ghz user's -i (import paths) is wirebench's --rounds.
		{[]string{"bench", "--protocol", "grpc-proto", "-i", "./protos"}, "ghz's -i, the import paths, is --import-paths"},
		{[]string{"kube", "--clients", "0"}, "--clients 0"},
		{[]string{"kube", "--kubectl", "/nonexistent/kubectl"}, "--kubectl /nonexistent/kubectl"},
		{[]string{"kube", "--kubectl", "true", "--resume", "/nonexistent"}, "not a results directory"},
		{[]string{"kube", "--kubectl", "true", "--resume", ".", "quick"}, "come from the run's journal"},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("wirebench %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
}

// list names every protocol, workload, stack and library, and fits a terminal: the
// stacks' lines 80 columns, every line 100. With --wide a stack's libraries are on its
// line.
func TestList(t *testing.T) {
	code, out, _ := runCLI(t, "list")
	if code != 0 {
		t.Fatalf("list exit %d", code)
	}
	code, wide, _ := runCLI(t, "list", "--wide")
	if code != 0 {
		t.Fatalf("list --wide exit %d", code)
	}
	for _, name := range append(protocol.Names(), contract.WorkloadNames()...) {
		if !strings.Contains(out, name) || !strings.Contains(wide, name) {
			t.Errorf("list or list --wide does not show %q:\n%s", name, out)
		}
	}
	for _, p := range protocol.Names() {
		for _, st := range protocol.Stacks(p) {
			for _, lib := range libraries(st.Libraries) {
				if !strings.Contains(out, lib) {
					t.Errorf("list does not show %s's library %s", st.Name, lib)
				}
				if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(p) + ` +` + regexp.QuoteMeta(st.Name) + ` .*` + regexp.QuoteMeta(lib)).MatchString(wide) {
					t.Errorf("list --wide does not show %s's library %s on its line", st.Name, lib)
				}
			}
		}
	}
	inStacks := false
	for _, l := range strings.Split(out, "\n") {
		inStacks = strings.HasPrefix(l, "PROTOCOL    STACK") || inStacks && l != ""
		if n := utf8.RuneCountInString(l); n > 100 || inStacks && n > listWidth {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
}

func TestCallDirect(t *testing.T) {
	code, out, _ := runCLI(t, "call", "--protocol", "direct", "person.get", "--id", "2")
	if code != 0 || !strings.Contains(out, `"id": 2`) {
		t.Errorf("call person.get --id 2: exit %d, out %s", code, out)
	}
	// The former name still works, with a note naming the new one.
	code, out, stderr := runCLI(t, "call", "--protocol", "direct", "get-person", "--id", "2")
	if code != 0 || !strings.Contains(out, `"id": 2`) || !strings.Contains(stderr, "get-person is now person.get") {
		t.Errorf("call get-person --id 2: exit %d, out %s, stderr %q", code, out, stderr)
	}
	// --payload is a size, as in bench.
	code, out, _ = runCLI(t, "call", "-p", "direct", "echo", "--payload", "16B")
	if code != 0 || !strings.Contains(out, `"payload": "Hello World Hell"`) {
		t.Errorf("call echo --payload 16B: exit %d, out %s", code, out)
	}
	code, _, stderr = runCLI(t, "call", "-p", "direct", "GetPerson", "--id", "999")
	if code != exitFailure || !strings.Contains(stderr, "not_found") {
		t.Errorf("call GetPerson --id 999: exit %d, stderr %q; want 1 and not_found", code, stderr)
	}
	code, out, _ = runCLI(t, "call", "-p", "direct", "stream", "--count", "2")
	if code != 0 || strings.Count(out, `"symbol"`) != 2 {
		t.Errorf("call stream --count 2: exit %d, out %s", code, out)
	}
}

func TestCallRefusedExplains(t *testing.T) {
	dir, _ := os.MkdirTemp("", "wb")
	defer os.RemoveAll(dir)
	for _, p := range protocol.All() {
		if p.InProcess {
			continue
		}
		code, _, stderr := runCLI(t, "call", "-p", p.Name, "--timeout", "3s", "--address", "unix://"+dir+"/none.sock", "stats")
		if code != exitFailure || !strings.Contains(stderr, "is a server running there?") {
			t.Errorf("%s call to nothing: exit %d, stderr %q", p.Name, code, stderr)
		}
	}
}

var listening = regexp.MustCompile(`^listening on ((tcp)://127\.0\.0\.1:[1-9][0-9]*|(unix)://\S+\.sock)\n$`)

// startServe runs `wirebench serve` as a process and returns it with the address it
// printed.
func startServe(t *testing.T, env []string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, awaitLine(t, fmt.Sprint("serve ", args), stdout, &stderr, listening)[1]
}

// awaitLine waits up to 10 s for the first line on stdout, which must match want,
// and returns want's submatches; it fails the test, with stderr, otherwise.
func awaitLine(t *testing.T, what string, stdout io.Reader, stderr *bytes.Buffer, want *regexp.Regexp) []string {
	t.Helper()
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- l
	}()
	select {
	case l := <-line:
		m := want.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("%s printed %q (stderr %q), want a line matching %s", what, l, stderr.String(), want)
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatalf("%s printed nothing in 10s; stderr: %s", what, stderr.String())
	}
	return nil
}

func waitExit(t *testing.T, cmd *exec.Cmd, what string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("%s: serve exited with %v, want 0", what, err)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("%s: serve did not exit within 10s", what)
	}
}

func TestServeAndCallDemoEveryProtocol(t *testing.T) {
	for _, p := range protocol.All() {
		if p.InProcess {
			continue
		}
		for i, network := range []string{"tcp", "unix"} {
			t.Run(p.Name+"/"+network, func(t *testing.T) {
				t.Parallel() // each its own serve process and address; nothing timed
				listen := "tcp://127.0.0.1:0"
				if network == "unix" {
					dir, _ := os.MkdirTemp("", "wb")
					t.Cleanup(func() { os.RemoveAll(dir) })
					listen = "unix://" + dir + "/s.sock"
				}
				// The second transport takes its addresses from the environment.
				var srvEnv []string
				srvArgs := []string{"--protocol", p.Name}
				if i == 0 {
					srvArgs = append(srvArgs, "--listen", listen)
				} else {
					srvEnv = []string{"WIREBENCH_LISTEN=" + listen}
				}
				srv, addr := startServe(t, srvEnv, srvArgs...)
				call := exec.Command(binary, "call", "--protocol", p.Name, "demo")
				call.Env = append(os.Environ(), "WIREBENCH_ADDRESS="+addr)
				out, err := call.CombinedOutput()
				if err != nil {
					t.Fatalf("call demo: %v\n%s", err, out)
				}
				for _, op := range operationNames() {
					if !strings.Contains(string(out), "## "+op+"\n") {
						t.Errorf("demo output lacks %s:\n%s", op, out)
					}
				}
				if !strings.Contains(string(out), `"code": "not_found"`) {
					t.Errorf("demo output lacks the not_found error:\n%s", out)
				}
				sig := syscall.SIGTERM
				if i == 1 {
					sig = syscall.SIGINT
				}
				srv.Process.Signal(sig)
				waitExit(t, srv, sig.String())
			})
		}
	}
}

// kube reads a suite file on this side first: a mistake in it is exit 2 with its file
// and line, before kubectl is run at all (here a kubectl that would fail every call).
func TestKubeSuiteFileCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(file, []byte("name: mine\ntargets:\n  - protocol: grpc-proto\n    forkz: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "kube", "--kubectl", "false", file)
	if code != exitUsage || !strings.Contains(stderr, "mine.yaml:4") || !strings.Contains(stderr, "forkz") {
		t.Errorf("kube with a bad suite file: exit %d, stderr %q; want exit 2 naming mine.yaml:4 and forkz", code, stderr)
	}
}
