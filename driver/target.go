package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/results"
)

// launchOptions are what opt says of the workers of a benchmark whose runtime options
// are runtimeArgs (spec.Spec.RuntimeArgs): the driver's, then the benchmark's.
func (opt Options) launchOptions(runtimeArgs []string) launch.Options {
	o := opt.Launch
	o.Binary, o.StartTimeout, o.ProfileDir = opt.Binary, opt.StartTimeout, opt.ProfileDir
	o.RuntimeArgs = append(slices.Clone(o.RuntimeArgs), runtimeArgs...)
	return o
}

// target is one benchmark's running server and load generators: the server
// listening, every client worker connected and checked against the contract, all
// idle between phases. Its workers (processes, or remote workers reached) outlive
// its session: a fork of a batch (MeasureBatch) opens a session on them for each
// workload in turn, so that a JVM warms up once per fork. Owned by one goroutine.
type target struct {
	res       control.Resolved
	srv       *launch.Worker
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
	// addr is the address the clients call (the server's, or --address's).
	addr string
	// tls is what the server and clients use over the "tls" and "quic" transports;
	// zero otherwise.
	tls transport.TLS
}

// clientWorker is one of a target's load generators and its RunClient stream.
type clientWorker struct {
	*launch.Worker
	stream controlpb.Worker_RunClientClient
}

// startTarget starts (or reaches) the workers of res for fork fork, as the idx-th
// target of its group, opens its session and returns once every client is Ready.
func startTarget(ctx context.Context, res control.Resolved, opt Options, dir string, fork, idx int) (*target, error) {
	t, err := spawnTarget(ctx, res, opt, dir, fork, idx)
	if err != nil {
		return nil, err
	}
	if err := t.open(res, opt, dir); err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// spawnTarget starts (or reaches) the workers of res for fork fork, as the idx-th
// target of its group, without a session: the server worker, and every client
// worker (with the link feature when res calls through a link). The workers run the
// stacks of res; a session of another benchmark on them (open) must have the same
// stacks, transport and placement (spec.Spec.WorkersKey).
func spawnTarget(ctx context.Context, res control.Resolved, opt Options, dir string, fork, idx int) (_ *target, err error) {
	ctx, cancel := context.WithCancel(ctx)
	t := &target{res: res, ctx: ctx, cancel: cancel, id: fmt.Sprintf("%d-%d", idx, fork)}
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
			t.srv, _, err = launch.Dial(ctx, "server worker", h.Server, h.Auth)
		} else {
			cpus, _ := res.Spec.Pinning()
			t.srv, err = launch.Start(ctx, "server worker", res.Server, opt.launchOptions(res.Spec.RuntimeArgs), dir, "server-"+t.id, cpus, launch.PairEnd(opt.pair, true))
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
	addr := res.Spec.Address
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
		if c.stream, err = c.Client.RunClient(ctx); err != nil {
			return c.Explain(err)
		}
		if err = c.stream.Send(&controlpb.ClientArgs{Arg: &controlpb.ClientArgs_Setup{Setup: &controlpb.ClientSetup{
			Benchmark: bm, Address: addr, ShareIndex: int32(i), ShareCount: int32(n), Link: lk,
			TlsCaPem: t.tls.CAPEM, TlsServerName: t.tls.ServerName}}}); err != nil {
			return c.Explain(err)
		}
	}
	// The clients connect and check the target at once; their answers are read in turn.
	for _, c := range t.clis {
		st, err := c.stream.Recv()
		if err != nil {
			return c.recvError(ctx, err)
		}
		if st.GetReady() == nil {
			return fmt.Errorf("%s: answered its setup with %T instead of Ready", c.Name(), st.Status)
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
			errs = append(errs, fmt.Errorf("%s: ending its session: %w", c.Name(), c.Explain(err)))
		}
		c.stream = nil
	}
	if t.srvStream != nil {
		if err := drain(t.srvStream.CloseSend, func() error { _, err := t.srvStream.Recv(); return err }); err != nil {
			errs = append(errs, fmt.Errorf("%s: ending its session: %w", t.srv.Name(), t.srv.Explain(err)))
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
	if t.srvStream, err = t.srv.Client.RunServer(ctx); err != nil {
		return "", t.srv.Explain(err)
	}
	if err = t.srvStream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Setup{Setup: &controlpb.ServerSetup{
		Benchmark: bm, Listen: listen, TlsCertPem: t.tls.CertPEM, TlsKeyPem: t.tls.KeyPEM}}}); err != nil {
		return "", t.srv.Explain(err)
	}
	st, err := t.srvStream.Recv()
	if err != nil {
		return "", t.srv.Explain(err)
	}
	return st.Address, nil
}

// openClient starts or reaches client worker i of n; with link, it must implement
// ClientSetup.link (a worker that does not would ignore the field).
func openClient(ctx context.Context, res control.Resolved, opt Options, dir, id string, i, n int, link bool) (*clientWorker, error) {
	h := opt.Hosts
	role := clientRole(i, n, "client worker")
	var w *launch.Worker
	var info *controlpb.InfoReply
	var err error
	if len(h.Clients) > 0 {
		w, info, err = launch.Dial(ctx, role, h.Clients[i], h.Auth)
	} else {
		name := "client-" + id
		if n > 1 {
			name += fmt.Sprintf("-%d", i)
		}
		_, cpus := res.Spec.Pinning()
		w, err = launch.Start(ctx, role, res.Client, opt.launchOptions(res.Spec.RuntimeArgs), dir, name, cpus, launch.PairEnd(opt.pair, false))
		if err == nil && link {
			if info, err = w.Client.Info(ctx, &controlpb.InfoRequest{}); err != nil {
				err = w.Explain(err)
			}
		}
	}
	if err != nil {
		if w != nil {
			w.Close()
		}
		return nil, err
	}
	c := &clientWorker{Worker: w}
	if link && !slices.Contains(info.GetFeatures(), "link") {
		c.Close()
		return nil, fmt.Errorf("%s (%s): does not implement links (no \"link\" among its features)", c.Name(), info.GetRuntime())
	}
	return c, nil
}

func (c *clientWorker) recvError(ctx context.Context, err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: ended the run without an answer", c.Name())
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return c.Explain(err)
}

// mark reads the server worker (nil without one).
func (t *target) mark() (*results.ProcReading, error) {
	if t.srvStream == nil {
		return nil, nil
	}
	if err := t.srvStream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Mark{Mark: &controlpb.Mark{}}}); err != nil {
		return nil, t.srv.Explain(err)
	}
	st, err := t.srvStream.Recv()
	if err != nil {
		return nil, t.srv.Explain(err)
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
		return nil, fmt.Errorf("%s sent a bad interval: %w", c.Name(), err)
	}
	if iv.Phase != ph.Kind || iv.Index != int(ph.Index) {
		return nil, fmt.Errorf("%s answered phase %s %d with %s %d", c.Name(), ph.Kind, ph.Index, iv.Phase, iv.Index)
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
	ws := []*launch.Worker{t.srv}
	for _, c := range t.clis {
		ws = append(ws, c.Worker)
	}
	for _, w := range ws {
		if w != nil && w.Pid() != 0 {
			out = append(out, w.Pid())
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
		c.Close()
	}
	if t.srv != nil {
		t.srv.Close()
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
