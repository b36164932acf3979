package protocoltest

import (
	"bytes"
	"context"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/transport"
)

// Tool returns the path of an outside tool (curl, grpcurl, ghz), from PATH or
// GOPATH/bin where `go install` puts it, or skips the test, saying how to install it.
func Tool(t testing.TB, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	gopath := build.Default.GOPATH
	if first, _, ok := strings.Cut(gopath, string(os.PathListSeparator)); ok {
		gopath = first
	}
	if p := filepath.Join(gopath, "bin", name); gopath != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("%s is not installed (in PATH or GOPATH/bin); run 'make tools' (scripts/install-tools.sh)", name)
	return ""
}

// Curl runs curl against the HTTP server at addr (TCP, or a Unix socket with
// --unix-socket): args are curl's options, the last one the request's path. It returns
// the status and what curl wrote (the body; the headers first with -D -), and fails
// the test when curl fails or prints no status. It skips when curl is not installed.
func Curl(t testing.TB, addr transport.Addr, args ...string) (int, []byte) {
	t.Helper()
	curl := Tool(t, "curl")
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
