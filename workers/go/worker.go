// Package worker is what `wirebench worker` serves: the control API (controlpb) of
// the Go worker, which hosts a protocol server (RunServer) or a load generator
// (RunClient) of the stacks compiled into this binary, paces the generator's garbage
// collector, and runs a link proxy beside a generator behind a link. It knows the
// driver only through the control API: a benchmark arrives as a control message
// (control.SpecOf) and is checked as the driver checked it (control.Resolve).
package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/host"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/workers/go/engine"
	"github.com/wirebench/wirebench/workers/go/sysstat"
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

// New returns a worker reporting version. Quit closes Done.
func New(version string) (*Worker, error) {
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

func (w *Worker) procStats() (*controlpb.ProcStats, error) {
	s, err := w.proc.Read()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "reading process statistics: %v", err)
	}
	return &controlpb.ProcStats{TimeUnixNanos: s.Time.UnixNano(), CpuNanos: int64(s.CPU),
		RssBytes: s.RSS, PeakRssBytes: s.PeakRSS, Cpus: int32(CPUs())}, nil
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
		TLS: transport.TLS{CertPEM: setup.TlsCertPem, KeyPEM: setup.TlsKeyPem}, Message: r.Spec.MessageType()})
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
	call, err := control.CallOf(b)
	if err != nil {
		return control.Resolved{}, status.Error(codes.InvalidArgument, err.Error())
	}
	s.Call = call
	msgs, err := control.MessagesOf(b)
	if err != nil {
		return control.Resolved{}, status.Error(codes.InvalidArgument, err.Error())
	}
	s.Params.Messages = msgs
	s.ServerCPUs, s.ClientCPUs = nil, nil // the driver pins; a worker never does
	// Nor does a worker shape or freeze: the driver's settings, at their defaults so
	// that the spec validates.
	s.Shape, s.Isolation, s.Workers = spec.ShapeSplit, spec.IsolationFreeze, spec.WorkersPerFork
	if side == protocol.ClientSide && b.Protocol != "" {
		s.Address = "" // the setup's address is checked by the client itself
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

// RunClient connects to the setup's address with the setup's client stack, checks it
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
	target := setup.Address
	var lp *linkProc
	if setup.Link != nil && !r.Protocol.InProcess {
		if lp, target, err = startLink(ctx, setup.Address, setup.Link); err != nil {
			return status.Error(codes.InvalidArgument, err.Error())
		}
		defer lp.close()
	}
	if (len(setup.TlsCaPem) > 0) != r.Spec.Secure() {
		return status.Errorf(codes.InvalidArgument, "RunClient: transport %s with a TLS CA of %d bytes: the tls and quic transports need one, the others none", r.Spec.Transport, len(setup.TlsCaPem))
	}
	tc := transport.TLS{CAPEM: setup.TlsCaPem, ServerName: setup.TlsServerName}
	run, err := NewGenerator(ctx, r, target, tc, share, count, false)
	if err != nil {
		return err
	}
	defer run.Close()
	if err := run.Check(ctx, r.Spec.CallTimeout); err != nil {
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	sess, err := engine.Start(ctx, engine.Config{Op: run.Op, Clients: run.Services, Model: run.Model,
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
		sent, recv := run.Counter.Sent(), run.Counter.Received()
		msg.BytesSent, msg.BytesReceived, lastSent, lastRecv = sent-lastSent, recv-lastRecv, sent, recv
		if err := stream.Send(&controlpb.ClientStatus{Status: &controlpb.ClientStatus_Interval{Interval: msg}}); err != nil {
			return err
		}
	}
}
