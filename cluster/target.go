package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/cluster/controlpb"
	"github.com/wirebench/wirebench/engine"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
)

// worker is a started worker process and its control connection.
type worker struct {
	*process
	conn   *grpc.ClientConn
	client controlpb.WorkerClient
}

// workerCommand returns the command line of a worker of kind listening on the control
// socket sock; profile, when set, asks a Go worker for a CPU profile.
func workerCommand(kind string, opt Options, sock, profile string) ([]string, error) {
	switch kind {
	case protocol.WorkerGo:
		argv := []string{opt.Binary, "worker", "--listen", "unix://" + sock}
		if profile != "" {
			argv = append(argv, "--cpu-profile", profile)
		}
		return argv, nil
	case protocol.WorkerJava:
		jar, err := javaWorkerJar(opt)
		if err != nil {
			return nil, err
		}
		java, err := exec.LookPath("java")
		if err != nil {
			return nil, errors.New("the JVM stacks need a JDK 17 or later: java is not on PATH")
		}
		return append(append([]string{java}, opt.JavaArgs...), "-jar", jar, "worker", "--listen", "unix://"+sock), nil
	}
	return nil, fmt.Errorf("no worker of kind %q", kind)
}

// JavaWorkerEnv names the environment variable that points at the JVM worker's jar.
const JavaWorkerEnv = "WIREBENCH_JAVA_WORKER"

// javaWorkerJarPath is where `make java` builds the JVM worker, from the repository root.
const javaWorkerJarPath = "workers/java/target/wirebench-worker.jar"

// javaWorkerJar finds the JVM worker: Options.JavaWorker, then $WIREBENCH_JAVA_WORKER,
// then the build's place beside the binary's bin/ directory or under the current one.
func javaWorkerJar(opt Options) (string, error) {
	cands := []string{opt.JavaWorker, os.Getenv(JavaWorkerEnv)}
	if opt.Binary != "" {
		cands = append(cands, filepath.Join(filepath.Dir(opt.Binary), "..", javaWorkerJarPath))
	}
	cands = append(cands, javaWorkerJarPath)
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("the JVM worker is not built (no %s): run `make java` (needs a JDK 17 and Maven), or set %s", javaWorkerJarPath, JavaWorkerEnv)
}

func startWorker(ctx context.Context, role, kind string, opt Options, dir, name string, cpus []int) (*worker, error) {
	sock := filepath.Join(dir, name+".sock")
	profile := ""
	if opt.ProfileDir != "" {
		profile = filepath.Join(opt.ProfileDir, name+".pprof")
	}
	argv, err := workerCommand(kind, opt, sock, profile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", role, err)
	}
	timeout := opt.StartTimeout
	if kind != protocol.WorkerGo {
		timeout *= 3 // a JVM takes a few seconds to start on a busy machine
	}
	proc, err := startProcess(ctx, role, argv, cpus, timeout)
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient("unix://"+sock, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		proc.kill()
		return nil, proc.failure(err)
	}
	return &worker{process: proc, conn: conn, client: controlpb.NewWorkerClient(conn)}, nil
}

// close asks the worker to quit, then makes sure it is gone.
func (w *worker) close() {
	if !w.dead() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		w.client.Quit(ctx, &controlpb.QuitRequest{})
		cancel()
	}
	w.conn.Close()
	w.stop(2 * time.Second)
}

// explain turns an RPC error into the reason the worker gives, or, when the worker
// died, what its exit and stderr say.
func (w *worker) explain(err error) error {
	select {
	case <-w.exited:
	case <-time.After(300 * time.Millisecond):
	}
	if w.dead() {
		return w.failure(nil)
	}
	if s, ok := status.FromError(err); ok {
		return fmt.Errorf("%s: %s", w.role, s.Message())
	}
	return fmt.Errorf("%s: %w", w.role, err)
}

// target is one benchmark's running server and load generator: the server listening,
// the client connected and checked against the contract, both idle between phases.
// Owned by one goroutine.
type target struct {
	res       Resolved
	srv, cli  *worker
	srvStream controlpb.Worker_RunServerClient
	cliStream controlpb.Worker_RunClientClient
	cancel    context.CancelFunc
	// server is the server's last reading: each phase's server CPU is the
	// difference from it.
	server *ProcReading
}

// startTarget starts the workers of res for trial trial, as the idx-th target of its
// group, and returns once the client is Ready.
func startTarget(ctx context.Context, res Resolved, opt Options, dir string, trial, idx int) (_ *target, err error) {
	ctx, cancel := context.WithCancel(ctx)
	t := &target{res: res, cancel: cancel}
	defer func() {
		if err != nil {
			t.close()
		}
	}()
	s := res.Spec
	bm := benchmarkMessage(res)
	addr := s.Target
	if res.HasServer() {
		if t.srv, err = startWorker(ctx, "server worker", res.Server.Worker, opt, dir, fmt.Sprintf("server-%d-%d", idx, trial), s.ServerCPUs); err != nil {
			return nil, err
		}
		listen := "tcp://127.0.0.1:0"
		if s.Transport == spec.Unix {
			listen = "unix://" + filepath.Join(dir, fmt.Sprintf("bench-%d-%d.sock", idx, trial))
		}
		if t.srvStream, err = t.srv.client.RunServer(ctx); err != nil {
			return nil, t.srv.explain(err)
		}
		if err = t.srvStream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Setup{Setup: &controlpb.ServerSetup{
			Benchmark: bm, Listen: listen}}}); err != nil {
			return nil, t.srv.explain(err)
		}
		st, err := t.srvStream.Recv()
		if err != nil {
			return nil, t.srv.explain(err)
		}
		addr = st.Address
	}
	if t.cli, err = startWorker(ctx, "client worker", res.Client.Worker, opt, dir, fmt.Sprintf("client-%d-%d", idx, trial), s.ClientCPUs); err != nil {
		return nil, err
	}
	if t.cliStream, err = t.cli.client.RunClient(ctx); err != nil {
		return nil, t.cli.explain(err)
	}
	if err = t.cliStream.Send(&controlpb.ClientArgs{Arg: &controlpb.ClientArgs_Setup{Setup: &controlpb.ClientSetup{
		Benchmark: bm, Target: addr, ShareIndex: 0, ShareCount: 1}}}); err != nil {
		return nil, t.cli.explain(err)
	}
	st, err := t.cliStream.Recv()
	if err != nil {
		return nil, t.recvError(ctx, err)
	}
	if st.GetReady() == nil {
		return nil, fmt.Errorf("client worker: answered its setup with %T instead of Ready", st.Status)
	}
	if t.server, err = t.mark(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *target) recvError(ctx context.Context, err error) error {
	if errors.Is(err, io.EOF) {
		return errors.New("client worker: ended the run without an answer")
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return t.cli.explain(err)
}

// mark reads the server worker (nil without one).
func (t *target) mark() (*ProcReading, error) {
	if t.srvStream == nil {
		return nil, nil
	}
	if err := t.srvStream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Mark{Mark: &controlpb.Mark{}}}); err != nil {
		return nil, t.srv.explain(err)
	}
	st, err := t.srvStream.Recv()
	if err != nil {
		return nil, t.srv.explain(err)
	}
	r := procReading(st.GetProc())
	return &r, nil
}

// phase runs one phase and returns its interval, with the server's CPU over it.
func (t *target) phase(ctx context.Context, ph *controlpb.Phase) (*Interval, error) {
	if err := t.cliStream.Send(&controlpb.ClientArgs{Arg: &controlpb.ClientArgs_Phase{Phase: ph}}); err != nil {
		return nil, t.recvError(ctx, err)
	}
	st, err := t.cliStream.Recv()
	if err != nil {
		return nil, t.recvError(ctx, err)
	}
	iv, err := decodeInterval(st.GetInterval())
	if err != nil {
		return nil, fmt.Errorf("client worker sent a bad interval: %w", err)
	}
	if iv.Phase != engine.Phase(ph.Kind) || iv.Index != int(ph.Index) {
		return nil, fmt.Errorf("client worker answered phase %s %d with %s %d", ph.Kind, ph.Index, iv.Phase, iv.Index)
	}
	if t.srvStream != nil {
		now, err := t.mark()
		if err != nil {
			return nil, err
		}
		iv.Server, iv.ServerCPU, t.server = now, now.CPU-t.server.CPU, now
	}
	return iv, nil
}

// close stops both workers: the client first, so no call meets a closed server.
func (t *target) close() {
	t.cancel()
	if t.cli != nil {
		t.cli.close()
	}
	if t.srv != nil {
		t.srv.close()
	}
}

// Server is a server of one stack running in a worker process of its kind, for
// `wirebench serve` with a stack that does not run in this binary.
type Server struct {
	// Addr is the address it listens on.
	Addr string
	w    *worker
	dir  string
	// Done is closed when the worker process has exited.
	Done <-chan struct{}
	stop context.CancelFunc
}

// Serve starts the server side of res in a worker process of its stack's kind,
// listening on listen, and returns once it listens. Close stops it.
func Serve(ctx context.Context, res Resolved, listen string, opt Options) (*Server, error) {
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
	if s.w, err = startWorker(ctx, "server worker", res.Server.Worker, opt, dir, "server", res.Spec.ServerCPUs); err != nil {
		return fail(err)
	}
	s.Done = s.w.exited
	stream, err := s.w.client.RunServer(ctx)
	if err != nil {
		return fail(s.w.explain(err))
	}
	if err := stream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Setup{Setup: &controlpb.ServerSetup{
		Benchmark: benchmarkMessage(res), Listen: listen}}}); err != nil {
		return fail(s.w.explain(err))
	}
	st, err := stream.Recv()
	if err != nil {
		return fail(s.w.explain(err))
	}
	s.Addr = st.Address
	return s, nil
}

// Close stops the server and its worker.
func (s *Server) Close() {
	s.stop()
	if s.w != nil {
		s.w.close()
	}
	os.RemoveAll(s.dir)
}
