package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/cluster/controlpb"
	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/engine"
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/record"
)

// Spec is one benchmark for the driver.
type Spec struct {
	Protocol string
	// Label, when set, tells apart benchmarks of one protocol that differ only by
	// options (e.g. "win-64KiB"); it is part of the benchmark's name and series.
	Label string
	// Transport is "tcp" or "unix" for networked protocols ("inproc" for direct).
	Transport string
	// Target, when set, is an outside server to load: no server worker is started.
	Target   string
	Workload string
	Params   contract.Params
	// ClientOptions and ServerOptions are protocol options (protocol.ClientConfig,
	// protocol.ServerConfig); each side rejects names it does not know.
	ClientOptions map[string]string
	ServerOptions map[string]string
	Model         load.Model
	Warmup        time.Duration
	Iterations    int
	IterationTime time.Duration
	IterationOps  int64
	Trials        int
	CallTimeout   time.Duration
	Seed          uint64
	DataSeed      uint64
	DataSize      int
	// MaxMessageSize bounds messages on both sides (0: the protocol default).
	MaxMessageSize int
}

// Options of a driver.
type Options struct {
	// Binary is the wirebench executable to start workers from.
	Binary string
	// ServerCPUs and ClientCPUs pin the workers (empty: not pinned).
	ServerCPUs, ClientCPUs []int
	// TempDir holds worker control sockets and unix benchmark sockets ("" for the
	// system's temp dir).
	TempDir string
	// StartTimeout bounds a worker's start (default 10 s).
	StartTimeout time.Duration
	// ProfileDir, when set, receives a CPU profile of each worker process
	// (server-N.pprof, client-N.pprof for trial N).
	ProfileDir string
	// Observe, when set, receives events as they happen (from one goroutine at a time).
	Observe func(Event)
}

// Event is progress reported by the driver.
type Event struct {
	Trial    int // 0-based
	Interval *Interval
}

// Line is the one-line progress report of an event's interval.
func (e Event) Line() string {
	iv := e.Interval
	return fmt.Sprintf("trial %d %-7s %-3d %12.1f ops/s  p99 %9.1f µs  errors %d", e.Trial+1, iv.Phase, iv.Index+1,
		iv.Throughput(), float64(iv.Resp.ValueAtQuantile(99))/1e3, iv.ErrorCount())
}

// Interval is one phase of one trial as the driver saw it.
type Interval struct {
	Phase engine.Phase
	Index int
	*record.Interval
	BytesSent, BytesReceived int64
	ClientCPU                time.Duration
	ClientCPUs               int
}

// ServerMark is a reading of the server worker.
type ServerMark struct {
	Time    time.Time
	CPU     time.Duration
	PeakRSS int64
	Calls   int64
}

// Trial is what one trial measured. A trial cut short keeps what finished.
type Trial struct {
	Index     int
	Warmup    *Interval
	Intervals []*Interval
	// ServerStart is the server's reading when measurement began (after warmup),
	// ServerEnd after the last iteration; nil without a server worker.
	ServerStart, ServerEnd *ServerMark
	FirstErrors            map[string]string
	Err                    error
}

// Run runs spec's trials, each with fresh workers, and returns every trial; a trial
// that failed carries its error and what it measured, and Run stops at the first
// failure (later trials would fail the same way) and returns it too.
func Run(ctx context.Context, spec Spec, opt Options) ([]*Trial, error) {
	if opt.StartTimeout == 0 {
		opt.StartTimeout = 10 * time.Second
	}
	if opt.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		opt.Binary = exe
	}
	p, err := protocol.Lookup(spec.Protocol)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(opt.TempDir, "wb-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var trials []*Trial
	for i := range spec.Trials {
		t := &Trial{Index: i}
		trials = append(trials, t)
		t.Err = runTrial(ctx, p, spec, opt, dir, t)
		if t.Err != nil {
			return trials, t.Err
		}
	}
	return trials, nil
}

// worker is a started worker process and its control connection.
type worker struct {
	*process
	conn   *grpc.ClientConn
	client controlpb.WorkerClient
}

func startWorker(ctx context.Context, role string, opt Options, dir string, cpus []int, n int) (*worker, error) {
	sock := filepath.Join(dir, fmt.Sprintf("%s%d.sock", role[:1], n))
	args := []string{"worker", "--listen", "unix://" + sock}
	if opt.ProfileDir != "" {
		name := strings.Fields(role)[0]
		args = append(args, "--cpu-profile", filepath.Join(opt.ProfileDir, fmt.Sprintf("%s-%d.pprof", name, n)))
	}
	proc, err := startProcess(ctx, role, opt.Binary, args, cpus, opt.StartTimeout)
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

func runTrial(ctx context.Context, p *protocol.Protocol, spec Spec, opt Options, dir string, t *Trial) error {
	target := spec.Target
	var srv *worker
	var srvStream controlpb.Worker_RunServerClient
	if !p.InProcess && target == "" {
		var err error
		if srv, err = startWorker(ctx, "server worker", opt, dir, opt.ServerCPUs, t.Index); err != nil {
			return err
		}
		defer srv.close()
		listen := "tcp://127.0.0.1:0"
		if spec.Transport == "unix" {
			listen = "unix://" + filepath.Join(dir, fmt.Sprintf("bench%d.sock", t.Index))
		}
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		if srvStream, err = srv.client.RunServer(sctx); err != nil {
			return srv.explain(err)
		}
		err = srvStream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Setup{Setup: &controlpb.ServerSetup{
			Protocol: spec.Protocol, Listen: listen, MaxMessageSize: int64(spec.MaxMessageSize),
			Options: spec.ServerOptions, DataSeed: spec.DataSeed, DataSize: int32(spec.DataSize)}}})
		if err != nil {
			return srv.explain(err)
		}
		st, err := srvStream.Recv()
		if err != nil {
			return srv.explain(err)
		}
		target = st.Address
	}
	cli, err := startWorker(ctx, "client worker", opt, dir, opt.ClientCPUs, t.Index)
	if err != nil {
		return err
	}
	defer cli.close()
	mark := func() (*ServerMark, error) {
		if srvStream == nil {
			return nil, nil
		}
		if err := srvStream.Send(&controlpb.ServerArgs{Arg: &controlpb.ServerArgs_Mark{Mark: &controlpb.Mark{}}}); err != nil {
			return nil, srv.explain(err)
		}
		st, err := srvStream.Recv()
		if err != nil {
			return nil, srv.explain(err)
		}
		return &ServerMark{Time: time.Unix(0, st.Proc.GetTimeUnixNanos()), CPU: time.Duration(st.Proc.GetCpuNanos()),
			PeakRSS: st.Proc.GetPeakRssBytes(), Calls: st.Calls}, nil
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := cli.client.RunClient(cctx)
	if err != nil {
		return cli.explain(err)
	}
	m := spec.Model
	err = stream.Send(&controlpb.ClientArgs{Arg: &controlpb.ClientArgs_Setup{Setup: &controlpb.ClientSetup{
		Protocol: spec.Protocol, Target: target, Workload: spec.Workload,
		Payload: int64(spec.Params.Payload), Increments: int64(spec.Params.Increments), Trades: spec.Params.Trades,
		Options: spec.ClientOptions,
		Load: &controlpb.LoadModel{Kind: string(m.Kind), Concurrency: int32(m.Concurrency),
			Connections: int32(m.Connections), Rate: m.Rate, Arrival: string(m.Arrival)},
		WarmupNanos: int64(spec.Warmup), Iterations: int32(spec.Iterations),
		IterationNanos: int64(spec.IterationTime), IterationOps: spec.IterationOps,
		CallTimeoutNanos: int64(spec.CallTimeout), Seed: spec.Seed + uint64(t.Index),
		DataSeed: spec.DataSeed, DataSize: int32(spec.DataSize), MaxMessageSize: int64(spec.MaxMessageSize)}}})
	if err != nil {
		return cli.explain(err)
	}
	if spec.Warmup == 0 {
		if t.ServerStart, err = mark(); err != nil {
			return err
		}
	}
	for {
		st, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("client worker ended the run without a result")
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return cli.explain(err)
		}
		if d := st.GetDone(); d != nil {
			t.FirstErrors = d.FirstErrors
			if t.ServerEnd, err = mark(); err != nil {
				return err
			}
			return nil
		}
		iv, err := decodeInterval(st.GetInterval())
		if err != nil {
			return fmt.Errorf("client worker sent a bad interval: %w", err)
		}
		if iv.Phase == engine.Warmup {
			t.Warmup = iv
			if t.ServerStart, err = mark(); err != nil {
				return err
			}
		} else {
			t.Intervals = append(t.Intervals, iv)
		}
		if opt.Observe != nil {
			opt.Observe(Event{Trial: t.Index, Interval: iv})
		}
	}
}

func decodeInterval(m *controlpb.Interval) (*Interval, error) {
	if m == nil {
		return nil, errors.New("empty status")
	}
	iv := &Interval{Phase: engine.Phase(m.Phase), Index: int(m.Index), Interval: &record.Interval{
		Start: time.Unix(0, m.StartUnixNanos), End: time.Unix(0, m.EndUnixNanos), Ops: m.Ops,
		Errors: map[record.ErrorKind]int64{}, Clamped: m.Clamped, Overflow: m.Overflow},
		BytesSent: m.BytesSent, BytesReceived: m.BytesReceived, ClientCPU: time.Duration(m.CpuNanos),
		ClientCPUs: int(m.GetProc().GetCpus())}
	for k, n := range m.Errors {
		iv.Errors[record.ErrorKind(k)] = n
	}
	var err error
	if iv.Resp, err = record.DecodeHistogram(m.ResponseHistogram); err != nil {
		return nil, err
	}
	if iv.Service, err = record.DecodeHistogram(m.ServiceHistogram); err != nil {
		return nil, err
	}
	if iv.Lag, err = record.DecodeHistogram(m.LagHistogram); err != nil {
		return nil, err
	}
	if iv.Resp == nil || iv.Service == nil {
		return nil, errors.New("interval without histograms")
	}
	return iv, nil
}
