package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
)

// dataFlags choose the data set; a server and the clients that verify its answers must
// use the same values.
type dataFlags struct {
	DataSize int    `default:"${data_size}" help:"${data_size_help}"`
	Seed     uint64 `default:"${data_seed}" help:"${data_seed_help}"`
}

func (d dataFlags) dataset() (*contract.Dataset, error) {
	ds, err := contract.NewDataset(d.Seed, d.DataSize)
	if err != nil {
		return nil, usageError{err}
	}
	return ds, nil
}

type serveCmd struct {
	Protocol       string        `short:"p" required:"" help:"Protocol to serve (see 'wirebench list')."`
	Stack          string        `help:"Server stack (default: the protocol's production stack; see 'wirebench list'). A JVM stack runs in the Java worker."`
	Option         []string      `help:"Server stack option KEY=VALUE (repeatable)."`
	Listen         string        `short:"l" default:"tcp://127.0.0.1:8080" env:"WIREBENCH_LISTEN" help:"Address to listen on: tcp://HOST:PORT (port 0 picks a free one), unix:///PATH, or udp://HOST:PORT for an HTTP/3 stack (QUIC: TLS always, as with --tls)."`
	MaxMessageSize units.Size    `default:"${max_message_size}" help:"Largest request accepted; a larger one is refused without being read whole."`
	ShutdownGrace  time.Duration `default:"5s" help:"On SIGINT/SIGTERM, how long calls in flight may take to finish."`
	TLS            bool          `name:"tls" help:"Serve over TLS 1.3 (tcp only), with --tls-cert and --tls-key or a certificate made now for localhost, 127.0.0.1, ::1 and the listen host, whose CA is written to --tls-ca-out."`
	TLSCert        string        `name:"tls-cert" help:"With --tls: the certificate chain to serve (PEM), with --tls-key."`
	TLSKey         string        `name:"tls-key" help:"With --tls: the key of --tls-cert (PEM)."`
	TLSCAOut       string        `name:"tls-ca-out" help:"With --tls and no --tls-cert: write the made certificate's CA here (PEM), for clients to trust (default: a new file in the temp dir, printed)."`
	dataFlags
}

// serverTLS returns the TLS the flags ask for (zero without --tls; always on a udp
// address, QUIC's), and the file its CA was written to when the certificate was made
// here.
func (c *serveCmd) serverTLS(addr transport.Addr) (transport.TLS, string, error) {
	secure := c.TLS || addr.Network == "udp"
	switch {
	case !secure && (c.TLSCert != "" || c.TLSKey != "" || c.TLSCAOut != ""):
		return transport.TLS{}, "", usagef("--tls-cert, --tls-key and --tls-ca-out are for --tls (or a udp:// address)")
	case !secure:
		return transport.TLS{}, "", nil
	case addr.Network == "unix":
		return transport.TLS{}, "", usagef("--tls is for tcp, not %s", addr)
	case c.TLSCert != "" || c.TLSKey != "":
		if c.TLSCAOut != "" {
			return transport.TLS{}, "", usagef("--tls-ca-out is for a certificate made here, not --tls-cert")
		}
		tc, err := transport.LoadTLS(c.TLSCert, c.TLSKey, "")
		if err != nil {
			return transport.TLS{}, "", usageError{err}
		}
		return tc, "", nil
	}
	host, _, _ := net.SplitHostPort(addr.Address)
	tc, err := transport.EphemeralTLS(host)
	if err != nil {
		return transport.TLS{}, "", err
	}
	out := c.TLSCAOut
	if out == "" {
		dir, err := os.MkdirTemp("", "wirebench-tls-")
		if err != nil {
			return transport.TLS{}, "", err
		}
		out = filepath.Join(dir, "ca.pem")
	}
	if err := os.WriteFile(out, tc.CAPEM, 0o644); err != nil {
		return transport.TLS{}, "", fmt.Errorf("--tls-ca-out: %w", err)
	}
	return tc, out, nil
}

func (c *serveCmd) Run(e *env) error {
	addr, err := transport.Parse(c.Listen)
	if err != nil {
		return usageError{err}
	}
	s := spec.Default()
	s.Protocol, s.ServerStack, s.Transport = c.Protocol, c.Stack, addr.Network
	if addr.Network == "udp" {
		s.Transport = spec.QUIC
		// serve starts no client, but a spec over quic names an HTTP/3 one: any of the
		// protocol's (with none, Resolve says the protocol has no HTTP/3 stack).
		for _, st := range protocol.Stacks(c.Protocol) {
			if st.QUIC && st.Has(protocol.ClientSide) {
				s.ClientStack = st.Name
				break
			}
		}
	}
	s.MaxMessageSize, s.DataSize, s.DataSeed = int(c.MaxMessageSize), c.DataSize, c.Seed
	s.ServerCPUs, s.ClientCPUs = nil, nil
	if s.ServerOptions, err = keyValues("--option", c.Option); err != nil {
		return err
	}
	res, err := control.Resolve(s)
	if err != nil {
		return usageError{err}
	}
	if res.Protocol.InProcess {
		return usagef("%s is in-process and has no server: it can only be called (wirebench call --protocol %s ...)", res.Protocol.Name, res.Protocol.Name)
	}
	if c.TLS && !res.Server.SpeaksTLS(protocol.ServerSide) {
		return usagef("--tls: the %s server stack of %s does not speak TLS", res.Server.Name, res.Protocol.Name)
	}
	tc, caFile, err := c.serverTLS(addr)
	if err != nil {
		return err
	}
	if res.Server.Worker != protocol.WorkerGo {
		if c.TLS {
			res.Spec.Transport = spec.TLS // the worker's setup carries the certificate
		}
		return c.serveInWorker(e, res, addr, tc, caFile)
	}
	ds, err := c.dataset()
	if err != nil {
		return err
	}
	srv, err := res.Server.NewServer(contract.NewReference(ds), protocol.ServerConfig{MaxMessageSize: s.MaxMessageSize, Options: s.ServerOptions, TLS: tc})
	if err != nil {
		return usageError{err}
	}
	bound, served, err := protocol.ServeAt(srv, addr)
	if err != nil {
		srv.Close()
		return err
	}
	// The one line scripts wait for: the bound address, also when port 0 was asked.
	if caFile != "" {
		fmt.Fprintf(e.stdout, "TLS certificate made for this server; its CA is in %s\n", caFile)
	}
	fmt.Fprintf(e.stdout, "listening on %s\n", bound)
	select {
	case err := <-served:
		srv.Close()
		return fmt.Errorf("%s server on %s stopped: %w", res.Server.Name, addr, err)
	case <-e.ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	return <-served
}

// serveInWorker serves a stack of another worker kind (a JVM stack) through a worker
// process, until a signal.
func (c *serveCmd) serveInWorker(e *env, res control.Resolved, addr transport.Addr, tc transport.TLS, caFile string) error {
	srv, err := driver.Serve(e.ctx, res, addr.String(), driver.Options{TLS: tc})
	if err != nil {
		return err
	}
	defer srv.Close()
	if caFile != "" {
		fmt.Fprintf(e.stdout, "TLS certificate made for this server; its CA is in %s\n", caFile)
	}
	fmt.Fprintf(e.stdout, "listening on %s\n", srv.Addr)
	select {
	case <-srv.Done:
		return fmt.Errorf("the %s worker serving %s stopped", res.Server.Worker, res.Server.Name)
	case <-e.ctx.Done():
		return nil
	}
}
