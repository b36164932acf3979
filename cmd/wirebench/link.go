package main

import (
	"fmt"
	"io"
	"os"

	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec/link"
	"github.com/wirebench/wirebench/spec/link/proxy"
)

// linkCmd is the link proxy a client worker starts beside itself (worker/linkproc.go);
// it can be run by hand to put a delay in front of any TCP server.
type linkCmd struct {
	Listen   string `default:"tcp://127.0.0.1:0" help:"Address to listen on: tcp://HOST:PORT."`
	Upstream string `required:"" help:"Address to forward to: tcp://HOST:PORT."`
	Link     string `required:"" help:"Conditions in each direction: delay=DURATION,jitter=DURATION,rate=RATE (e.g. delay=1ms,rate=100mbit; the rate paces each connection)."`
	// The JVM worker cannot have the kernel kill its child when it dies; it holds
	// the proxy's stdin instead, which closes with it however it ends.
	ExitWithStdin bool `help:"Also exit when stdin ends (for a parent that holds it as a pipe)."`
}

// Run proxies until a signal arrives. It prints "listening on ADDR" once it
// accepts connections, as worker does.
func (c *linkCmd) Run(e *env) error {
	prof, err := link.Parse(c.Link)
	if err != nil {
		return usageError{err}
	}
	listen, err := transport.Parse(c.Listen)
	if err != nil || listen.Network != "tcp" {
		return usagef("--listen %q: want tcp://HOST:PORT", c.Listen)
	}
	up, err := transport.Parse(c.Upstream)
	if err != nil || up.Network != "tcp" {
		return usagef("--upstream %q: want tcp://HOST:PORT", c.Upstream)
	}
	px, err := proxy.Start(listen.Address, up.Address, prof, true)
	if err != nil {
		return err
	}
	defer px.Close()
	fmt.Fprintf(e.stdout, "listening on %s\n", px.Addr())
	stdinEnded := make(chan struct{})
	if c.ExitWithStdin {
		go func() {
			io.Copy(io.Discard, os.Stdin)
			close(stdinEnded)
		}()
	}
	select {
	case <-e.ctx.Done():
	case <-stdinEnded:
	}
	return nil
}
