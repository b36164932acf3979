// Package protocoltest is the conformance suite every protocol adapter passes: the same
// checks over every transport, so a protocol is correct by the same measure as the others
// and no protocol wins a benchmark by doing less work.
//
// An adapter's test calls Run(t, Name) for its default stacks, and RunStacks for each
// other pair of server and client stacks it has. New checks belong here, not in one
// adapter.
package protocoltest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
)

// Target is a running server of one protocol on one transport (or, for an in-process
// protocol, just the local service), for tests. Servers and clients are closed by
// t.Cleanup.
type Target struct {
	Protocol *protocol.Protocol
	Service  contract.Service
	Server   protocol.Server // nil for in-process protocols
	Addr     transport.Addr  // zero for in-process protocols
	Dataset  *contract.Dataset
	// ServerStack and ClientStack are the stacks of the server and of the clients
	// the target makes (for an in-process protocol, the server's is the client's).
	ServerStack, ClientStack *protocol.Stack
	// TLS is the server's certificate and the CA its clients trust, on the TLS and
	// QUIC networks; zero otherwise.
	TLS transport.TLS

	network string
}

// Networks are the transports the suite covers for networked protocols. The suite
// also runs on TLSNetwork for stacks that speak TLS.
var Networks = []string{"tcp", "unix"}

// TLSNetwork is TCP with TLS 1.3 on both sides, with a certificate made for the test
// (transport.EphemeralTLS). Its Addr is a tcp address; Target.TLS holds the PEM.
const TLSNetwork = "tls"

// QUICNetwork is QUIC over UDP (HTTP/3's transport), with a certificate made for the
// test as on TLSNetwork. Its Addr is a udp address; Target.TLS holds the PEM. The
// suite runs on it, and only on it, for stacks with protocol.Stack.QUIC.
const QUICNetwork = "quic"

// ListenAddr returns a fresh loopback address of the network: 127.0.0.1:0 for tcp
// and udp (QUICNetwork), a
// socket in a new short temp dir for unix (socket paths must stay under 108 bytes, which
// t.TempDir's long names can break).
func ListenAddr(t testing.TB, network string) transport.Addr {
	t.Helper()
	switch network {
	case "tcp", TLSNetwork:
		return transport.Addr{Network: "tcp", Address: "127.0.0.1:0"}
	case QUICNetwork:
		return transport.Addr{Network: "udp", Address: "127.0.0.1:0"}
	case "unix":
		dir, err := os.MkdirTemp("", "wb")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		return transport.Addr{Network: "unix", Address: filepath.Join(dir, "s.sock")}
	}
	t.Fatalf("unknown network %q", network)
	return transport.Addr{}
}

// HTTPPeer returns the TCP address of a peer that answers every connection with an
// HTTP/1.1 400 and hangs up, as a client of another protocol meets when pointed at a
// web server; it is closed by t.Cleanup.
func HTTPPeer(t testing.TB) transport.Addr {
	t.Helper()
	return Peer(t, func(c net.Conn) {
		c.Write([]byte("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"))
	})
}

// Peer returns the TCP address of a loopback listener whose every connection is
// handled by handle in a goroutine of its own, then closed: a fixture that speaks a
// wire format by hand. The listener is closed by t.Cleanup.
func Peer(t testing.TB, handle func(net.Conn)) transport.Addr {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				handle(c)
			}()
		}
	}()
	return transport.AddrOf(ln.Addr())
}

// Start serves svc (the reference service of the default data set when nil) with the
// named protocol's default stacks on a fresh address of network. Network is ignored
// for in-process protocols.
func Start(t testing.TB, name, network string, svc contract.Service, cfg protocol.ServerConfig) *Target {
	t.Helper()
	return StartStacks(t, name, "", "", network, svc, cfg)
}

// StartStacks is Start with the named server stack, whose clients are of the named
// client stack ("" for the protocol's default of a side).
func StartStacks(t testing.TB, name, server, client, network string, svc contract.Service, cfg protocol.ServerConfig) *Target {
	t.Helper()
	p, err := protocol.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	if svc == nil {
		svc = contract.NewReference(ds)
	}
	tg := &Target{Protocol: p, Service: svc, Dataset: ds, network: network}
	if tg.ServerStack, err = protocol.LookupStack(name, server, protocol.ServerSide); err != nil {
		t.Fatal(err)
	}
	if tg.ClientStack, err = protocol.LookupStack(name, client, protocol.ClientSide); err != nil {
		t.Fatal(err)
	}
	if p.InProcess {
		return tg
	}
	if network == TLSNetwork || network == QUICNetwork {
		if tg.TLS, err = transport.EphemeralTLS(); err != nil {
			t.Fatal(err)
		}
		cfg.TLS = tg.TLS
	}
	srv, err := tg.ServerStack.NewServer(svc, cfg)
	if err != nil {
		t.Fatalf("%s: %s NewServer: %v", name, tg.ServerStack.Name, err)
	}
	tg.Server = srv
	var served <-chan error
	if tg.Addr, served, err = protocol.ServeAt(srv, ListenAddr(t, network)); err != nil {
		srv.Close()
		t.Fatalf("%s: %s: %v", name, tg.ServerStack.Name, err)
	}
	t.Cleanup(func() {
		srv.Close()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("%s: Serve returned %v after Close, want nil", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: Serve did not return within 5s of Close", name)
		}
	})
	return tg
}

// Client returns a new client of the target whose connections count bytes in c (nil:
// none). It is closed by t.Cleanup.
func (tg *Target) Client(t testing.TB, c *transport.Counter) protocol.Client {
	t.Helper()
	return tg.ClientConfig(t, protocol.ClientConfig{}, c)
}

// ClientConfig is Client with a config; Target, Dial and Local are filled in.
func (tg *Target) ClientConfig(t testing.TB, cfg protocol.ClientConfig, c *transport.Counter) protocol.Client {
	t.Helper()
	cfg.Address = tg.Addr
	cfg.Local = tg.Service
	cfg.TLS = tg.TLS
	switch {
	case tg.Protocol.InProcess:
	case tg.network == QUICNetwork:
		cfg.Packet = transport.PacketListener(c)
	default:
		cfg.Dial = transport.Dialer(tg.Addr, c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, err := tg.ClientStack.NewClient(ctx, cfg)
	if err != nil {
		t.Fatalf("%s: %s NewClient(%s): %v", tg.Protocol.Name, tg.ClientStack.Name, tg.Addr, err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// again starts another target like tg (the same protocol, stacks and network) serving
// svc with cfg.
func (tg *Target) again(t testing.TB, svc contract.Service, cfg protocol.ServerConfig) *Target {
	t.Helper()
	return StartStacks(t, tg.Protocol.Name, tg.ServerStack.Name, tg.ClientStack.Name, tg.network, svc, cfg)
}

// Python returns the python3 that can import modules (a comma-separated list, as an
// import statement takes them), or skips the test (fails it in CI: internal/testtool),
// naming the pip packages to install ('make tools' installs them): for tests with
// outside clients written in Python.
func Python(t testing.TB, modules, pipNames string) string {
	t.Helper()
	py := testtool.Command(t, "python3")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, py, "-c", "import "+modules).CombinedOutput(); err != nil {
		testtool.Missing(t, "python3 cannot import %s (pip packages %s; run 'make tools'): %v: %s", modules, pipNames, err, strings.TrimSpace(string(out)))
	}
	return py
}

// Context returns a context bounded so that a hung call fails the test instead of
// hanging it (20 s: far beyond any call of the tests, on a busy machine too),
// cancelled when the test ends.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// rawConn opens a plain connection to the target, for garbage-byte tests (on the
// TLS network, its bytes are a garbage ClientHello).
func (tg *Target) rawConn(t testing.TB) net.Conn {
	t.Helper()
	c, err := net.DialTimeout(tg.Addr.Network, tg.Addr.Address, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// childEnv makes a test binary serve instead of running its tests: "PROTOCOL STACK".
const childEnv = "WIREBENCH_PROTOCOLTEST_SERVE"

// ServeChild is for the start of a test binary's TestMain. In a process started by
// ChildServer it serves the protocol and server stack named in its environment, with
// the reference service of the default data set, on a loopback port; prints the
// address; serves until its stdin closes (the parent ended or died); and exits. In any
// other process it returns at once.
func ServeChild() {
	spec := os.Getenv(childEnv)
	if spec == "" {
		return
	}
	name, stack, _ := strings.Cut(spec, " ")
	s, err := protocol.LookupStack(name, stack, protocol.ServerSide)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv, err := s.NewServer(contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)), protocol.ServerConfig{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go srv.Serve(ln)
	fmt.Println(ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
	os.Exit(0)
}

// ChildServer starts this test binary again as a server of the named protocol and
// server stack ("" for the default), whose TestMain calls ServeChild first, and
// returns its TCP address; the child ends with the test. The server's CPU time and
// allocations are then not the test's: for tests and benchmarks of a client alone.
func ChildServer(t testing.TB, name, stack string) transport.Addr {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+name+" "+stack)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("server process of %s %s: %v", name, stack, err)
	}
	return transport.Addr{Network: "tcp", Address: strings.TrimSpace(line)}
}
