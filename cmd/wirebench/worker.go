package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"google.golang.org/grpc"

	"github.com/wirebench/wirebench/cluster"
	"github.com/wirebench/wirebench/transport"
)

type workerCmd struct {
	Listen     string `short:"l" default:"tcp://127.0.0.1:0" help:"Control address: tcp://HOST:PORT or unix:///PATH."`
	CPUProfile string `help:"Write a CPU profile (pprof) of the worker's whole life to this file."`
}

// Run serves the control API until a driver says Quit or a signal arrives. It prints
// "listening on ADDR" once it accepts connections, as serve does.
func (c *workerCmd) Run(e *env) error {
	addr, err := transport.Parse(c.Listen)
	if err != nil {
		return usageError{err}
	}
	w, err := cluster.NewWorker(buildVersion())
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
	s := grpc.NewServer()
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
