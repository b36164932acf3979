package main

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/nspair"
)

// A worker others could reach refuses to start without a token or mutual TLS; its
// TLS flags go together; a short token is refused without being shown.
func TestWorkerNeedsAuth(t *testing.T) {
	short := filepath.Join(t.TempDir(), "short")
	os.WriteFile(short, []byte("tiny"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "tcp://0.0.0.0:0"}, "can be reached from other hosts: give --token-file"},
		{[]string{"--listen", "tcp://[::]:0"}, "give --token-file"},
		{[]string{"--listen", "tcp://0.0.0.0:0", "--token-file", short}, "at least 16"},
		{[]string{"--listen", "tcp://127.0.0.1:0", "--tls-cert", "c.pem"}, "--tls-cert, --tls-key and --tls-client-ca together"},
	} {
		code, _, stderr := runCLI(t, append([]string{"worker"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "tiny") {
			t.Errorf("worker %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestBenchHostUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--link", "delay=10"}, `--link: link "delay=10": delay: "10": want a duration`},
		{[]string{"--link", "loss=1%"}, "link loss needs a link the kernel shapes"},
		{[]string{"--server-worker", "http://h:1"}, `unknown scheme "http"`},
		{[]string{"--client-worker", "tcp://h:1", "--client-workers", "2"}, "not both"},
		{[]string{"--netns", "--server-worker", "tcp://h:1"}, "network namespaces are for workers spawned here"},
		{[]string{"--tls-cert", "c.pem"}, "certificate and its key together"},
	} {
		code, _, stderr := runCLI(t, append([]string{"bench", "-p", "grpc-proto"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("bench %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// bench with a remote server worker, the driver in another network namespace: the
// server worker listens on its namespace's address with a token; the driver (and the
// client worker it spawns) run in the other namespace, across the veth. With the
// token the run goes and the results name the remote worker's URL and host; with
// another token it exits 1 saying the worker refused the driver.
func TestBenchAcrossNamespaces(t *testing.T) {
	if err := nspair.Available(); err != nil {
		t.Skipf("skipped: %v", err)
	}
	p, err := nspair.New(false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	dir := t.TempDir()
	tok, wrong := filepath.Join(dir, "token"), filepath.Join(dir, "wrong")
	os.WriteFile(tok, []byte("a-token-of-enough-characters\n"), 0o600)
	os.WriteFile(wrong, []byte("another-token-of-enough-characters\n"), 0o600)
	argv := nspair.Exec(p.A, []string{binary, "worker", "--listen", "tcp://" + net.JoinHostPort(p.A.Addr.String(), "0"), "--token-file", tok})
	worker := exec.Command(argv[0], argv[1:]...)
	stdout, _ := worker.StdoutPipe()
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { worker.Process.Kill(); worker.Wait() }()
	line := make(chan string, 1)
	go func() { l, _ := bufio.NewReader(stdout).ReadString('\n'); line <- l }()
	var url string
	select {
	case l := <-line:
		url = strings.TrimSpace(strings.TrimPrefix(l, "listening on "))
	case <-time.After(10 * time.Second):
		t.Fatal("the worker did not start")
	}
	bench := func(token string) (int, string, string) {
		args := nspair.Exec(p.B, []string{binary, "bench", "-p", "grpc-proto", "--server-worker", url, "--token-file", token,
			"-d", "200ms", "-i", "2", "--warmup", "0s", "--no-pin", "--json", filepath.Join(dir, "r.json")})
		cmd := exec.Command(args[0], args[1:]...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return code, out.String(), errb.String()
	}
	if code, _, stderr := bench(wrong); code != exitFailure || !strings.Contains(stderr, "server worker "+url+": refused the driver") {
		t.Errorf("with another token: exit %d, stderr %q; want exit 1 and the refusal", code, stderr)
	}
	if code, out, errs := bench(tok); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	res := readResultsFile(t, filepath.Join(dir, "r.json"))
	env := res.Environment
	if len(env.Workers) != 2 || env.Workers[0].URL != url || env.Workers[0].Hostname == "" || env.Workers[1].URL != "" {
		t.Errorf("environment workers %+v; want the remote server with its URL and the spawned client", env.Workers)
	}
	if s := res.Benchmarks[0].Summary; s.Ops == 0 || s.ServerCPUUsPerOp == nil {
		t.Errorf("summary %+v; want calls and the remote server's CPU", s)
	}
}
