package nspair

import (
	"io"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/testtool"
)

func need(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("skipped: %v", err)
	}
}

// A pair with one end in the root namespace carries a TCP connection from the other
// end's namespace to a listener here, and Close removes it.
func TestPairCarriesTCP(t *testing.T) {
	need(t)
	if _, err := exec.LookPath("bash"); err != nil {
		testtool.Missing(t, "bash (for /dev/tcp) is missing")
	}
	p, err := New(true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ln, err := net.Listen("tcp", net.JoinHostPort(p.B.Addr.String(), "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(c)
		c.Close()
		got <- string(b)
	}()
	argv := Exec(p.A, []string{"bash", "-c", "echo -n hello > /dev/tcp/" + strings.Replace(ln.Addr().String(), ":", "/", 1)})
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %v: %s", argv, err, out)
	}
	select {
	case s := <-got:
		if s != "hello" {
			t.Errorf("received %q, want hello", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing arrived across the pair")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if out, _ := exec.Command("ip", "netns", "list").Output(); strings.Contains(string(out), p.A.Netns) {
		t.Errorf("namespace %s left after Close: %s", p.A.Netns, out)
	}
}

// Shape and Drop put a tbf qdisc and a statistic rule at both ends.
func TestShapeAndDrop(t *testing.T) {
	need(t)
	p, err := New(false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Shape(100_000_000); err != nil {
		t.Fatal(err)
	}
	for _, e := range []End{p.A, p.B} {
		out, err := run(e.Netns, "tc", "qdisc", "show", "dev", e.Dev)
		if err != nil || !strings.Contains(out, "tbf") || !strings.Contains(out, "100Mbit") {
			t.Errorf("%s: qdisc %q, %v; want tbf at 100Mbit", e.Dev, out, err)
		}
	}
	if _, err := exec.LookPath("iptables"); err != nil {
		testtool.Missing(t, "the loss half needs iptables")
	}
	if err := p.Drop(0.001); err != nil {
		t.Fatal(err)
	}
	for _, e := range []End{p.A, p.B} {
		out, err := run(e.Netns, "iptables", "-S", "OUTPUT")
		if err != nil || !strings.Contains(out, "statistic") || !strings.Contains(out, "0.00100") {
			t.Errorf("%s: rules %q, %v; want a statistic drop of 0.001", e.Netns, out, err)
		}
	}
	root, _ := New(true)
	if root != nil {
		defer root.Close()
		if err := root.Drop(0.01); err == nil {
			t.Error("Drop with an end in the root namespace succeeded; want it refused")
		}
	}
}
