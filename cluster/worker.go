// Package cluster runs benchmarks across processes: the worker, which hosts a protocol
// server or a load generator and is controlled over gRPC (controlpb), and the driver,
// which starts workers pinned to CPU sets, runs trials on them and collects what they
// measured. A local run and a multi-host run are the same code path.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/engine"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/host"
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/sysstat"
	"github.com/wirebench/wirebench/transport"
)

// Worker serves the control API. Each RunServer or RunClient stream is independent;
// a worker started by the driver gets one of each at most. Safe for concurrent use.
type Worker struct {
	controlpb.UnimplementedWorkerServer
	version string
	proc    *sysstat.Proc
	quit    chan struct{}
	once    sync.Once
}

// NewWorker returns a worker reporting version. Quit closes Done.
func NewWorker(version string) (*Worker, error) {
	p, err := sysstat.Self()
	if err != nil {
		return nil, fmt.Errorf("worker: reading own process statistics: %w", err)
	}
	return &Worker{version: version, proc: p, quit: make(chan struct{})}, nil
}

// Done is closed when a driver asked the worker to quit.
func (w *Worker) Done() <-chan struct{} { return w.quit }

// Register adds the worker's service to s.
func (w *Worker) Register(s *grpc.Server) { controlpb.RegisterWorkerServer(s, w) }

func (w *Worker) Info(ctx context.Context, _ *controlpb.InfoRequest) (*controlpb.InfoReply, error) {
	var stacks []string
	for _, p := range protocol.All() {
		for _, s := range protocol.Stacks(p.Name) {
			if s.Worker == protocol.WorkerGo {
				stacks = append(stacks, p.Name+"/"+s.Name)
			}
		}
	}
	h := host.ReadHost()
	name, _ := os.Hostname()
	cpus := cpuset.Affinity()
	return &controlpb.InfoReply{Version: w.version, Stacks: stacks, Cpus: int32(len(cpus)), Runtime: runtime.Version(),
		Pid: int32(w.proc.PID()), Host: &controlpb.Host{Hostname: name, CpuModel: h.CPUModel, Cores: int32(h.Cores),
			MemoryBytes: h.MemoryBytes, Kernel: h.Kernel, Os: h.OS, Cpus: cpuset.FormatCPUList(cpus)},
		Features: []string{"link"}}, nil
}

func (w *Worker) Quit(ctx context.Context, _ *controlpb.QuitRequest) (*controlpb.QuitReply, error) {
	w.once.Do(func() { close(w.quit) })
	return &controlpb.QuitReply{}, nil
}

func cpus() int {
	n, err := cpuset.CPUs(0)
	if err != nil {
		return runtime.NumCPU()
	}
	return n
}

func (w *Worker) procStats() (*controlpb.ProcStats, error) {
	s, err := w.proc.Read()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "reading process statistics: %v", err)
	}
	return &controlpb.ProcStats{TimeUnixNanos: s.Time.UnixNano(), CpuNanos: int64(s.CPU),
		RssBytes: s.RSS, PeakRssBytes: s.PeakRSS, Cpus: int32(cpus())}, nil
}

// RunServer serves the reference service with the setup's server stack until the
// stream ends, answering each mark with the process's statistics.
func (w *Worker) RunServer(stream controlpb.Worker_RunServerServer) error {
	in, err := stream.Recv()
	if err != nil {
		return err
	}
	setup := in.GetSetup()
	if setup == nil {
		return status.Error(codes.InvalidArgument, "RunServer: the first message must be a setup")
	}
	r, err := w.resolve(setup.GetBenchmark(), protocol.ServerSide)
	if err != nil {
		return err
	}
	if r.Protocol.InProcess {
		return status.Errorf(codes.InvalidArgument, "%s is in-process and has no server", r.Protocol.Name)
	}
	ds, err := contract.NewDataset(r.Spec.DataSeed, r.Spec.DataSize)
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	addr, err := transport.Parse(setup.Listen)
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	if (len(setup.TlsCertPem) > 0) != r.Spec.Secure() {
		return status.Errorf(codes.InvalidArgument, "RunServer: transport %s with a TLS certificate of %d bytes: the tls and quic transports need one, the others none", r.Spec.Transport, len(setup.TlsCertPem))
	}
	srv, err := r.Server.NewServer(contract.NewReference(ds), protocol.ServerConfig{
		MaxMessageSize: r.Spec.MaxMessageSize, Options: r.Spec.ServerOptions,
		TLS: transport.TLS{CertPEM: setup.TlsCertPem, KeyPEM: setup.TlsKeyPem}})
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	bound, served, err := protocol.ServeAt(srv, addr)
	if err != nil {
		srv.Close()
		return status.Error(codes.Unavailable, err.Error())
	}
	defer func() {
		srv.Close()
		<-served
	}()
	send := func(address string) error {
		ps, err := w.procStats()
		if err != nil {
			return err
		}
		return stream.Send(&controlpb.ServerStatus{Address: address, Proc: ps})
	}
	if err := send(bound.String()); err != nil {
		return err
	}
	for {
		in, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if in.GetMark() == nil {
			return status.Error(codes.InvalidArgument, "RunServer: want a mark")
		}
		select {
		case err := <-served:
			return status.Errorf(codes.Internal, "%s server stopped: %v", r.Server.Name, err)
		default:
		}
		if err := send(""); err != nil {
			return err
		}
	}
}

// resolve checks a setup's benchmark once, and that this worker runs the stack of
// its side.
func (w *Worker) resolve(b *controlpb.Benchmark, side protocol.Side) (control.Resolved, error) {
	if b == nil {
		return control.Resolved{}, status.Error(codes.InvalidArgument, "setup without a benchmark")
	}
	s := control.SpecOf(b)
	s.ServerCPUs, s.ClientCPUs = nil, nil // the driver pins; a worker never does
	// Nor does a worker shape or freeze: the driver's settings, at their defaults so
	// that the spec validates.
	s.Shape, s.Isolation, s.Workers = spec.ShapeSplit, spec.IsolationFreeze, spec.WorkersPerFork
	if side == protocol.ClientSide && b.Protocol != "" {
		s.Target = "" // the setup's target is checked by the client itself
	}
	r, err := control.Resolve(s)
	if err != nil {
		return control.Resolved{}, status.Error(codes.InvalidArgument, err.Error())
	}
	st := r.Server
	if side == protocol.ClientSide {
		st = r.Client
	}
	if st.Worker != protocol.WorkerGo {
		return control.Resolved{}, status.Errorf(codes.InvalidArgument, "%s stack %s runs in the %s worker, not in this one", st.Protocol, st.Name, st.Worker)
	}
	return r, nil
}

// RunClient connects to the setup's target with the setup's client stack, checks it
// against the contract, answers Ready, then runs each phase the driver asks for and
// answers it with its interval.
func (w *Worker) RunClient(stream controlpb.Worker_RunClientServer) error {
	in, err := stream.Recv()
	if err != nil {
		return err
	}
	setup := in.GetSetup()
	if setup == nil {
		return status.Error(codes.InvalidArgument, "RunClient: the first message must be a setup")
	}
	r, err := w.resolve(setup.GetBenchmark(), protocol.ClientSide)
	if err != nil {
		return err
	}
	share, count := int(setup.ShareIndex), max(int(setup.ShareCount), 1)
	if share < 0 || share >= count {
		return status.Errorf(codes.InvalidArgument, "share %d of %d", share, count)
	}
	ctx := stream.Context()
	target := setup.Target
	var lp *linkProc
	if setup.Link != nil && !r.Protocol.InProcess {
		if lp, target, err = startLink(ctx, setup.Target, setup.Link); err != nil {
			return status.Error(codes.InvalidArgument, err.Error())
		}
		defer lp.close()
	}
	if (len(setup.TlsCaPem) > 0) != r.Spec.Secure() {
		return status.Errorf(codes.InvalidArgument, "RunClient: transport %s with a TLS CA of %d bytes: the tls and quic transports need one, the others none", r.Spec.Transport, len(setup.TlsCaPem))
	}
	tc := transport.TLS{CAPEM: setup.TlsCaPem, ServerName: setup.TlsServerName}
	run, err := newClientRun(ctx, r, target, tc, share, count, false)
	if err != nil {
		return err
	}
	defer run.close()
	if err := run.check(ctx, r.Spec.CallTimeout); err != nil {
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	sess, err := engine.Start(ctx, engine.Config{Op: run.op, Clients: run.services, Model: run.model,
		CallTimeout: r.Spec.CallTimeout, Seed: r.Spec.ArrivalSeed + uint64(share),
		SeqOffset: uint64(share), SeqStride: uint64(count)})
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	defer sess.Close()
	defer paceGC()()
	ready, err := w.procStats()
	if err != nil {
		return err
	}
	if err := stream.Send(&controlpb.ClientStatus{Status: &controlpb.ClientStatus_Ready{Ready: &controlpb.Ready{Proc: ready}}}); err != nil {
		return err
	}
	var lastSent, lastRecv int64
	for {
		in, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		ph := in.GetPhase()
		if ph == nil {
			return status.Error(codes.InvalidArgument, "RunClient: want a phase")
		}
		// The phase's CPU is read around the phase alone: encoding its histograms
		// and waiting for the next phase (the other targets' slices, when
		// interleaved) are not the load's cost per op.
		before, err := w.procStats()
		if err != nil {
			return err
		}
		if lp != nil {
			if _, err := lp.phaseCPU(); err != nil {
				return status.Error(codes.Internal, err.Error())
			}
		}
		iv, err := sess.Phase(engine.PhaseSpec{Duration: time.Duration(ph.DurationNanos), Ops: ph.Ops,
			RestartSchedule: ph.RestartSchedule, Rate: ph.Rate / float64(count)})
		if err != nil {
			if ctx.Err() != nil {
				return status.FromContextError(ctx.Err()).Err()
			}
			return status.Error(codes.InvalidArgument, err.Error())
		}
		after, err := w.procStats()
		if err != nil {
			return err
		}
		var linkCPU time.Duration
		if lp != nil {
			if linkCPU, err = lp.phaseCPU(); err != nil {
				return status.Error(codes.Internal, err.Error())
			}
		}
		repaceGC()
		msg, err := control.IntervalMessage(ph, iv)
		if err != nil {
			return status.Error(codes.Internal, err.Error())
		}
		msg.CpuNanos, msg.Proc, msg.LinkCpuNanos = after.CpuNanos-before.CpuNanos, after, int64(linkCPU)
		sent, recv := run.counter.Sent(), run.counter.Received()
		msg.BytesSent, msg.BytesReceived, lastSent, lastRecv = sent-lastSent, recv-lastRecv, sent, recv
		if err := stream.Send(&controlpb.ClientStatus{Status: &controlpb.ClientStatus_Interval{Interval: msg}}); err != nil {
			return err
		}
	}
}

// minHeapGoal is the heap size the load generator lets the garbage collector wait
// for before a cycle (see paceGC).
const minHeapGoal = 128 << 20

// paceGC makes the load generator collect garbage rarely, and returns the function
// that undoes it. The collector starts a cycle when the heap has grown by GOGC % of
// what was live after the last one; a generator's live heap is a few MiB while it
// allocates on every call (grpc-go about 1.5 KiB), so at the default it collected
// every few milliseconds, about a fifth of the client's CPU on grpc-proto. paceGC
// raises GOGC so that the heap may reach minHeapGoal between cycles (at most 21 ×
// the live heap, never less than twice it, the default), and adjusts it at each
// phase end as the live heap changes. The cost is memory: a client worker's RSS is
// about 125 MiB instead of 33. A GOGC set in the environment is left alone.
func paceGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	runtime.GC() // before measuring: the live heap of the set-up generator, in a few ms
	old := debug.SetGCPercent(gcPercentFor(liveHeap()))
	return func() { debug.SetGCPercent(old) }
}

// repaceGC adjusts GOGC to the live heap, if paceGC set it.
func repaceGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercentFor(liveHeap()))
	}
}

func gcPercentFor(live uint64) int {
	if live == 0 {
		return 100
	}
	return int(min(max(minHeapGoal*100/live, 100), 2000))
}

// liveHeap is the heap marked live by the last cycle (0 when unknown).
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// clientRun is a load generator's clients and op.
type clientRun struct {
	clients  []protocol.Client
	services []contract.Service
	op       contract.Op
	model    load.Model
	counter  transport.Counter
}

// newClientRun opens a load generator's clients of target. noProbe is
// protocol.ClientConfig.NoProbe: a client that would check its target with a
// connection of its own does not (its first call dials).
func newClientRun(ctx context.Context, res control.Resolved, target string, tc transport.TLS, share, count int, noProbe bool) (*clientRun, error) {
	bad := func(err error) error { return status.Error(codes.InvalidArgument, err.Error()) }
	s := res.Spec
	w, err := contract.LookupWorkload(s.Workload)
	if err != nil {
		return nil, bad(err)
	}
	ds, err := contract.NewDataset(s.DataSeed, s.DataSize)
	if err != nil {
		return nil, bad(err)
	}
	op, err := w.New(s.Params, ds)
	if err != nil {
		return nil, bad(err)
	}
	model, err := s.Load.Normalize()
	if err == nil {
		model, err = load.Share(model, share, count)
	}
	if err != nil {
		return nil, bad(err)
	}
	r := &clientRun{op: op, model: model}
	cfg := protocol.ClientConfig{MaxMessageSize: s.MaxMessageSize, Options: s.ClientOptions, TLS: tc, NoProbe: noProbe,
		// Callers are dealt to the clients round-robin, so none carries more than this.
		Concurrency: (model.Concurrency + model.Connections - 1) / model.Connections}
	if res.Protocol.InProcess {
		cfg.Local = contract.NewReference(ds)
	} else {
		if cfg.Target, err = transport.Parse(target); err != nil {
			return nil, bad(fmt.Errorf("target: %w", err))
		}
		if cfg.Target.Network == "udp" {
			cfg.Packet = transport.PacketListener(&r.counter)
		} else {
			cfg.Dial = transport.Dialer(cfg.Target, &r.counter)
		}
	}
	for range model.Connections {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		c, err := res.Client.NewClient(dctx, cfg)
		cancel()
		if err != nil {
			r.close()
			return nil, status.Errorf(codes.Unavailable, "connecting to %s over %s with %s: %v", target, res.Protocol.Name, res.Client.Name, err)
		}
		r.clients = append(r.clients, c)
		r.services = append(r.services, c)
	}
	if w.NewConnection {
		// The clients above showed the target answers; each op now opens (and closes)
		// a client of its own.
		r.close()
		r.clients = nil
		for i := range r.services {
			r.services[i] = protocol.PerCall(res.Client, cfg)
		}
	}
	return r, nil
}

// check runs the workload's op once on every client with its answers verified, so a
// target that does less than the contract asks fails before anything is measured.
// checkTimeout bounds each op of the contract check: a cold server's first answers may
// take long, so it is not the run's call timeout unless that is longer.
const checkTimeout = 30 * time.Second

func (r *clientRun) check(ctx context.Context, callTimeout time.Duration) error {
	limit := max(checkTimeout, callTimeout)
	for i, c := range r.services {
		cctx, cancel := context.WithTimeout(ctx, limit)
		err := r.op(cctx, c, uint64(i))
		cancel()
		switch {
		case err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded):
			return fmt.Errorf("the target failed the contract check (connection %d): no answer within %v: %w", i+1, limit, err)
		case err != nil:
			return fmt.Errorf("the target failed the contract check (connection %d): %w", i+1, err)
		}
	}
	return nil
}

func (r *clientRun) close() {
	for _, c := range r.clients {
		c.Close()
	}
}
