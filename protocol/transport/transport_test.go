package transport

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    Addr
		wantErr string
	}{
		{in: "tcp://127.0.0.1:8080", want: Addr{"tcp", "127.0.0.1:8080"}},
		{in: "tcp://:0", want: Addr{"tcp", ":0"}},           // any interface, any free port
		{in: "tcp://[::1]:9", want: Addr{"tcp", "[::1]:9"}}, // IPv6 literal in brackets
		{in: "unix:///tmp/wb.sock", want: Addr{"unix", "/tmp/wb.sock"}},
		{in: "localhost:80", want: Addr{"tcp", "localhost:80"}},           // bare host:port is tcp
		{in: "/run/wb.sock", want: Addr{"unix", "/run/wb.sock"}},          // bare absolute path is unix
		{in: "udp://127.0.0.1:4433", want: Addr{"udp", "127.0.0.1:4433"}}, // QUIC's
		{in: "udp://localhost", wantErr: "want udp://host:port"},          // no port
		{in: "", wantErr: "empty"},
		{in: "tcp://localhost", wantErr: "want tcp://host:port"},   // no port
		{in: "unix://tmp/x.sock", wantErr: "three slashes"},        // host part, not a path
		{in: "http://localhost:80", wantErr: "unknown scheme"},     // not a transport
		{in: "localhost", wantErr: "want tcp://host:port or unix"}, // neither form
		{in: "tcp://127.0.0.1:99999", wantErr: "the highest is 65535"},
		{in: "127.0.0.1:65536", wantErr: "a port from 0 to 65535"},
		{in: "udp://127.0.0.1:70000", wantErr: "want udp://host:port"},
	} {
		got, err := Parse(c.in)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Parse(%q) error = %v, want one containing %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
		if back, err := Parse(got.String()); err != nil || back != got {
			t.Errorf("Parse(%q.String()) = %v, %v", c.in, back, err)
		}
	}
}

func shortDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "wbt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestListenUnixStaleAndBusy(t *testing.T) {
	path := filepath.Join(shortDir(t), "s.sock")
	a := Addr{"unix", path}
	ln, err := Listen(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(a); err == nil || !strings.Contains(err.Error(), "already listens") {
		t.Errorf("second Listen on a live socket: %v", err)
	}
	// Leave a stale socket file behind, as a killed server does.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("stale socket not left behind: %v", err)
	}
	ln2, err := Listen(a)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	ln2.Close()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("socket file left after Close: %v", err)
	}
	// A regular file is never removed.
	if err := os.WriteFile(path, []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(a); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Listen over a regular file: %v", err)
	}
}

func TestCounterCountsBothWays(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		a := Addr{"tcp", "127.0.0.1:0"}
		if network == "unix" {
			a = Addr{"unix", filepath.Join(shortDir(t), "c.sock")}
		}
		ln, err := Listen(a)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			buf := make([]byte, 100)
			io.ReadFull(c, buf)
			c.Write(make([]byte, 250))
		}()
		var cnt Counter
		conn, err := Dialer(AddrOf(ln.Addr()), &cnt)(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		conn.Write(make([]byte, 100))
		io.ReadFull(conn, make([]byte, 250))
		conn.Close()
		ln.Close()
		if cnt.Sent() != 100 || cnt.Received() != 250 {
			t.Errorf("%s: counted sent %d received %d, want 100 and 250", network, cnt.Sent(), cnt.Received())
		}
	}
}
