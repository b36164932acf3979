package driver

import (
	"context"
	"errors"
	"os"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/nspair"
)

// Server is a server of one stack running in a worker process of its kind, for
// `wirebench serve` with a stack that does not run in this binary.
type Server struct {
	// Addr is the address it listens on.
	Addr string
	w    *launch.Worker
	dir  string
	// Done is closed when the worker process has exited.
	Done <-chan struct{}
	stop context.CancelFunc
}

// Serve starts the server side of res in a worker process of its stack's kind,
// listening on listen, and returns once it listens; over TLS (res.Spec.Secure) it
// serves opt.TLS's certificate. Close stops it.
func Serve(ctx context.Context, res control.Resolved, listen string, opt Options) (*Server, error) {
	if err := opt.fill(); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(opt.TempDir, "wb-")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &Server{dir: dir, stop: cancel}
	fail := func(err error) (*Server, error) {
		s.Close()
		return nil, err
	}
	cpus, _ := res.Spec.Pinning()
	if s.w, err = launch.Start(ctx, "server worker", res.Server, opt.launchOptions(res.Spec.RuntimeArgs), dir, "server", cpus, nspair.End{}); err != nil {
		return fail(err)
	}
	s.Done = s.w.Exited()
	stream, err := s.w.Client.RunServer(ctx)
	if err != nil {
		return fail(s.w.Explain(err))
	}
	setup := &controlpb.ServerSetup{Benchmark: control.BenchmarkMessage(res), Listen: listen}
	if res.Spec.Secure() {
		if len(opt.TLS.CertPEM) == 0 {
			return fail(errors.New("serving over TLS needs the server's certificate (Options.TLS)"))
		}
		setup.TlsCertPem, setup.TlsKeyPem = opt.TLS.CertPEM, opt.TLS.KeyPEM
	}
	if err := stream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Setup{Setup: setup}}); err != nil {
		return fail(s.w.Explain(err))
	}
	st, err := stream.Recv()
	if err != nil {
		return fail(s.w.Explain(err))
	}
	s.Addr = st.Address
	return s, nil
}

// Close stops the server and its worker.
func (s *Server) Close() {
	s.stop()
	if s.w != nil {
		s.w.Close()
	}
	os.RemoveAll(s.dir)
}
