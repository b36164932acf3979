package main

import (
	"context"
	"fmt"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/transport"
)

// dataFlags choose the data set; a server and the clients that verify its answers must
// use the same values.
type dataFlags struct {
	DataSize int    `default:"20" help:"Persons in the data set (servers and clients must agree)."`
	Seed     uint64 `default:"1" help:"Seed of the data set (servers and clients must agree)."`
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
	Listen         string        `short:"l" default:"tcp://127.0.0.1:8080" env:"WIREBENCH_LISTEN" help:"Address to listen on: tcp://HOST:PORT (port 0 picks a free one) or unix:///PATH."`
	MaxMessageSize units.Size    `default:"16MiB" help:"Largest request accepted; a larger one is refused without being read whole."`
	ShutdownGrace  time.Duration `default:"5s" help:"On SIGINT/SIGTERM, how long calls in flight may take to finish."`
	dataFlags
}

func (c *serveCmd) Run(e *env) error {
	p, err := protocol.Lookup(c.Protocol)
	if err != nil {
		return usageError{err}
	}
	if p.InProcess {
		return usagef("%s is in-process and has no server: it can only be called (wirebench call --protocol %s ...)", p.Name, p.Name)
	}
	addr, err := transport.Parse(c.Listen)
	if err != nil {
		return usageError{err}
	}
	if c.MaxMessageSize < 1 {
		return usagef("--max-message-size must be at least 1 byte")
	}
	ds, err := c.dataset()
	if err != nil {
		return err
	}
	srv, err := p.NewServer(contract.NewReference(ds), protocol.ServerConfig{MaxMessageSize: int(c.MaxMessageSize)})
	if err != nil {
		return err
	}
	ln, err := transport.Listen(addr)
	if err != nil {
		return err
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// The one line scripts wait for: the bound address, also when port 0 was asked.
	fmt.Fprintf(e.stdout, "listening on %s\n", transport.AddrOf(ln.Addr()))
	select {
	case err := <-served:
		srv.Close()
		return fmt.Errorf("%s server on %s stopped: %w", p.Name, addr, err)
	case <-e.ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	return <-served
}
