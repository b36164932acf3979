package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/cluster"
	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/summary"
)

// targetFlags say what is measured and where: the protocol and its stacks, the
// workload, the processes and the output; bench and capacity share them. Their
// defaults are spec.Default's, through the kong variables of specVars, so a command
// and a suite given the same values build the same spec.
type targetFlags struct {
	Protocol    string `short:"p" required:"" help:"Protocol to benchmark (see 'wirebench list')."`
	ServerStack string `help:"Server stack (default: the protocol's production stack; see 'wirebench list')."`
	ClientStack string `help:"Client stack (default: the protocol's production stack; see 'wirebench list')."`
	Transport   string `default:"${transport}" enum:"tcp,unix,quic" help:"Transport between client and server: tcp (loopback), unix, or quic (UDP with TLS 1.3, for HTTP/3 stacks only)."`
	Target      string `help:"Load this running server (ours or anyone's that speaks the contract) instead of starting one: tcp://HOST:PORT, unix:///PATH, or udp://HOST:PORT (HTTP/3)."`
	Workload    string `short:"w" default:"${workload}" help:"Workload to run (see 'wirebench list')."`

	Payload    *units.Size `help:"echo, echo+stats: payload size (e.g. 11B, 1KiB, 100KiB)."`
	Increments *int        `help:"pingpong: sequential increments per op."`
	Trades     *int64      `help:"stream: trades streamed per op."`

	Connections int    `default:"${connections}" help:"Clients the calls are spread over (a gRPC or Cap'n Proto client is one connection; HTTP/1.1 opens one per call in flight)."`
	Arrival     string `default:"constant" enum:"constant,poisson" help:"Open model: arrival spacing, constant or poisson."`

	Warmup      time.Duration `default:"${warmup}" help:"Warmup before measuring (0 for none)."`
	WarmupMax   time.Duration `name:"warmup-max" help:"Make the warmup adaptive: after --warmup, go on in 1s slices until the last 3 agree with the 3 before within 5%, for at most this long."`
	CallTimeout time.Duration `default:"${call_timeout}" help:"A call taking longer fails as a timeout."`

	ServerCPUs string `name:"server-cpus" default:"${server_cpus}" help:"CPUs of the server process (Linux list, e.g. 0 or 0-1)."`
	ClientCPUs string `name:"client-cpus" default:"${client_cpus}" help:"CPUs of the load generator process."`
	NoPin      bool   `help:"Do not pin the processes to CPUs."`

	Option       []string   `help:"Client stack option KEY=VALUE (repeatable); any option makes the client's tier tuned."`
	ServerOption []string   `help:"Server stack option KEY=VALUE (repeatable); any option makes the server's tier tuned."`
	MaxMessage   units.Size `name:"max-message-size" default:"${max_message_size}" help:"Largest message either side accepts."`
	JVMArgs      string     `name:"jvm-args" help:"JVM options of JVM workers, after the defaults (e.g. \"-Xms2G -Xmx2G\"; docs/java-worker.md)."`
	ArrivalSeed  uint64     `default:"${arrival_seed}" help:"Seed of Poisson arrivals."`
	JSON         string     `help:"Also write the results as JSON to this file."`
	Quiet        bool       `short:"q" help:"No progress lines on stderr."`
	Profile      string     `help:"Profile the server and client worker processes into this directory: a CPU profile (pprof) of a Go worker, a JFR recording and GC log of a JVM worker."`
	MetricsAddr  string     `name:"metrics-addr" placeholder:"HOST:PORT" help:"Serve the running benchmark's throughput, latency histogram and errors for Prometheus at http://HOST:PORT/metrics (docs/history.md)."`
	dataFlags
	hostFlags
	recordFlags
	benchTLSFlags
}

type benchCmd struct {
	targetFlags
	Concurrency int     `short:"c" default:"${concurrency}" help:"Closed model: calls in flight. Open model: the cap on calls in flight."`
	Rate        float64 `short:"r" help:"Open model: arrivals per second (switches from the closed model)."`

	Duration   time.Duration `short:"d" default:"${duration}" help:"Length of each measurement iteration."`
	Ops        int64         `help:"Make each iteration this many ops instead of --duration long."`
	Iterations int           `short:"i" default:"${iterations}" help:"Measurement iterations per trial."`
	Trials     int           `short:"t" default:"${trials}" help:"Trials, each with fresh server and client processes."`
	Mode       string        `default:"${mode}" enum:"thrpt,avgt" help:"Score: thrpt (ops/s) or avgt (ms per op per caller)."`
}

// specVars are the kong variables the flags' defaults read: spec.Default's values.
func specVars() map[string]string {
	d := spec.Default()
	return map[string]string{
		"transport": d.Transport, "workload": d.Workload,
		"concurrency": strconv.Itoa(d.Load.Concurrency), "connections": strconv.Itoa(d.Load.Connections),
		"duration": d.IterationTime.String(), "warmup": d.Warmup.String(), "iterations": strconv.Itoa(d.Iterations),
		"trials": strconv.Itoa(d.Trials), "mode": d.Mode, "call_timeout": d.CallTimeout.String(),
		"server_cpus": cpuset.FormatCPUList(d.ServerCPUs), "client_cpus": cpuset.FormatCPUList(d.ClientCPUs),
		"max_message_size": units.Size(d.MaxMessageSize).String(), "arrival_seed": strconv.FormatUint(d.ArrivalSeed, 10),
		"data_size": strconv.Itoa(d.DataSize), "data_seed": strconv.FormatUint(d.DataSeed, 10),
	}
}

// spec builds the benchmark from the flags and checks it as a worker will
// (cluster.Resolve): a wrong value is a usage error naming the flag's setting.
func (c *benchCmd) spec() (cluster.Resolved, error) {
	m := load.Model{Kind: load.Closed, Concurrency: c.Concurrency, Connections: c.Connections}
	if c.Rate != 0 {
		m = load.Model{Kind: load.Open, Rate: c.Rate, Arrival: load.Arrival(c.Arrival), Concurrency: c.Concurrency, Connections: c.Connections}
	}
	return c.targetFlags.resolve(m, func(s *spec.Spec) {
		s.Iterations, s.Trials, s.Mode = c.Iterations, c.Trials, c.Mode
		s.IterationTime, s.IterationOps = c.Duration, 0
		if c.Ops > 0 {
			s.IterationTime, s.IterationOps = 0, c.Ops
		}
	})
}

// resolve builds the spec of the target flags under load model m, lets plan set the
// command's own settings, and checks it as a worker will (cluster.Resolve): a wrong
// value is a usage error naming the flag's setting. A lone benchmark has no group to
// interleave with, so it is measured sequentially.
func (c *targetFlags) resolve(m load.Model, plan func(*spec.Spec)) (cluster.Resolved, error) {
	w, err := contract.LookupWorkload(c.Workload)
	if err != nil {
		return cluster.Resolved{}, usageError{err}
	}
	s := spec.Default()
	s.Protocol, s.ServerStack, s.ClientStack, s.Transport, s.Target = c.Protocol, c.ServerStack, c.ClientStack, c.Transport, c.Target
	if c.TLS {
		switch c.Transport {
		case spec.Unix:
			return cluster.Resolved{}, usagef("--tls is for tcp, not --transport unix")
		case spec.TCP:
			s.Transport = spec.TLS
		} // quic carries TLS 1.3 always
	}
	s.Workload, s.Params = w.Name, w.DefaultParams()
	if c.Payload != nil {
		s.Params.Payload = int(*c.Payload)
	}
	if c.Increments != nil {
		s.Params.Increments = *c.Increments
	}
	if c.Trades != nil {
		s.Params.Trades = *c.Trades
	}
	if s.Load, err = m.Normalize(); err != nil {
		return cluster.Resolved{}, usageError{err}
	}
	s.Warmup, s.WarmupMax, s.CallTimeout, s.Method = c.Warmup, c.WarmupMax, c.CallTimeout, spec.MethodSequential
	s.ArrivalSeed, s.DataSeed, s.DataSize, s.MaxMessageSize = c.ArrivalSeed, c.dataFlags.Seed, c.DataSize, int(c.MaxMessage)
	if args := strings.Fields(c.JVMArgs); len(args) > 0 {
		s.JVMArgs = args
	}
	if s.ClientOptions, err = keyValues("--option", c.Option); err != nil {
		return cluster.Resolved{}, err
	}
	if s.ServerOptions, err = keyValues("--server-option", c.ServerOption); err != nil {
		return cluster.Resolved{}, err
	}
	if s.ServerCPUs, s.ClientCPUs, err = c.pinning(); err != nil {
		return cluster.Resolved{}, err
	}
	plan(&s)
	res, err := cluster.Resolve(s)
	if err != nil {
		return cluster.Resolved{}, usageError{flagError(err)}
	}
	return res, nil
}

// flagError names the flag behind a spec setting's error, e.g. "--iterations: 0,
// want 1 to 1000000".
func flagError(err error) error {
	var se *spec.Error
	if !errors.As(err, &se) {
		return err
	}
	flag := map[string]string{"load": "--concurrency, --connections or --rate", "params": "the workload's parameters",
		"data_seed": "--seed"}[se.Setting]
	if flag == "" {
		flag = "--" + strings.ReplaceAll(se.Setting, "_", "-")
	}
	return fmt.Errorf("%s: %s", flag, se.Msg)
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

// pinning returns the CPU sets of the server and client workers, or none when
// pinning is off or impossible here (Run says which).
func (c *targetFlags) pinning() (server, client []int, err error) {
	if c.NoPin || runtime.NumCPU() < 2 {
		return nil, nil, nil
	}
	if server, err = cpuset.ParseCPUList(c.ServerCPUs); err != nil {
		return nil, nil, usagef("--server-cpus: %v", err)
	}
	if client, err = cpuset.ParseCPUList(c.ClientCPUs); err != nil {
		return nil, nil, usagef("--client-cpus: %v", err)
	}
	for _, cpu := range append(append([]int{}, server...), client...) {
		if cpu >= runtime.NumCPU() {
			return nil, nil, usagef("CPU %d does not exist here (CPUs 0-%d)", cpu, runtime.NumCPU()-1)
		}
	}
	return server, client, nil
}

func (c *benchCmd) Run(e *env) error {
	res, err := c.spec()
	if err != nil {
		return err
	}
	hosts, err := c.hostFlags.over(spec.Hosts{})
	if err != nil {
		return err
	}
	tc, err := c.benchTLSFlags.load(res.Spec.Transport)
	if err != nil {
		return err
	}
	sp := res.Spec
	progress, err := c.start(e, fmt.Sprintf("%s: %d trial(s) × (warmup %v + %d iterations)", sp.Name(), sp.Trials, sp.Warmup, sp.Iterations))
	if err != nil {
		return err
	}
	env, err := runner.Environment(e.ctx, buildVersion(), sp.ServerCPUs, sp.ClientCPUs, hosts)
	if err != nil {
		return err
	}
	metrics, err := startMetrics(e, c.MetricsAddr)
	if err != nil {
		return err
	}
	defer metrics.stop()
	trials, runErr := cluster.Run(e.ctx, sp, cluster.Options{ProfileDir: c.Profile, Hosts: hosts, TLS: tc,
		Observe: func(ev cluster.Event) {
			metrics.observe(sp.Name(), ev)
			fmt.Fprintf(progress, "  %s\n", ev.Line())
		}})
	b := summary.Benchmark(res.Benchmark(), &results.Measured{Trials: trials, Method: spec.MethodSequential, Err: runErr}, nil)
	out := &results.Results{SchemaVersion: results.SchemaVersion, Benchmarks: []results.Benchmark{b}, Environment: env}
	measured := b.Summary.Ops > 0 || b.Summary.Errors > 0
	if measured {
		fmt.Fprintln(e.stdout)
		if err := report.WriteText(e.stdout, out.Benchmarks); err != nil {
			return err
		}
	}
	if measured {
		if err := c.writeJSON(progress, out); err != nil {
			return errors.Join(runErr, err)
		}
	}
	if measured && runErr == nil && b.Summary.Ops > 0 {
		if err := c.record(e.ctx, progress, out); err != nil {
			return err
		}
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

// start says what is about to run (and how it is pinned) on the progress writer it
// returns (stderr, or nothing with --quiet), and makes the profile directory.
func (c *targetFlags) start(e *env, what string) (io.Writer, error) {
	progress := io.Writer(e.stderr)
	if c.Quiet {
		progress = io.Discard
	}
	fmt.Fprintf(progress, "wirebench: %s\n", what)
	switch {
	case c.NoPin:
		fmt.Fprintf(progress, "wirebench: not pinned (--no-pin)\n")
	case runtime.NumCPU() < 2:
		fmt.Fprintf(progress, "wirebench: not pinned: %d CPU\n", runtime.NumCPU())
	}
	if c.Profile != "" {
		if err := os.MkdirAll(c.Profile, 0o755); err != nil {
			return nil, err
		}
	}
	return progress, nil
}

// writeJSON writes the results to --json, when given, and says so.
func (c *targetFlags) writeJSON(progress io.Writer, res *results.Results) error {
	if c.JSON == "" {
		return nil
	}
	if err := writeResults(c.JSON, res); err != nil {
		return err
	}
	fmt.Fprintf(progress, "wirebench: results written to %s\n", c.JSON)
	return nil
}

func writeResults(path string, res *results.Results) error {
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
