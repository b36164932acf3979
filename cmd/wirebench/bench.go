package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/wirebench/wirebench/bench"
	"github.com/wirebench/wirebench/cluster"
	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/host"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/transport"
)

type benchCmd struct {
	Protocol  string `short:"p" required:"" help:"Protocol to benchmark (see 'wirebench list')."`
	Transport string `default:"tcp" enum:"tcp,unix" help:"Transport between client and server: tcp (loopback) or unix."`
	Target    string `help:"Load this running server (ours or anyone's that speaks the contract) instead of starting one: tcp://HOST:PORT or unix:///PATH."`
	Workload  string `short:"w" default:"person.get" help:"Workload to run (see 'wirebench list')."`

	Payload    *units.Size `help:"echo, echo+stats: payload size (e.g. 11B, 1KiB, 100KiB)."`
	Increments *int        `help:"pingpong: sequential increments per op."`
	Trades     *int64      `help:"stream: trades streamed per op."`

	Concurrency int     `short:"c" default:"50" help:"Closed model: calls in flight. Open model: the cap on calls in flight."`
	Connections int     `default:"1" help:"Clients the calls are spread over (a gRPC or Cap'n Proto client is one connection; HTTP/1.1 opens one per call in flight)."`
	Rate        float64 `short:"r" help:"Open model: arrivals per second (switches from the closed model)."`
	Arrival     string  `default:"constant" enum:"constant,poisson" help:"Open model: arrival spacing, constant or poisson."`

	Duration    time.Duration `short:"d" default:"1s" help:"Length of each measurement iteration."`
	Ops         int64         `help:"Make each iteration this many ops instead of --duration long."`
	Warmup      time.Duration `default:"1s" help:"Warmup before measuring (0 for none)."`
	Iterations  int           `short:"i" default:"5" help:"Measurement iterations per trial."`
	Trials      int           `short:"t" default:"1" help:"Trials, each with fresh server and client processes."`
	Mode        string        `default:"thrpt" enum:"thrpt,avgt" help:"Score: thrpt (ops/s) or avgt (ms per op per caller)."`
	CallTimeout time.Duration `default:"10s" help:"A call taking longer fails as a timeout."`

	ServerCPUs string `name:"server-cpus" default:"0" help:"CPUs of the server process (Linux list, e.g. 0 or 0-1)."`
	ClientCPUs string `name:"client-cpus" default:"1" help:"CPUs of the load generator process."`
	NoPin      bool   `help:"Do not pin the processes to CPUs."`

	Option       []string   `help:"Client protocol option KEY=VALUE (repeatable)."`
	ServerOption []string   `help:"Server protocol option KEY=VALUE (repeatable)."`
	MaxMessage   units.Size `name:"max-message-size" default:"16MiB" help:"Largest message either side accepts."`
	ArrivalSeed  uint64     `default:"1" help:"Seed of Poisson arrivals."`
	JSON         string     `help:"Also write the results as JSON to this file."`
	Quiet        bool       `short:"q" help:"No progress lines on stderr."`
	Profile      string     `help:"Write CPU profiles (pprof) of the server and client worker processes to this directory."`
	dataFlags
}

func (c *benchCmd) spec() (cluster.Spec, error) {
	p, err := protocol.Lookup(c.Protocol)
	if err != nil {
		return cluster.Spec{}, usageError{err}
	}
	w, err := contract.LookupWorkload(c.Workload)
	if err != nil {
		return cluster.Spec{}, usageError{err}
	}
	params := w.DefaultParams()
	if c.Payload != nil {
		params.Payload = int(*c.Payload)
	}
	if c.Increments != nil {
		params.Increments = *c.Increments
	}
	if c.Trades != nil {
		params.Trades = *c.Trades
	}
	if err := w.Check(params); err != nil {
		return cluster.Spec{}, usageError{err}
	}
	m := load.Model{Kind: load.Closed, Concurrency: c.Concurrency, Connections: c.Connections}
	if c.Rate != 0 {
		m = load.Model{Kind: load.Open, Rate: c.Rate, Arrival: load.Arrival(c.Arrival), Concurrency: c.Concurrency, Connections: c.Connections}
	}
	if m, err = m.Normalize(); err != nil {
		return cluster.Spec{}, usageError{err}
	}
	spec := cluster.Spec{Protocol: p.Name, Transport: c.Transport, Target: c.Target, Workload: w.Name, Params: params,
		Model: m, Warmup: c.Warmup, Iterations: c.Iterations, Trials: c.Trials, CallTimeout: c.CallTimeout,
		Seed: c.ArrivalSeed, DataSeed: c.dataFlags.Seed, DataSize: c.DataSize, MaxMessageSize: int(c.MaxMessage)}
	switch {
	case c.Iterations < 1 || c.Trials < 1:
		return spec, usagef("--iterations and --trials must be at least 1")
	case c.Ops > 0:
		spec.IterationOps = c.Ops
	case c.Duration > 0:
		spec.IterationTime = c.Duration
	default:
		return spec, usagef("--duration must be positive (or set --ops)")
	}
	if c.Warmup < 0 || c.CallTimeout < 0 {
		return spec, usagef("--warmup and --call-timeout cannot be negative")
	}
	if p.InProcess {
		spec.Transport = "inproc"
		if c.Target != "" {
			return spec, usagef("%s is in-process: it has no server to target", p.Name)
		}
	}
	if c.Target != "" {
		a, err := transport.Parse(c.Target)
		if err != nil {
			return spec, usageError{err}
		}
		spec.Transport, spec.Target = a.Network, a.String()
	}
	if spec.ClientOptions, err = keyValues("--option", c.Option); err != nil {
		return spec, err
	}
	if spec.ServerOptions, err = keyValues("--server-option", c.ServerOption); err != nil {
		return spec, err
	}
	return spec, nil
}

func keyValues(flag string, kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usagef("%s %q: want KEY=VALUE", flag, kv)
		}
		m[k] = v
	}
	return m, nil
}

// pinning returns the CPU sets of the server and client workers, or none with a
// note when pinning is off or impossible here.
func (c *benchCmd) pinning() (server, client []int, note string, err error) {
	if c.NoPin {
		return nil, nil, "not pinned (--no-pin)", nil
	}
	if n := runtime.NumCPU(); n < 2 {
		return nil, nil, fmt.Sprintf("not pinned: %d CPU", n), nil
	}
	if server, err = cpuset.ParseCPUList(c.ServerCPUs); err != nil {
		return nil, nil, "", usagef("--server-cpus: %v", err)
	}
	if client, err = cpuset.ParseCPUList(c.ClientCPUs); err != nil {
		return nil, nil, "", usagef("--client-cpus: %v", err)
	}
	for _, cpu := range append(append([]int{}, server...), client...) {
		if cpu >= runtime.NumCPU() {
			return nil, nil, "", usagef("CPU %d does not exist here (CPUs 0-%d)", cpu, runtime.NumCPU()-1)
		}
	}
	return server, client, "", nil
}

func (c *benchCmd) Run(e *env) error {
	spec, err := c.spec()
	if err != nil {
		return err
	}
	serverCPUs, clientCPUs, note, err := c.pinning()
	if err != nil {
		return err
	}
	progress := io.Writer(e.stderr)
	if c.Quiet {
		progress = io.Discard
	}
	name := bench.Name(spec)
	fmt.Fprintf(progress, "wirebench: %s: %d trial(s) × (warmup %v + %d iterations)\n", name, spec.Trials, spec.Warmup, spec.Iterations)
	if note != "" {
		fmt.Fprintf(progress, "wirebench: %s\n", note)
	}
	if c.Profile != "" {
		if err := os.MkdirAll(c.Profile, 0o755); err != nil {
			return err
		}
	}
	started := time.Now().UTC()
	trials, runErr := cluster.Run(e.ctx, spec, cluster.Options{
		ServerCPUs: serverCPUs, ClientCPUs: clientCPUs, ProfileDir: c.Profile,
		Observe: func(ev cluster.Event) { fmt.Fprintf(progress, "  %s\n", ev.Line()) },
	})
	b := bench.Summarize(spec, c.Mode, trials)
	host := host.ReadHost()
	res := &report.Results{SchemaVersion: report.SchemaVersion, Benchmarks: []report.Benchmark{b},
		Environment: report.Environment{CPUModel: host.CPUModel, Cores: host.Cores, MemoryBytes: host.MemoryBytes,
			Kernel: host.Kernel, OS: host.OS, GoVersion: runtime.Version(), WirebenchVersion: buildVersion(),
			ServerCPUs: cpuset.FormatCPUList(serverCPUs), ClientCPUs: cpuset.FormatCPUList(clientCPUs),
			Started: started}}
	measured := b.Summary.Ops > 0 || b.Summary.Errors > 0
	if measured {
		fmt.Fprintln(e.stdout)
		if err := report.WriteText(e.stdout, res.Benchmarks); err != nil {
			return err
		}
	}
	if c.JSON != "" && measured {
		if err := writeResults(c.JSON, res); err != nil {
			return errors.Join(runErr, err)
		}
		fmt.Fprintf(progress, "wirebench: results written to %s\n", c.JSON)
	}
	switch {
	case errors.Is(runErr, context.Canceled) && e.ctx.Err() != nil:
		return fmt.Errorf("interrupted; the iterations that finished are shown above")
	case runErr != nil:
		return runErr
	case b.Summary.Ops == 0:
		return fmt.Errorf("no call succeeded (%d errors)", b.Summary.Errors)
	}
	return nil
}

func writeResults(path string, res *report.Results) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := res.Write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}
