// Package protocoltest is the conformance suite every protocol adapter passes: the same
// checks over every transport, so a protocol is correct by the same measure as the others
// and no protocol wins a benchmark by doing less work.
//
// An adapter's test calls Run(t, Name). New checks belong here, not in one adapter.
package protocoltest

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/transport"
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
	// Stacks are the stacks the target's server runs and its clients are made by.
	Stacks Stacks
}

// Stacks names a server stack and a client stack of a protocol; "" is the protocol's
// default for that side.
type Stacks struct{ Server, Client string }

// Networks are the transports the suite covers for networked protocols.
var Networks = []string{"tcp", "unix"}

// ListenAddr returns a fresh loopback address of the network: 127.0.0.1:0 for tcp, a
// socket in a new short temp dir for unix (socket paths must stay under 108 bytes, which
// t.TempDir's long names can break).
func ListenAddr(t testing.TB, network string) transport.Addr {
	t.Helper()
	switch network {
	case "tcp":
		return transport.Addr{Network: "tcp", Address: "127.0.0.1:0"}
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
			c.Write([]byte("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"))
			c.Close()
		}
	}()
	return transport.AddrOf(ln.Addr())
}

// Start serves svc (the reference service of the default data set when nil) with the
// named protocol on a fresh address of network. Network is ignored for in-process
// protocols.
func Start(t testing.TB, name, network string, svc contract.Service, cfg protocol.ServerConfig) *Target {
	t.Helper()
	return StartStacks(t, name, network, Stacks{}, svc, cfg)
}

// StartStacks is Start with the server of stacks.Server, whose clients (Client,
// ClientConfig) are made by stacks.Client.
func StartStacks(t testing.TB, name, network string, stacks Stacks, svc contract.Service, cfg protocol.ServerConfig) *Target {
	t.Helper()
	p, err := protocol.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	if svc == nil {
		svc = contract.NewReference(ds)
	}
	tg := &Target{Protocol: p, Service: svc, Dataset: ds, Stacks: stacks}
	if p.InProcess {
		return tg
	}
	ss, err := protocol.LookupStack(name, stacks.Server, protocol.ServerSide)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := ss.NewServer(svc, cfg)
	if err != nil {
		t.Fatalf("%s: NewServer of %s: %v", name, ss.Name, err)
	}
	ln, err := transport.Listen(ListenAddr(t, network))
	if err != nil {
		t.Fatal(err)
	}
	tg.Server = srv
	tg.Addr = transport.AddrOf(ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
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

// restart starts another server like tg's (protocol, network, stacks) of svc with cfg.
func (tg *Target) restart(t testing.TB, svc contract.Service, cfg protocol.ServerConfig) *Target {
	t.Helper()
	return StartStacks(t, tg.Protocol.Name, tg.Addr.Network, tg.Stacks, svc, cfg)
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
	cfg.Target = tg.Addr
	cfg.Local = tg.Service
	if !tg.Protocol.InProcess {
		cfg.Dial = transport.Dialer(tg.Addr, c)
	}
	cs, err := protocol.LookupStack(tg.Protocol.Name, tg.Stacks.Client, protocol.ClientSide)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, err := cs.NewClient(ctx, cfg)
	if err != nil {
		t.Fatalf("%s: NewClient(%s): %v", tg.Protocol.Name, tg.Addr, err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// ctxT returns a context bounded so that a hung call fails the test instead of hanging it.
func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// rawConn opens a plain connection to the target, for garbage-byte tests.
func (tg *Target) rawConn(t testing.TB) net.Conn {
	t.Helper()
	c, err := net.DialTimeout(tg.Addr.Network, tg.Addr.Address, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
