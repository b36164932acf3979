package protocoltest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol/transport"
)

// Curl runs curl against the HTTP server at addr (TCP, or a Unix socket with
// --unix-socket): args are curl's options, the last one the request's path. It returns
// the status and what curl wrote (the body; the headers first with -D -), and fails
// the test when curl fails or prints no status. Without curl it skips, or fails in CI
// (internal/testtool).
func Curl(t testing.TB, addr transport.Addr, args ...string) (int, []byte) {
	t.Helper()
	return curl(t, addr, "http://", args)
}

// CurlTLS is Curl over TLS (https), trusting only the CA of tc (curl --cacert).
func CurlTLS(t testing.TB, addr transport.Addr, tc transport.TLS, args ...string) (int, []byte) {
	t.Helper()
	return curl(t, addr, "https://", append([]string{"--cacert", CAFile(t, tc)}, args...))
}

// CAFile writes the CA certificates of tc to a file of the test's and returns its
// path, for outside clients that read the CA from a file.
func CAFile(t testing.TB, tc transport.TLS) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(f, tc.CAPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func curl(t testing.TB, addr transport.Addr, scheme string, args []string) (int, []byte) {
	t.Helper()
	curl := testtool.Command(t, "curl")
	path := args[len(args)-1]
	args = append([]string{"-sS", "--max-time", "20", "-o", "-", "-w", "\n%{http_code}"}, args[:len(args)-1]...)
	if addr.Network == "unix" {
		args = append(args, "--unix-socket", addr.Address, scheme+"localhost"+path)
	} else {
		args = append(args, scheme+addr.Address+path)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, curl, args...).Output()
	if err != nil {
		t.Fatalf("curl %v: %v", args, err)
	}
	i := bytes.LastIndexByte(out, '\n')
	status, err := strconv.Atoi(string(out[i+1:]))
	if err != nil {
		t.Fatalf("curl %v: no status in %q", args, out)
	}
	return status, out[:i]
}
