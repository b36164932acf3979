package proxy

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"

	"github.com/wirebench/wirebench/spec/link"
)

// echoServer answers every connection with what it reads; closed by t.Cleanup.
func echoServer(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go acceptEchoes(ln)
	return ln.Addr().String()
}

func acceptEchoes(ln net.Listener) {
	c, err := ln.Accept()
	if err != nil {
		return
	}
	go acceptEchoes(ln)
	defer c.Close()
	io.Copy(c, c)
}

func startProxy(t *testing.T, p link.Profile, rate bool) string {
	px, err := Start("127.0.0.1:0", echoServer(t), p, rate)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(px.Close)
	return px.Addr()
}

// roundTrip sends msg through addr and returns the echo and how long it took.
func roundTrip(t *testing.T, c net.Conn, msg []byte) ([]byte, time.Duration) {
	start := time.Now()
	if _, err := c.Write(msg); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	return got, time.Since(start)
}

// The delay is added in each direction: a round trip takes at least twice it. Only
// the lower bound is checked; a busy machine can only make it longer.
func TestProxyDelay(t *testing.T) {
	addr := startProxy(t, link.Profile{Delay: 5 * time.Millisecond, Jitter: time.Millisecond}, false)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range 5 {
		msg := bytes.Repeat([]byte{byte('a' + i)}, 100)
		got, d := roundTrip(t, c, msg)
		if !bytes.Equal(got, msg) {
			t.Fatalf("echo %q, want %q", got, msg)
		}
		if d < 8*time.Millisecond { // 2 × (5 ms − 1 ms of jitter)
			t.Errorf("round trip %d took %v; want at least 8 ms with 5±1 ms each way", i, d)
		}
	}
}

// A proxy with no delay passes data through unchanged, large messages included.
func TestProxyPassesData(t *testing.T) {
	addr := startProxy(t, link.Profile{}, false)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	msg := make([]byte, 1<<20)
	for i := range msg {
		msg[i] = byte(i * 7)
	}
	got := make([]byte, len(msg))
	errc := make(chan error, 1)
	go func() { _, err := c.Write(msg); errc <- err }()
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, msg) {
		t.Error("1 MiB through the proxy came back changed")
	}
}

// The rate paces each direction: 40 kB at 800 kbit/s (100 kB/s) each way takes at
// least 0.4 s to come back.
func TestProxyRate(t *testing.T) {
	addr := startProxy(t, link.Profile{RateBits: 800_000}, true)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, d := roundTrip(t, c, make([]byte, 40_000))
	if len(got) != 40_000 {
		t.Fatalf("got %d bytes", len(got))
	}
	if d < 350*time.Millisecond {
		t.Errorf("40 kB at 100 kB/s came back in %v; want at least 0.35 s", d)
	}
}

func TestProxyRefusesLoss(t *testing.T) {
	if _, err := Start("127.0.0.1:0", "127.0.0.1:1", link.Profile{Loss: 0.01}, false); err == nil {
		t.Error("a proxy with loss started; want it refused")
	}
}
