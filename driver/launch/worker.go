package launch

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
)

// Worker is the driver's handle on one worker: a process it spawned (Start: pinned,
// dying with the driver, stopped after its fork) or a remote one reached by URL
// (Dial: used as it is, never started, pinned or stopped by the driver). Its Client
// is safe for concurrent use; Close is called once, when the driver is done with it.
type Worker struct {
	// Client calls the worker's control API.
	Client controlpb.WorkerClient
	role   string   // "server worker", "client worker 2"
	url    string   // a remote worker's control URL; "" for a spawned one
	proc   *Process // a spawned worker's process; nil for a remote one
	conn   *grpc.ClientConn
	// grace is how long a spawned worker may take to exit after Quit before it is
	// killed (0: two seconds); a profiling JVM writes its JFR recording as it exits.
	grace time.Duration
}

// Name says which worker: its role and URL, or its role and pid.
func (w *Worker) Name() string {
	switch {
	case w.url != "":
		return w.role + " " + w.url
	case w.proc != nil && w.proc.cmd.Process != nil:
		return fmt.Sprintf("%s (pid %d)", w.role, w.proc.cmd.Process.Pid)
	}
	return w.role
}

// Start spawns a worker that runs st, as role ("server worker"), with the launcher of
// st's language (Launcher), pinned to cpus, in the namespace of ns (the driver's own
// for the zero End). name names its control socket, in dir, and its profile files,
// in opt.ProfileDir.
func Start(ctx context.Context, role string, st *protocol.Stack, opt Options, dir, name string, cpus []int, ns nspair.End) (*Worker, error) {
	l, err := For(st.Worker)
	if err != nil {
		return nil, fmt.Errorf("%s: %s stack %s: %w", role, st.Protocol, st.Name, err)
	}
	c := Command{Options: opt, Stack: st, Socket: filepath.Join(dir, name+".sock"), CPUs: cpus}
	if opt.ProfileDir != "" {
		c.Profile = filepath.Join(opt.ProfileDir, name)
	}
	argv, err := l.Command(c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", role, err)
	}
	proc, err := StartProcess(ctx, role, nspair.Exec(ns, argv), cpus, opt.StartTimeout*time.Duration(max(l.StartFactor, 1)))
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient("unix://"+c.Socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		proc.Kill()
		return nil, proc.Failure(err)
	}
	w := &Worker{role: role, proc: proc, conn: conn, Client: controlpb.NewWorkerClient(conn)}
	if c.Profile != "" {
		w.grace = l.ProfileGrace
	}
	return w, nil
}

// Pid is a spawned worker's process id; 0 for a remote worker.
func (w *Worker) Pid() int {
	if w.proc == nil || w.proc.cmd.Process == nil {
		return 0
	}
	return w.proc.Pid()
}

// Exited is closed when a spawned worker's process has exited; nil for a remote
// worker.
func (w *Worker) Exited() <-chan struct{} {
	if w.proc == nil {
		return nil
	}
	return w.proc.Exited()
}

// Close ends the driver's use of the worker: a spawned one is asked to quit, then
// made sure of; a remote one only loses its connection (which ends its streams).
func (w *Worker) Close() {
	if w.proc != nil && !w.proc.Dead() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		w.Client.Quit(ctx, &controlpb.QuitRequest{})
		cancel()
	}
	w.conn.Close()
	if w.proc != nil {
		grace := w.grace
		if grace == 0 {
			grace = 2 * time.Second
		}
		w.proc.Stop(grace)
	}
}

// Explain turns an RPC error into the reason the worker gives, or, when a spawned
// worker died, what its exit and stderr say; a remote worker that went away is
// named with its URL.
func (w *Worker) Explain(err error) error {
	if w.proc != nil {
		select {
		case <-w.proc.exited:
		case <-time.After(300 * time.Millisecond):
		}
		if w.proc.Dead() {
			return w.proc.Failure(nil)
		}
	}
	s, ok := status.FromError(err)
	switch {
	case !ok:
		return fmt.Errorf("%s: %w", w.Name(), err)
	case w.url != "" && s.Code() == codes.Unavailable:
		return fmt.Errorf("%s: lost the connection (did the worker or its host stop?): %s", w.Name(), s.Message())
	case w.url != "" && s.Code() == codes.Unauthenticated:
		return fmt.Errorf("%s: refused the driver: %s", w.Name(), s.Message())
	}
	return fmt.Errorf("%s: %s", w.role, s.Message())
}

// Dial connects to the remote worker at url as role, with auth, and asks for its
// Info, so a wrong address or token fails here, with the worker's role and URL.
func Dial(ctx context.Context, role, url string, auth spec.ClientAuth) (*Worker, *controlpb.InfoReply, error) {
	a, err := transport.Parse(url)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", role, url, err)
	}
	opts, err := control.DialOptions(auth)
	if err != nil {
		return nil, nil, err
	}
	// passthrough: the address is dialled as given, without a DNS resolver's
	// reconnection logic; TLS checks the URL's host name.
	target := "passthrough:///" + a.Address
	if a.Network == "unix" {
		target = "unix://" + a.Address
	}
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", role, url, err)
	}
	w := &Worker{role: role, url: url, conn: conn, Client: controlpb.NewWorkerClient(conn)}
	// No WaitForReady: a remote worker is already listening, so a refused
	// connection or a failed TLS handshake is the answer, not a reason to wait.
	ictx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	info, err := w.Client.Info(ictx, &controlpb.InfoRequest{})
	if err != nil {
		conn.Close()
		switch s, _ := status.FromError(err); {
		case ictx.Err() != nil && ctx.Err() == nil:
			return nil, nil, fmt.Errorf("%s %s: no answer within 10s (is a worker listening there, and the port open?)", role, url)
		case s.Code() == codes.Unavailable:
			return nil, nil, fmt.Errorf("%s %s: cannot reach it: %s", role, url, s.Message())
		}
		return nil, nil, w.Explain(err)
	}
	return w, info, nil
}
