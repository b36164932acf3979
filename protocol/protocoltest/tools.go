package protocoltest

import (
	"bytes"
	"context"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/transport"
)

// Curl runs curl against the HTTP server at addr (TCP, or a Unix socket with
// --unix-socket): args are curl's options, the last one the request's path. It returns
// the status and what curl wrote (the body; the headers first with -D -), and fails
// the test when curl fails or prints no status. Without curl it skips, or fails in CI
// (internal/testtool).
func Curl(t testing.TB, addr transport.Addr, args ...string) (int, []byte) {
	t.Helper()
	curl := testtool.Command(t, "curl")
	path := args[len(args)-1]
	args = append([]string{"-sS", "--max-time", "20", "-o", "-", "-w", "\n%{http_code}"}, args[:len(args)-1]...)
	if addr.Network == "unix" {
		args = append(args, "--unix-socket", addr.Address, "http://localhost"+path)
	} else {
		args = append(args, "http://"+addr.Address+path)
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
