package driver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/workers/go"
	"github.com/wirebench/wirebench/workers/go/engine"
	"github.com/wirebench/wirebench/workers/go/sysstat"
)

// MeasureOneProcess measures a comparison group the way a Go program that compares
// protocols from its main function does (rpcecho's pkg/main.go): in this process, with
// no worker. Per fork it starts every target's server here (a fresh server and
// service per target, on a Unix socket or a loopback port), checks each against the
// contract once, then measures lines: a line is one slice (spec.Spec.SliceOps
// ops, or SliceTime) made by a client opened for it alone and closed after it,
// so every line pays what a fresh client pays on its first calls (HTTP/1.1 dials its
// connection on the first call, inside the line; grpc-go and capnp-go connect before
// it, as their clients do when made). The warm-up, when the spec has one, is a line
// of its own that is not measured. With the interleaved method the lines go in
// rounds (Rounds), one line of every target a round; otherwise a target's lines are
// back to back. Nothing is pinned: client and servers share this process's CPUs, and
// an interval's client CPU is the whole process's (servers included), its server
// CPU unknown.
//
// Its benchmarks must have Go stacks on both sides, no TLS, no outside target, and
// opt.Hosts must place nothing (suite.readProcess says so when a suite is read). A
// benchmark that fails does not stop the others; when ctx ends, every result not
// finished carries ctx's error.
func MeasureOneProcess(ctx context.Context, specs []spec.Spec, opt Options) []*results.Measured {
	measured := make([]*results.Measured, len(specs))
	method := spec.MethodSequential
	if len(specs) > 1 && interleaved(specs) {
		method = spec.MethodInterleaved
	}
	iso := ""
	if method == spec.MethodInterleaved {
		iso = OneProcessIsolation
	}
	for i := range measured {
		measured[i] = &results.Measured{Method: method, Isolation: iso}
	}
	rs, ok := resolveOneProcess(specs, opt.Hosts, measured)
	if !ok {
		return measured
	}
	all := [][]*results.Measured{measured}
	proc, err := sysstat.Self()
	if err != nil {
		failAll(all, fmt.Errorf("reading this process's statistics: %w", err))
		return measured
	}
	dir, err := os.MkdirTemp(opt.TempDir, "wb-one-")
	if err != nil {
		failAll(all, err)
		return measured
	}
	defer os.RemoveAll(dir)
	f := &oneFork{rs: rs, opt: opt, proc: proc, dir: dir, method: method, out: measured}
	for fork := opt.FirstFork; fork < opt.FirstFork+rs[0].Spec.Forks && ctx.Err() == nil; fork++ {
		f.run(ctx, fork)
		if opt.ForkDone != nil && ctx.Err() == nil {
			opt.ForkDone(forksOf(measured, fork))
		}
	}
	if ctx.Err() != nil {
		failAll(all, ctx.Err())
	}
	return measured
}

// resolveOneProcess resolves specs and checks that each can run in this process,
// setting the error of those that cannot on measured; ok says all can.
func resolveOneProcess(specs []spec.Spec, h spec.Hosts, measured []*results.Measured) (rs []control.Resolved, ok bool) {
	rs = make([]control.Resolved, len(specs))
	ok = true
	for i, s := range specs {
		r, err := control.Resolve(s)
		if err == nil {
			err = oneProcessRefusal(r, h)
		}
		if err != nil {
			measured[i].Err, ok = err, false
		}
		rs[i] = r
	}
	return rs, ok
}

// forksOf is the forks of index fork in measured, by target (those that ran it).
func forksOf(measured []*results.Measured, fork int) map[int]*results.Fork {
	forks := map[int]*results.Fork{}
	for i, m := range measured {
		if n := len(m.Forks); n > 0 && m.Forks[n-1].Index == fork {
			forks[i] = m.Forks[n-1]
		}
	}
	return forks
}

// OneProcessIsolation is what results record of an interleaved group measured in one
// process (results.Benchmark.Isolation): nothing is frozen, since every target lives
// in the process that measures; between its lines a target's server sits idle there.
const OneProcessIsolation = "none: one process holds every target; the others' servers are idle during a line, not frozen"

// oneProcessRefusal says why r cannot be measured in this process, or nil.
func oneProcessRefusal(r control.Resolved, h spec.Hosts) error {
	switch {
	case h.Server != "" || len(h.Clients) > 0 || h.LocalClients > 1 || h.Netns || !h.Link.IsZero():
		return errors.New("one process: workers and a link place worker processes; one process has none")
	case r.Spec.Address != "":
		return errors.New("one process: it serves its own targets, not an outside one")
	case r.Spec.Secure():
		return fmt.Errorf("one process: transport %s needs certificates, which one process does not make", r.Spec.Transport)
	}
	for _, st := range []*protocol.Stack{r.Server, r.Client} {
		if st.Worker != protocol.WorkerGo {
			return fmt.Errorf("one process: %s stack %s runs in the %s worker; one process holds Go stacks only", st.Protocol, st.Name, st.Worker)
		}
	}
	return nil
}

// oneTarget is one target's server in this process: where its clients dial, and
// what its Serve returned once it stopped (nil for an in-process protocol).
type oneTarget struct {
	res    control.Resolved
	addr   string
	srv    protocol.Server
	served <-chan error // nil once its Serve has returned, or without a server
}

// listenFunc opens a server's listener: transport.Listen (tests count what it accepts).
type listenFunc func(transport.Addr) (net.Listener, error)

// startOneTarget starts r's server here on a listener from listen (none for an
// in-process protocol) and checks it against the contract with a client of its own.
func startOneTarget(ctx context.Context, r control.Resolved, unixPath string, listen listenFunc) (*oneTarget, error) {
	t := &oneTarget{res: r}
	if !r.Protocol.InProcess {
		where, err := serverListen(spec.Hosts{}, r, nil, unixPath)
		if err != nil {
			return nil, err
		}
		a, err := transport.Parse(where)
		if err != nil {
			return nil, err
		}
		ds, err := contract.NewDataset(r.Spec.DataSeed, r.Spec.DataSize)
		if err != nil {
			return nil, err
		}
		if t.srv, err = r.Server.NewServer(contract.NewReference(ds), protocol.ServerConfig{
			MaxMessageSize: r.Spec.MaxMessageSize, Options: r.Spec.ServerOptions, Message: r.Spec.MessageType()}); err != nil {
			return nil, err
		}
		ln, err := listen(a)
		if err != nil {
			t.srv.Close()
			return nil, err
		}
		served := make(chan error, 1)
		go func() { served <- t.srv.Serve(ln) }()
		t.addr, t.served = transport.AddrOf(ln.Addr()).String(), served
	}
	run, err := t.client(ctx)
	if err != nil {
		t.close()
		return nil, err
	}
	defer run.Close()
	if err := run.Check(ctx, r.Spec.CallTimeout); err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// client opens the clients of one line: fresh ones, as the original opened a client
// for each line it printed. An HTTP client opens no probe connection: its first call
// dials, inside the line.
func (t *oneTarget) client(ctx context.Context) (*worker.Generator, error) {
	run, err := worker.NewGenerator(ctx, t.res, t.addr, transport.TLS{}, 0, 1, true)
	if err != nil {
		return nil, errors.New(status.Convert(err).Message()) // no gRPC status here: no control API is involved
	}
	return run, nil
}

// stopped says why the server stopped, or nil while it serves.
func (t *oneTarget) stopped() error {
	select {
	case err := <-t.served:
		t.served = nil // its Serve has returned: close waits for nothing
		return fmt.Errorf("%s server stopped: %v", t.res.Server.Name, err)
	default:
		return nil
	}
}

func (t *oneTarget) close() {
	if t.srv != nil {
		t.srv.Close()
	}
	if t.served != nil {
		<-t.served
		t.served = nil
	}
}

// line measures one phase of t with a fresh client: the engine's phase of ph's ops
// (or time), with the process's CPU and the client's bytes around it.
func (t *oneTarget) line(ctx context.Context, proc *sysstat.Proc, ph engine.Phase, index int) (*results.Interval, error) {
	if err := t.stopped(); err != nil {
		return nil, err
	}
	s := t.res.Spec
	run, err := t.client(ctx)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	sess, err := engine.Start(ctx, engine.Config{Op: run.Op, Clients: run.Services, Model: run.Model,
		CallTimeout: s.CallTimeout, Seed: s.ArrivalSeed})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	ps := engine.PhaseSpec{Duration: s.SliceTime, Ops: s.SliceOps, RestartSchedule: true}
	if ph == engine.Warmup {
		ps = engine.PhaseSpec{Duration: s.Warmup, RestartSchedule: true}
	}
	sent, recv := run.Counter.Sent(), run.Counter.Received()
	before, err := proc.Read()
	if err != nil {
		return nil, err
	}
	rec, err := sess.Phase(ps)
	if err != nil {
		return nil, err
	}
	after, err := proc.Read()
	if err != nil {
		return nil, err
	}
	return &results.Interval{Phase: string(ph), Index: index, Interval: rec,
		BytesSent: run.Counter.Sent() - sent, BytesReceived: run.Counter.Received() - recv,
		ClientCPU: after.CPU - before.CPU, ClientCPUs: worker.CPUs()}, nil
}

// oneFork runs the forks of a group in this process (MeasureOneProcess).
type oneFork struct {
	rs     []control.Resolved
	opt    Options
	proc   *sysstat.Proc
	dir    string
	method string
	out    []*results.Measured
	// of the fork in progress, by target:
	fork    int
	forks   []*results.Fork
	targets []*oneTarget
}

// run runs one fork: every server started, each target's warm-up line, then the
// measured lines, in rounds or target after target.
func (f *oneFork) run(ctx context.Context, fork int) {
	f.fork, f.forks, f.targets = fork, make([]*results.Fork, len(f.rs)), make([]*oneTarget, len(f.rs))
	defer func() {
		for _, t := range f.targets {
			if t != nil {
				t.close()
			}
		}
	}()
	for i := range f.rs {
		f.start(ctx, i)
	}
	for i := range f.rs {
		f.warmUp(ctx, i)
	}
	rounds := f.rs[0].Spec.Rounds
	if f.method == spec.MethodInterleaved {
		for round, order := range Rounds(len(f.rs), rounds, f.opt.Seed, uint64(fork)) {
			for _, i := range order {
				f.measure(ctx, i, round)
			}
		}
		return
	}
	for i := range f.rs {
		for k := range rounds {
			f.measure(ctx, i, k)
		}
	}
}

// fail records target i's failure in this fork and stops its server.
func (f *oneFork) fail(i int, err error) {
	f.forks[i].Err = err
	if f.out[i].Err == nil {
		f.out[i].Err = err
	}
	if f.targets[i] != nil {
		f.targets[i].close()
		f.targets[i] = nil
	}
}

// start starts target i's server, unless it failed in an earlier fork.
func (f *oneFork) start(ctx context.Context, i int) {
	f.forks[i] = &results.Fork{Index: f.fork}
	if f.out[i].Err != nil {
		return // failed in an earlier fork: later ones would fail the same way
	}
	f.out[i].Forks = append(f.out[i].Forks, f.forks[i])
	sock := filepath.Join(f.dir, "bench-"+strconv.Itoa(f.fork)+"-"+strconv.Itoa(i)+".sock")
	t, err := startOneTarget(ctx, f.rs[i], sock, transport.Listen)
	if err != nil {
		f.fail(i, where(f.fork, "start", err))
		return
	}
	f.targets[i] = t
}

// warmUp runs target i's warm-up line, when its spec has one.
func (f *oneFork) warmUp(ctx context.Context, i int) {
	t := f.targets[i]
	if t == nil || f.rs[i].Spec.Warmup <= 0 {
		return
	}
	iv, err := t.line(ctx, f.proc, engine.Warmup, 0)
	if err != nil {
		f.fail(i, where(f.fork, "warmup", err))
		return
	}
	f.forks[i].Warmup = iv
	f.opt.observe(i, f.fork, iv)
}

// measure runs target i's measured line of the given index.
func (f *oneFork) measure(ctx context.Context, i, index int) {
	t := f.targets[i]
	if t == nil || ctx.Err() != nil {
		return
	}
	iv, err := t.line(ctx, f.proc, engine.Measure, index)
	if err != nil {
		f.fail(i, where(f.fork, fmt.Sprintf("line %d", index+1), err))
		return
	}
	f.forks[i].Intervals = append(f.forks[i].Intervals, iv)
	f.opt.observe(i, f.fork, iv)
}
