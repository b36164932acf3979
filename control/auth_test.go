package control

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/protocol/transport"
)

func TestNeedsAuth(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"unix:///tmp/w.sock", false},   // a file: this host only
		{"tcp://127.0.0.1:0", false},    // loopback
		{"tcp://127.9.9.9:7000", false}, // all of 127/8 is loopback
		{"tcp://[::1]:0", false},        // IPv6 loopback
		{"tcp://localhost:0", false},    // the loopback name
		{"tcp://0.0.0.0:7000", true},    // every interface
		{"tcp://10.0.0.5:7000", true},   // a LAN address
		{"tcp://[::]:7000", true},       // every IPv6 interface
		{"tcp://worker-1:7000", true},   // a name: may resolve anywhere
		{"tcp://:7000", true},           // no host: every interface
	} {
		a, err := transport.Parse(tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := NeedsAuth(a); got != tc.want {
			t.Errorf("NeedsAuth(%s) = %v, want %v", tc.addr, got, tc.want)
		}
	}
}

func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	short, good := filepath.Join(dir, "short"), filepath.Join(dir, "good")
	os.WriteFile(short, []byte("abc\n"), 0o600)
	os.WriteFile(good, []byte("  0123456789abcdef0123\n"), 0o600)
	if _, err := ReadToken(short); err == nil || !strings.Contains(err.Error(), "at least 16") || strings.Contains(err.Error(), "abc") {
		t.Errorf("short token: %v; want a refusal that does not show the token", err)
	}
	if tok, err := ReadToken(good); err != nil || string(tok) != "0123456789abcdef0123" {
		t.Errorf("token %q, %v; want it without the white space", tok, err)
	}
	if _, err := ReadToken(filepath.Join(dir, "none")); err == nil {
		t.Error("a missing token file was read")
	}
}
