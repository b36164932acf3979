package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"google.golang.org/grpc"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/workers/go"
)

type workerCmd struct {
	Listen      string `short:"l" default:"tcp://127.0.0.1:0" help:"Control address: tcp://HOST:PORT or unix:///PATH. Anything but loopback or a unix socket needs --token-file or mutual TLS."`
	TokenFile   string `help:"Accept only drivers that send the token in this file (at least 16 characters, e.g. openssl rand -hex 32)."`
	TLSCert     string `name:"tls-cert" help:"Serve the control API over TLS with this certificate (PEM)..."`
	TLSKey      string `name:"tls-key" help:"... and this key (PEM)..."`
	TLSClientCA string `name:"tls-client-ca" help:"... accepting only drivers whose certificate this CA signed (mutual TLS)."`
	CPUProfile  string `help:"Write a CPU profile (pprof) of the worker's whole life to this file."`
}

// Run serves the control API until a driver says Quit or a signal arrives. It prints
// "listening on ADDR" once it accepts connections, as serve does.
func (c *workerCmd) Run(e *env) error {
	addr, err := transport.ParseStream(c.Listen)
	if err != nil {
		return usageError{err}
	}
	opts, err := c.serverOptions(e, addr)
	if err != nil {
		return err
	}
	w, err := worker.New(buildVersion())
	if err != nil {
		return err
	}
	if c.CPUProfile != "" {
		f, err := os.Create(c.CPUProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ln, err := transport.Listen(addr)
	if err != nil {
		return err
	}
	s := grpc.NewServer(opts...)
	w.Register(s)
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	fmt.Fprintf(e.stdout, "listening on %s\n", transport.AddrOf(ln.Addr()))
	select {
	case err := <-served:
		return fmt.Errorf("worker control server stopped: %w", err)
	case <-w.Done():
	case <-e.ctx.Done():
	}
	// Let the Quit answer go out, then stop; streams still open are cancelled.
	stopped := make(chan struct{})
	go func() { s.GracefulStop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(time.Second):
		s.Stop()
	}
	return nil
}

// serverOptions are the control server's guards: a token, mutual TLS, or both. A
// worker others can reach refuses to start with neither.
func (c *workerCmd) serverOptions(e *env, addr transport.Addr) ([]grpc.ServerOption, error) {
	var opts []grpc.ServerOption
	tlsSet := c.TLSCert != "" || c.TLSKey != "" || c.TLSClientCA != ""
	if tlsSet {
		if c.TLSCert == "" || c.TLSKey == "" || c.TLSClientCA == "" {
			return nil, usagef("TLS needs --tls-cert, --tls-key and --tls-client-ca together (the workers' TLS is mutual)")
		}
		creds, err := control.ServerTLS(c.TLSCert, c.TLSKey, c.TLSClientCA)
		if err != nil {
			return nil, usageError{err}
		}
		opts = append(opts, grpc.Creds(creds))
	}
	if c.TokenFile != "" {
		tok, err := control.ReadToken(c.TokenFile)
		if err != nil {
			return nil, usageError{err}
		}
		opts = append(opts, control.ServerAuth{Token: tok, Log: e.stderr}.Options()...)
	}
	if !tlsSet && c.TokenFile == "" && control.NeedsAuth(addr) {
		return nil, usageError{errors.New("a worker listening on " + addr.String() + " can be reached from other hosts: " +
			"give --token-file (or --tls-cert, --tls-key and --tls-client-ca), or listen on loopback or a unix socket")}
	}
	return opts, nil
}
