package main

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/testtool"
)

// TestServeTLSWithAJVMStack: `wirebench serve --tls` with a JVM stack makes the
// certificate, writes its CA, and the worker serves it: curl trusting that CA alone
// gets the contract's answer over https. A JVM side without TLS is refused by name.
func TestServeTLSWithAJVMStack(t *testing.T) {
	if ok, why := jvmWorker(t); !ok {
		testtool.Missing(t, "%s", why)
	}
	curl := testtool.Command(t, "curl")
	ca := filepath.Join(t.TempDir(), "ca.pem")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "serve", "--protocol", "http-json", "--stack", "jetty-jackson",
		"--listen", "tcp://127.0.0.1:0", "--tls", "--tls-ca-out", ca)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	var addr string
	for lines := bufio.NewScanner(out); addr == "" && lines.Scan(); {
		if a, ok := strings.CutPrefix(lines.Text(), "listening on tcp://"); ok {
			addr = a
		}
	}
	if addr == "" {
		t.Fatalf("serve --tls printed no address; stderr:\n%s", stderr.String())
	}
	got, err := exec.CommandContext(ctx, curl, "-sS", "--max-time", "20", "--cacert", ca, "https://"+addr+"/persons/1").CombinedOutput()
	if err != nil || !strings.Contains(string(got), `"id":1`) {
		t.Errorf("curl --cacert over https: %v\n%s", err, got)
	}
	// Without the CA, curl refuses the certificate: the server really is the one made here.
	if got, err := exec.CommandContext(ctx, curl, "-sS", "--max-time", "20", "https://"+addr+"/persons/1").CombinedOutput(); err == nil {
		t.Errorf("curl without the CA accepted the certificate:\n%s", got)
	}

	refused, err := exec.CommandContext(ctx, binary, "serve", "--protocol", "grpc-proto", "--stack", "grpc-java-okhttp",
		"--listen", "tcp://127.0.0.1:0", "--tls").CombinedOutput()
	if err == nil || !strings.Contains(string(refused), "the grpc-java-okhttp server stack of grpc-proto does not speak TLS") {
		t.Errorf("serve --tls with grpc-java-okhttp: %v, want refused by name\n%s", err, refused)
	}
}
