package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/transport"
)

// worker is the driver's handle on one worker: a process it spawned (pinned, dying
// with the driver, stopped after its trial) or a remote one reached by URL (used as
// it is: never started, pinned or stopped by the driver).
type worker struct {
	role   string   // "server worker", "client worker 2"
	url    string   // a remote worker's control URL; "" for a spawned one
	proc   *process // a spawned worker's process; nil for a remote one
	conn   *grpc.ClientConn
	client controlpb.WorkerClient
	// grace is how long a spawned worker may take to exit after Quit before it is
	// killed (0: two seconds); a profiling JVM writes its JFR recording as it exits.
	grace time.Duration
}

// name says which worker: its role and URL, or its role and pid.
func (w *worker) name() string {
	switch {
	case w.url != "":
		return w.role + " " + w.url
	case w.proc != nil && w.proc.cmd.Process != nil:
		return fmt.Sprintf("%s (pid %d)", w.role, w.proc.cmd.Process.Pid)
	}
	return w.role
}

// workerCommand returns the command line of a worker that runs stack st, listening on
// the control socket sock and pinned to cpus (none: not pinned). profile, when set, is
// the path of its profile files without their extension: a Go worker writes a CPU
// profile to profile.pprof; a JVM worker a JFR recording to profile.jfr and its GC log
// to profile.gc.log.
func workerCommand(st *protocol.Stack, opt Options, sock, profile string, cpus []int) ([]string, error) {
	switch st.Worker {
	case protocol.WorkerGo:
		argv := []string{opt.Binary, "worker", "--listen", "unix://" + sock}
		if profile != "" {
			argv = append(argv, "--cpu-profile", profile+".pprof")
		}
		return argv, nil
	case protocol.WorkerJava:
		jar, err := javaWorkerJar(opt, st.Family)
		if err != nil {
			return nil, err
		}
		java, err := exec.LookPath("java")
		if err != nil {
			return nil, errors.New("the JVM stacks need a JDK 17 or later: java is not on PATH")
		}
		argv := append([]string{java}, JVMArgs(opt.JavaArgs, len(cpus))...)
		if profile != "" {
			argv = append(argv, JVMProfileArgs(profile)...)
		}
		argv = append(argv, "-jar", jar, "worker", "--listen", "unix://"+sock)
		if opt.Binary != "" {
			// The wirebench executable runs the link proxy of a JVM client behind a link.
			argv = append(argv, "--wirebench", opt.Binary)
		}
		return argv, nil
	case protocol.WorkerRust:
		bin, err := rustWorkerBinary(opt)
		if err != nil {
			return nil, err
		}
		return []string{bin, "worker", "--listen", "unix://" + sock}, nil
	}
	return nil, fmt.Errorf("no worker of kind %q", st.Worker)
}

// JVMDefaultArgs are the JVM options every JVM worker the driver starts gets before the
// user's own (Options.JavaArgs, which win where they set the same option): a fixed heap,
// so that no run's figures depend on how the JVM sized it from the machine's memory, and
// the collector named rather than chosen by the JVM's ergonomics (which pick Serial on
// fewer than 2 CPUs). docs/java-worker.md.
var JVMDefaultArgs = []string{"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"}

// JVMArgs are the JVM options of a JVM worker pinned to cpus CPUs (0: not pinned):
// JVMDefaultArgs, -XX:ActiveProcessorCount=cpus so that the JVM sizes its GC, JIT and
// common pools for the CPUs it may run on rather than for the machine, then user.
func JVMArgs(user []string, cpus int) []string {
	args := slices.Clone(JVMDefaultArgs)
	if cpus > 0 {
		args = append(args, fmt.Sprintf("-XX:ActiveProcessorCount=%d", cpus))
	}
	return append(args, user...)
}

// JVMProfileArgs are the JVM options that profile a JVM worker as the Akka HTTP vs gRPC
// original did: a JFR recording with the profile settings, written when the JVM exits,
// to profile.jfr, and the GC log (every gc tag) to profile.gc.log. JFR's start-up note
// is turned off: it goes to stdout, where the worker's first line must be its address.
func JVMProfileArgs(profile string) []string {
	return []string{
		"-XX:StartFlightRecording=filename=" + profile + ".jfr,settings=profile,dumponexit=true",
		"-Xlog:jfr+startup=off",
		"-Xlog:gc*:file=" + profile + ".gc.log",
	}
}

// withJVMArgs is opt with a benchmark's JVM options after its own.
func (opt Options) withJVMArgs(args []string) Options {
	opt.JavaArgs = append(slices.Clone(opt.JavaArgs), args...)
	return opt
}

// JavaWorkerEnv names the environment variable that points at the JVM worker's jar.
// The jars of the other stack families are looked for beside it.
const JavaWorkerEnv = "WIREBENCH_JAVA_WORKER"

// javaWorkerJarDir is where `make java` builds the JVM worker's jars, from the
// repository root.
const javaWorkerJarDir = "workers/java/target"

// JavaWorkerJarName is the file name of the jar that runs the JVM stacks of family
// ("" for the main jar: the Java stacks and today's Scala ones).
func JavaWorkerJarName(family string) string {
	if family == "" {
		return "wirebench-worker.jar"
	}
	return "wirebench-worker-" + family + ".jar"
}

// javaWorkerJar finds the jar that runs family's stacks: for the main jar
// Options.JavaWorker, then $WIREBENCH_JAVA_WORKER, then the build's place beside the
// binary's bin/ directory or under the current one; another family's jar is looked for
// in the same places, under its own name beside the main jar.
func javaWorkerJar(opt Options, family string) (string, error) {
	name := JavaWorkerJarName(family)
	sibling := func(main string) string {
		if main == "" {
			return ""
		}
		return filepath.Join(filepath.Dir(main), name)
	}
	cands := []string{sibling(opt.JavaWorker), sibling(os.Getenv(JavaWorkerEnv))}
	if opt.Binary != "" {
		cands = append(cands, filepath.Join(filepath.Dir(opt.Binary), "..", javaWorkerJarDir, name))
	}
	cands = append(cands, filepath.Join(javaWorkerJarDir, name))
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("the JVM worker is not built (no %s): run `make java` (needs a JDK 17 and Maven), or set %s", filepath.Join(javaWorkerJarDir, name), JavaWorkerEnv)
}

// RustWorkerEnv names the environment variable that points at the Rust worker's binary.
const RustWorkerEnv = "WIREBENCH_RUST_WORKER"

// RustWorkerPath is where `make rust` builds the Rust worker, from the repository root.
const RustWorkerPath = "workers/rust/target/release/wirebench-worker"

// rustWorkerBinary finds the Rust worker: $WIREBENCH_RUST_WORKER, then the build's
// place beside the binary's bin/ directory or under the current one.
func rustWorkerBinary(opt Options) (string, error) {
	cands := []string{os.Getenv(RustWorkerEnv)}
	if opt.Binary != "" {
		cands = append(cands, filepath.Join(filepath.Dir(opt.Binary), "..", RustWorkerPath))
	}
	cands = append(cands, RustWorkerPath)
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("the Rust worker is not built (no %s): run `make rust` (needs cargo), or set %s", RustWorkerPath, RustWorkerEnv)
}

// startWorker spawns a worker of kind, pinned to cpus, in the namespace of ns (the
// driver's own for the zero End).
func startWorker(ctx context.Context, role string, st *protocol.Stack, opt Options, dir, name string, cpus []int, ns nspair.End) (*worker, error) {
	sock := filepath.Join(dir, name+".sock")
	profile := ""
	if opt.ProfileDir != "" {
		profile = filepath.Join(opt.ProfileDir, name)
	}
	argv, err := workerCommand(st, opt, sock, profile, cpus)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", role, err)
	}
	timeout := opt.StartTimeout
	if st.Worker == protocol.WorkerJava {
		timeout *= 3 // a JVM takes a few seconds to start on a busy machine
	}
	proc, err := startProcess(ctx, role, nspair.Exec(ns, argv), cpus, timeout)
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient("unix://"+sock, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		proc.kill()
		return nil, proc.failure(err)
	}
	w := &worker{role: role, proc: proc, conn: conn, client: controlpb.NewWorkerClient(conn)}
	if profile != "" && st.Worker == protocol.WorkerJava {
		w.grace = 30 * time.Second
	}
	return w, nil
}

// close ends the driver's use of the worker: a spawned one is asked to quit, then
// made sure of; a remote one only loses its connection (which ends its streams).
func (w *worker) close() {
	if w.proc != nil && !w.proc.dead() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		w.client.Quit(ctx, &controlpb.QuitRequest{})
		cancel()
	}
	w.conn.Close()
	if w.proc != nil {
		grace := w.grace
		if grace == 0 {
			grace = 2 * time.Second
		}
		w.proc.stop(grace)
	}
}

// explain turns an RPC error into the reason the worker gives, or, when a spawned
// worker died, what its exit and stderr say; a remote worker that went away is
// named with its URL.
func (w *worker) explain(err error) error {
	if w.proc != nil {
		select {
		case <-w.proc.exited:
		case <-time.After(300 * time.Millisecond):
		}
		if w.proc.dead() {
			return w.proc.failure(nil)
		}
	}
	s, ok := status.FromError(err)
	switch {
	case !ok:
		return fmt.Errorf("%s: %w", w.name(), err)
	case w.url != "" && s.Code() == codes.Unavailable:
		return fmt.Errorf("%s: lost the connection (did the worker or its host stop?): %s", w.name(), s.Message())
	case w.url != "" && s.Code() == codes.Unauthenticated:
		return fmt.Errorf("%s: refused the driver: %s", w.name(), s.Message())
	}
	return fmt.Errorf("%s: %s", w.role, s.Message())
}

// target is one benchmark's running server and load generators: the server
// listening, every client worker connected and checked against the contract, all
// idle between phases. Its workers (processes, or remote workers reached) outlive
// its session: a fork of a batch (RunBatch) opens a session on them for each
// workload in turn, so that a JVM warms up once per fork. Owned by one goroutine.
type target struct {
	res       control.Resolved
	srv       *worker
	srvStream controlpb.Worker_RunServerClient
	clis      []*clientWorker
	// ctx and cancel are the workers' (the control connections'); session and
	// endSession the open session's streams.
	ctx        context.Context
	cancel     context.CancelFunc
	session    context.Context
	endSession context.CancelFunc
	// sessions counts the sessions opened, which name their benchmark sockets.
	sessions int
	// id names the target's workers (index in the group, fork).
	id string
	// link is whether the clients call through a link process.
	link bool
	// addr is the address the clients call (the server's, or --target's).
	addr string
	// tls is what the server and clients use over the "tls" and "quic" transports;
	// zero otherwise.
	tls transport.TLS
}

// clientWorker is one of a target's load generators and its RunClient stream.
type clientWorker struct {
	*worker
	stream controlpb.Worker_RunClientClient
}

// startTarget starts (or reaches) the workers of res for trial trial, as the idx-th
// target of its group, opens its session and returns once every client is Ready.
func startTarget(ctx context.Context, res control.Resolved, opt Options, dir string, trial, idx int) (*target, error) {
	t, err := spawnTarget(ctx, res, opt, dir, trial, idx)
	if err != nil {
		return nil, err
	}
	if err := t.open(res, opt, dir); err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// spawnTarget starts (or reaches) the workers of res for trial trial, as the idx-th
// target of its group, without a session: the server worker, and every client
// worker (with the link feature when res calls through a link). The workers run the
// stacks of res; a session of another benchmark on them (open) must have the same
// stacks, transport and placement (spec.Spec.WorkersKey).
func spawnTarget(ctx context.Context, res control.Resolved, opt Options, dir string, trial, idx int) (_ *target, err error) {
	ctx, cancel := context.WithCancel(ctx)
	t := &target{res: res, ctx: ctx, cancel: cancel, id: fmt.Sprintf("%d-%d", idx, trial)}
	defer func() {
		if err != nil {
			t.close()
		}
	}()
	h := opt.Hosts
	if err := checkSpec(h, res); err != nil {
		return nil, err
	}
	if res.HasServer() {
		if h.Server != "" {
			t.srv, _, err = dialWorker(ctx, "server worker", h.Server, h.Auth)
		} else {
			cpus, _ := res.Spec.Pinning()
			t.srv, err = startWorker(ctx, "server worker", res.Server, opt.withJVMArgs(res.Spec.JVMArgs), dir, "server-"+t.id, cpus, pairEnd(opt.pair, true))
		}
		if err != nil {
			return nil, err
		}
	}
	n := h.ClientCount()
	t.link = linkSetup(h, res) != nil
	for i := range n {
		c, err := openClient(ctx, res, opt, dir, t.id, i, n, t.link)
		if err != nil {
			return nil, err
		}
		t.clis = append(t.clis, c)
	}
	return t, nil
}

// open opens a session of res on the target's workers: the server set up and
// listening, every client connected, checked against the contract and Ready.
func (t *target) open(res control.Resolved, opt Options, dir string) (err error) {
	t.res = res
	t.session, t.endSession = context.WithCancel(t.ctx)
	t.sessions++
	ctx, h := t.session, opt.Hosts
	bm := control.BenchmarkMessage(res)
	addr := res.Spec.Target
	t.tls = transport.TLS{}
	if res.Spec.Secure() {
		t.tls = opt.TLS
		if !res.HasServer() && len(t.tls.CAPEM) == 0 {
			return errors.New("a target over TLS needs the CA that signed its certificate (--tls-bench-ca)")
		}
	}
	if res.HasServer() {
		sock := "bench-" + t.id
		if t.sessions > 1 {
			sock += fmt.Sprintf("-%d", t.sessions)
		}
		if addr, err = t.startServer(ctx, opt, filepath.Join(dir, sock+".sock"), bm); err != nil {
			return err
		}
	}
	t.addr = addr
	lk := linkSetup(h, res)
	n := len(t.clis)
	for i, c := range t.clis {
		if c.stream, err = c.client.RunClient(ctx); err != nil {
			return c.explain(err)
		}
		if err = c.stream.Send(&controlpb.ClientArgs{Arg: &controlpb.ClientArgs_Setup{Setup: &controlpb.ClientSetup{
			Benchmark: bm, Target: addr, ShareIndex: int32(i), ShareCount: int32(n), Link: lk,
			TlsCaPem: t.tls.CAPEM, TlsServerName: t.tls.ServerName}}}); err != nil {
			return c.explain(err)
		}
	}
	// The clients connect and check the target at once; their answers are read in turn.
	for _, c := range t.clis {
		st, err := c.stream.Recv()
		if err != nil {
			return c.recvError(ctx, err)
		}
		if st.GetReady() == nil {
			return fmt.Errorf("%s: answered its setup with %T instead of Ready", c.name(), st.Status)
		}
	}
	return nil
}

// sessionEnd bounds how long the workers may take to end a session: to stop the
// server and close the clients' connections.
const sessionEnd = 30 * time.Second

// closeSession ends the open session and waits until every worker has ended it (its
// clients closed, its server stopped), so that the next session meets workers with
// nothing of this one still running. An error means a worker did not end it cleanly:
// the target's workers should not be trusted with another session.
func (t *target) closeSession() error {
	if t.endSession == nil {
		return nil
	}
	timer := time.AfterFunc(sessionEnd, t.endSession)
	defer timer.Stop()
	var errs []error
	for _, c := range t.clis {
		if c.stream == nil {
			continue
		}
		if err := drain(c.stream.CloseSend, func() error { _, err := c.stream.Recv(); return err }); err != nil {
			errs = append(errs, fmt.Errorf("%s: ending its session: %w", c.name(), c.explain(err)))
		}
		c.stream = nil
	}
	if t.srvStream != nil {
		if err := drain(t.srvStream.CloseSend, func() error { _, err := t.srvStream.Recv(); return err }); err != nil {
			errs = append(errs, fmt.Errorf("%s: ending its session: %w", t.srv.name(), t.srv.explain(err)))
		}
		t.srvStream = nil
	}
	t.endSession()
	t.endSession = nil
	return errors.Join(errs...)
}

// drain half-closes a stream and reads it to its end: nil when the worker ended it
// cleanly (io.EOF after any messages still on their way).
func drain(closeSend func() error, recv func() error) error {
	if err := closeSend(); err != nil {
		return err
	}
	for {
		err := recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// startServer sets up the server of the target's session on its server worker,
// listening at sock for the unix transport, and returns the address it listens on.
func (t *target) startServer(ctx context.Context, opt Options, sock string, bm *controlpb.Benchmark) (string, error) {
	h, s := opt.Hosts, t.res.Spec
	listen, err := serverListen(h, t.res, opt.pair, sock)
	if err != nil {
		return "", err
	}
	if s.Secure() && len(t.tls.CertPEM) == 0 {
		if t.tls, err = ephemeralTLS(listen); err != nil {
			return "", err
		}
	}
	if t.srvStream, err = t.srv.client.RunServer(ctx); err != nil {
		return "", t.srv.explain(err)
	}
	if err = t.srvStream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Setup{Setup: &controlpb.ServerSetup{
		Benchmark: bm, Listen: listen, TlsCertPem: t.tls.CertPEM, TlsKeyPem: t.tls.KeyPEM}}}); err != nil {
		return "", t.srv.explain(err)
	}
	st, err := t.srvStream.Recv()
	if err != nil {
		return "", t.srv.explain(err)
	}
	return st.Address, nil
}

// openClient starts or reaches client worker i of n; with link, it must implement
// ClientSetup.link (a worker that does not would ignore the field).
func openClient(ctx context.Context, res control.Resolved, opt Options, dir, id string, i, n int, link bool) (*clientWorker, error) {
	h := opt.Hosts
	role := clientRole(i, n, "client worker")
	var w *worker
	var info *controlpb.InfoReply
	var err error
	if len(h.Clients) > 0 {
		w, info, err = dialWorker(ctx, role, h.Clients[i], h.Auth)
	} else {
		name := "client-" + id
		if n > 1 {
			name += fmt.Sprintf("-%d", i)
		}
		_, cpus := res.Spec.Pinning()
		w, err = startWorker(ctx, role, res.Client, opt.withJVMArgs(res.Spec.JVMArgs), dir, name, cpus, pairEnd(opt.pair, false))
		if err == nil && link {
			if info, err = w.client.Info(ctx, &controlpb.InfoRequest{}); err != nil {
				err = w.explain(err)
			}
		}
	}
	if err != nil {
		if w != nil {
			w.close()
		}
		return nil, err
	}
	c := &clientWorker{worker: w}
	if link && !slices.Contains(info.GetFeatures(), "link") {
		c.close()
		return nil, fmt.Errorf("%s (%s): does not implement links (no \"link\" among its features)", c.name(), info.GetRuntime())
	}
	return c, nil
}

func (c *clientWorker) recvError(ctx context.Context, err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: ended the run without an answer", c.name())
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return c.explain(err)
}

// mark reads the server worker (nil without one).
func (t *target) mark() (*results.ProcReading, error) {
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
	r := control.ProcReading(st.GetProc())
	return &r, nil
}

// phase runs one phase on every client worker at once and returns their merged
// interval (mergeIntervals), with the server's CPU over it.
func (t *target) phase(ctx context.Context, ph *controlpb.Phase) (iv *results.Interval, err error) {
	// A remote host that goes silent (no reset, no answer) must not hang the run: a
	// timed phase has until its length, the call timeout and phaseSlack to be
	// answered, then the target's streams are cancelled.
	if d := time.Duration(ph.DurationNanos); d > 0 {
		limit := d + t.res.Spec.CallTimeout + phaseSlack
		var silent atomic.Bool
		timer := time.AfterFunc(limit, func() { silent.Store(true); t.endSession() })
		defer func() {
			if !timer.Stop() && silent.Load() && err != nil {
				err = fmt.Errorf("no answer to %s %d within %v (a worker or its host went silent): %w", ph.Kind, ph.Index+1, limit, err)
			}
		}()
	}
	// The server's CPU is read just before the phase as well as after it: between
	// phases (other targets' slices, when interleaved) an idle server may still burn
	// CPU of its own (a JVM's JIT and GC threads, a runtime's idle workers), which is
	// not the cost of this phase's calls. Read from the end of the target's previous
	// phase instead, an http4s server pinned to one CPU shows 1.23–1.30 CPUs a slice.
	before, err := t.mark()
	if err != nil {
		return nil, err
	}
	for _, c := range t.clis {
		if err := c.stream.Send(&controlpb.ClientArgs{Arg: &controlpb.ClientArgs_Phase{Phase: ph}}); err != nil {
			return nil, c.recvError(ctx, err)
		}
	}
	parts := make([]*results.Interval, len(t.clis))
	errs := make([]error, len(t.clis))
	var wg sync.WaitGroup
	for i, c := range t.clis {
		wg.Go(func() { parts[i], errs[i] = c.interval(ctx, ph) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	iv = results.Merge(parts)
	if t.srvStream != nil {
		now, err := t.mark()
		if err != nil {
			return nil, err
		}
		iv.Server, iv.ServerCPU = now, now.CPU-before.CPU
	}
	return iv, nil
}

// interval receives the client's answer to phase ph.
func (c *clientWorker) interval(ctx context.Context, ph *controlpb.Phase) (*results.Interval, error) {
	st, err := c.stream.Recv()
	if err != nil {
		return nil, c.recvError(ctx, err)
	}
	iv, err := control.DecodeInterval(st.GetInterval())
	if err != nil {
		return nil, fmt.Errorf("%s sent a bad interval: %w", c.name(), err)
	}
	if iv.Phase != ph.Kind || iv.Index != int(ph.Index) {
		return nil, fmt.Errorf("%s answered phase %s %d with %s %d", c.name(), ph.Kind, ph.Index, iv.Phase, iv.Index)
	}
	return iv, nil
}

// phaseSlack is what a timed phase may take beyond its length and the call timeout
// before the driver gives up on its answer: the calls in flight finish within the
// call timeout, and encoding and sending the interval take milliseconds.
const phaseSlack = 30 * time.Second

// pids are the processes the driver spawned for t: its server worker's and its
// client workers' (remote workers have none here).
func (t *target) pids() []int {
	var out []int
	ws := []*worker{t.srv}
	for _, c := range t.clis {
		ws = append(ws, c.worker)
	}
	for _, w := range ws {
		if w != nil && w.proc != nil && w.proc.cmd.Process != nil {
			out = append(out, w.proc.cmd.Process.Pid)
		}
	}
	return out
}

// close stops every worker: the clients first, so no call meets a closed server.
func (t *target) close() {
	if t.endSession != nil {
		t.endSession()
	}
	t.cancel()
	for _, c := range t.clis {
		c.close()
	}
	if t.srv != nil {
		t.srv.close()
	}
}

// ephemeralTLS makes a certificate for a server listening on listen (a tcp:// or
// udp:// address), valid for its host too when it is not a loopback one.
func ephemeralTLS(listen string) (transport.TLS, error) {
	var hosts []string
	if a, err := transport.Parse(listen); err == nil {
		if host, _, err := net.SplitHostPort(a.Address); err == nil {
			hosts = append(hosts, host)
		}
	}
	tc, err := transport.EphemeralTLS(hosts...)
	if err != nil {
		return transport.TLS{}, fmt.Errorf("making the server's TLS certificate: %w", err)
	}
	return tc, nil
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
	if s.w, err = startWorker(ctx, "server worker", res.Server, opt.withJVMArgs(res.Spec.JVMArgs), dir, "server", cpus, nspair.End{}); err != nil {
		return fail(err)
	}
	s.Done = s.w.proc.exited
	stream, err := s.w.client.RunServer(ctx)
	if err != nil {
		return fail(s.w.explain(err))
	}
	setup := &controlpb.ServerSetup{Benchmark: control.BenchmarkMessage(res), Listen: listen}
	if res.Spec.Secure() {
		if len(opt.TLS.CertPEM) == 0 {
			return fail(errors.New("serving over TLS needs the server's certificate (Options.TLS)"))
		}
		setup.TlsCertPem, setup.TlsKeyPem = opt.TLS.CertPEM, opt.TLS.KeyPEM
	}
	if err := stream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Setup{Setup: setup}}); err != nil {
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
