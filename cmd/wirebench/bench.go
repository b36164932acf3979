package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/conform"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
	"github.com/wirebench/wirebench/suite"
)

// targetFlags say what is measured and where: the protocol and its stacks, the
// workload, the processes and the output; bench and capacity share them. The flags
// of the benchmark settings (warmup, CPUs, data set, ...) are made from the table
// spec.Settings (settingFlags), with spec.Default's values as their defaults, so a
// command and a suite given the same values build the same spec.
type targetFlags struct {
	Protocol    string `short:"p" help:"${help_protocol}"`
	ServerStack string `help:"${help_server_stack}"`
	ClientStack string `help:"${help_client_stack}"`
	Transport   string `default:"${transport}" enum:"tcp,unix,tls,quic" help:"${help_transport}"`
	Address     string `short:"a" help:"${help_address}"`
	Workload    string `short:"w" default:"${workload}" help:"${help_workload}"`

	Payload    *units.Size `help:"${help_payload}"`
	Increments *int        `help:"${help_increments}"`
	Trades     *int64      `help:"${help_trades}"`
	Trade      string      `enum:"${trade_shapes}" default:"${trade}" help:"${help_trade}"`

	// The load flags' names and help are spec.LoadKeys' (TestLoadFlags).
	Connections int    `default:"${connections}" help:"${connections_help}"`
	Arrival     string `help:"${arrival_help}"`

	// Settings are the flags of the benchmark settings (settingFlags), which the
	// command's constructor (newCLI) makes before kong reads the flags.
	Settings kong.Plugins `embed:""`
	settings *settingFlags
	NoPin    bool `help:"Do not pin the processes to CPUs (--server-cpus and --client-cpus are then not read)."`

	Option       []string `help:"${help_option}"`
	ServerOption []string `help:"${help_server_option}"`
	JSON         string   `placeholder:"FILE" help:"Also write the results as JSON to this file; - writes them to standard output (and the table to standard error)."`
	Quiet        bool     `short:"q" help:"No progress lines on stderr."`
	Profile      string   `help:"Profile the server and client worker processes into this directory: a CPU profile (pprof) of a Go worker, a JFR recording and GC log of a JVM worker."`
	MetricsAddr  string   `name:"metrics-addr" placeholder:"HOST:PORT" help:"Serve the running benchmark's throughput, latency histogram and errors for Prometheus at http://HOST:PORT/metrics (docs/history.md)."`
	hostFlags
	recordFlags
	benchTLSFlags
	outsideFlags
	formerAddress
	// addressNote is the note of a former name of --address, said with the settings'
	// (start); "" when --address was given as such.
	addressNote string
}

// readAddress reads --address from its former name (--target), when that was given,
// keeping the note that says so; once read, it is --address.
func (c *targetFlags) readAddress() error {
	addr, note, err := c.formerAddress.address(c.Address, false)
	if err != nil {
		return err
	}
	if note != "" {
		c.Address, c.formerAddress.Target, c.addressNote = addr, "", note
	}
	return nil
}

type benchCmd struct {
	targetFlags
	Out         string   `short:"o" placeholder:"DIR" help:"Keep the run's journal and reports (results.json, report.md, report.html) in this directory, as run does (default: none kept)."`
	Concurrency int      `short:"c" default:"${concurrency}" help:"${concurrency_help}"`
	Rate        *float64 `short:"r" help:"${rates_help}"`
}

// specVars are the kong variables of flags outside settingFlags that read a
// setting's default or help (serve's data set and message bound, call's and
// conform's call timeout): KEY and KEY_help for each setting of spec.Settings,
// spec.Default's transport, workload and load (and a capacity search's cap on calls
// in flight, spec.DefaultCapacitySpec's), KEY_help of each load key (spec.LoadKeys),
// help_FLAG of each other suite key's flag (keyTables), and the stream workload's
// trade shapes and default.
func specVars() map[string]string {
	d := spec.Default()
	v := map[string]string{
		"transport": d.Transport, "workload": d.Workload,
		"concurrency": strconv.Itoa(d.Load.Concurrency), "connections": strconv.Itoa(d.Load.Connections),
		"capacity_concurrency": strconv.Itoa(spec.DefaultCapacitySpec().Load.Concurrency),
		"trade":                contract.TradeCompact, "trade_shapes": strings.Join(contract.TradeShapes, ","),
	}
	for _, k := range spec.LoadKeys {
		v[k.Key+"_help"] = k.Help
	}
	// The flags of the suite's other keys: help_FLAG, the flag's name with
	// underscores (TestKeyFlags).
	for _, table := range keyTables {
		for _, k := range table {
			if k.Flag != "" {
				v[keyHelpVar(k)] = k.Help
			}
		}
	}
	for _, st := range spec.Settings {
		v[st.Key], v[st.Key+"_help"] = st.Format(st.Get(d)), st.Help
	}
	return v
}

// keyTables are the tables of the suite keys that are not settings and have flags
// of bench (and run: the workers block and link) whose help they hold.
var keyTables = [][]spec.Key{spec.FileKeys, spec.TargetKeys, spec.OutsideKeys, spec.WorkloadKeys, spec.WorkersKeys}

// keyHelpVar is the kong variable of k's flag's help.
func keyHelpVar(k spec.Key) string { return "help_" + strings.ReplaceAll(k.Flag, "-", "_") }

// spec builds the benchmark from the flags and checks it as a worker will
// (control.Resolve): a wrong value is a usage error naming the flag's setting.
func (c *benchCmd) spec() (control.Resolved, error) {
	m := load.Model{Kind: load.Closed, Concurrency: c.Concurrency, Connections: c.Connections, Arrival: load.Arrival(c.Arrival)}
	if c.Rate != nil { // --rate=0 is an open model's rate, which Normalize refuses as a suite's
		m.Kind, m.Rate = load.Open, *c.Rate
	}
	return c.targetFlags.resolve(m, func(*spec.Spec) {})
}

// resolve builds the spec of the target flags under load model m, lets plan set the
// command's own settings, and checks it as a worker will (control.Resolve): a wrong
// value is a usage error naming the flag's setting. A lone benchmark has no group to
// interleave with, so it is measured sequentially.
func (c *targetFlags) resolve(m load.Model, plan func(*spec.Spec)) (control.Resolved, error) {
	if err := c.readAddress(); err != nil {
		return control.Resolved{}, err
	}
	w, err := contract.LookupWorkload(c.Workload)
	if c.call != nil {
		w, err = contract.CallWorkload, nil // an outside call runs its own workload
	}
	if err != nil {
		return control.Resolved{}, usageError{err}
	}
	s := spec.Default()
	s.Protocol, s.ServerStack, s.ClientStack, s.Transport, s.Address = c.Protocol, c.ServerStack, c.ClientStack, c.Transport, c.Address
	s.Call = c.call
	if c.TLS || c.Transport == spec.TLS {
		switch c.Transport {
		case spec.Unix:
			return control.Resolved{}, usagef("--tls is for tcp, not --transport unix")
		case spec.TCP, spec.TLS:
			s.Transport = spec.TLS
		} // quic carries TLS 1.3 always
	}
	s.Workload, s.Params = w.Name, w.DefaultParams()
	for _, p := range []struct {
		flag, use string
		set       bool
	}{{"--payload", "payload", c.Payload != nil}, {"--increments", "increments", c.Increments != nil}, {"--trades", "trades", c.Trades != nil}} {
		if err := w.Takes(p.use); p.set && err != nil {
			return control.Resolved{}, usagef("%s: %v", p.flag, err)
		}
	}
	if c.Payload != nil {
		s.Params.Payload = int(*c.Payload)
	}
	if c.Increments != nil {
		s.Params.Increments = *c.Increments
	}
	if c.Trades != nil {
		s.Params.Trades = *c.Trades
	}
	if c.Trade == contract.TradeOriginal {
		s.Params.Trade = c.Trade
	}
	if s.Load, err = m.Normalize(); err != nil {
		return control.Resolved{}, usageError{err}
	}
	if err := c.settings.apply(&s, c.pinned()); err != nil {
		return control.Resolved{}, err
	}
	if err := c.outsideFlags.messageFiles(&s); err != nil {
		return control.Resolved{}, err
	}
	s.Method = spec.MethodSequential
	if s.ClientOptions, err = keyValues("--option", c.Option); err != nil {
		return control.Resolved{}, err
	}
	if s.ServerOptions, err = keyValues("--server-option", c.ServerOption); err != nil {
		return control.Resolved{}, err
	}
	if !c.pinned() {
		s.ServerCPUs, s.ClientCPUs = nil, nil
	}
	for _, cpu := range append(slices.Clone(s.ServerCPUs), s.ClientCPUs...) {
		if cpu >= runtime.NumCPU() {
			return control.Resolved{}, usagef("CPU %d does not exist here (CPUs 0-%d)", cpu, runtime.NumCPU()-1)
		}
	}
	plan(&s)
	res, err := control.Resolve(s)
	if err != nil {
		return control.Resolved{}, usageError{flagError(err)}
	}
	return res, nil
}

// flagError names the flag behind a spec setting's error, e.g. "--rounds: 0,
// want 1 to 1000000".
func flagError(err error) error {
	var se *spec.Error
	if !errors.As(err, &se) {
		return err
	}
	flag := map[string]string{"load": "--concurrency, --connections or --rate", "params": "the workload's parameters"}[se.Setting]
	if flag == "" {
		flag = flagOf(se.Setting)
	}
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

// pinned reports whether the workers are pinned to the CPUs of the flags: not with
// --no-pin, nor on a machine of one CPU (start says which).
func (c *targetFlags) pinned() bool { return !c.NoPin && runtime.NumCPU() >= 2 }

func (c *benchCmd) Run(e *env, kctx *kong.Context) error {
	if err := c.prepareOutside(e.ctx); err != nil {
		return err
	}
	res, err := c.spec()
	if err != nil {
		return err
	}
	if err := checkTarget(e.ctx, res.Spec); err != nil {
		return err
	}
	hosts, err := c.hostFlags.over(spec.Hosts{})
	if err != nil {
		return err
	}
	if m := missingWorkers([]spec.Spec{res.Spec}, hosts, launchOptions()); m != "" {
		return usagef("cannot start the benchmark's workers, so nothing was measured:\n  %s", m)
	}
	tc, err := c.benchTLSFlags.load(res.Spec.Transport)
	if err != nil {
		return err
	}
	sp := res.Spec
	progress, err := c.start(e, fmt.Sprintf("%s: %d fork(s) × (warmup %v + %d rounds)", sp.Name(), sp.Forks, sp.Warmup, sp.Rounds))
	if err != nil {
		return err
	}
	if sp.Call != nil {
		fmt.Fprintf(progress, "wirebench: %s at %s\n", outsideSummary(sp.Call), sp.Address)
	}
	metrics, err := startMetrics(e, c.MetricsAddr)
	if err != nil {
		return err
	}
	defer metrics.stop()
	out, runErr := c.runPlanned(e, sp, hosts, tc, commandLine(kctx.Args), func(ev driver.Event) {
		metrics.observe(sp.Name(), ev)
		fmt.Fprintf(progress, "  %s\n", ev.Line())
	})
	if out == nil || len(out.Benchmarks) == 0 {
		return runErr
	}
	b := out.Benchmarks[0]
	measured := b.Summary.Ops > 0 || b.Summary.Errors > 0
	if measured {
		table := textOut(e, c.JSON)
		fmt.Fprintln(table)
		if err := report.WriteText(table, out.Benchmarks); err != nil {
			return err
		}
		if err := c.writeJSON(e, progress, out); err != nil {
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
		return fmt.Errorf("interrupted; the slices that finished are shown above")
	case runErr != nil:
		return runErr
	case b.Summary.Ops == 0:
		return fmt.Errorf("no call succeeded (%d errors)", b.Summary.Errors)
	}
	return nil
}

// runPlanned measures sp as a plan of one benchmark through the runner, as `run`
// measures a suite's: journaled fork by fork, summarized from each fork's steady
// state, reported (results.json, report.md, report.html) into --out, or a temporary
// directory removed afterwards. It returns the results, and the benchmark's failure
// or the run's interruption.
func (c *benchCmd) runPlanned(e *env, sp spec.Spec, hosts spec.Hosts, tc transport.TLS, command string, observe func(driver.Event)) (*results.Results, error) {
	dir := c.Out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "wirebench-bench-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &suite.Suite{Benchmarks: []suite.Benchmark{{Name: sp.Name(), Spec: sp}}}
	var failed error
	out, err := runner.Run(e.ctx, s, runner.Options{Dir: dir, Version: buildVersion(), Hosts: hosts, TLS: tc, KeepCut: true,
		ProfileDir: c.Profile, Command: command,
		Observe: func(ev runner.Event) {
			switch {
			case ev.Kind == runner.KindInterval && ev.Interval != nil:
				observe(*ev.Interval)
			case ev.Kind == runner.KindDone && ev.Err != nil:
				failed = ev.Err
			}
		}})
	if out == nil || out.Results == nil {
		return nil, errors.Join(err, failed)
	}
	if c.Out != "" {
		fmt.Fprintf(e.stderr, "reports: %s\n", strings.Join(reportFiles(out.Files), ", "))
	}
	return out.Results, errors.Join(err, failed)
}

// checkTarget calls Stats at the spec's outside server (--address), if any, with the
// protocol's Go client before any worker starts: when the call fails and the server
// there speaks another protocol, that is a usage error said in one line (mismatch),
// rather than a run whose every call fails or a client that waits for an answer in
// its own framing. A TLS or QUIC target, or a protocol without a Go client, is not
// checked.
func checkTarget(ctx context.Context, sp spec.Spec) error {
	if sp.Address == "" || sp.Call != nil || (sp.Transport != spec.TCP && sp.Transport != spec.Unix) {
		return nil
	}
	target, err := transport.Parse(sp.Address)
	if err != nil {
		return nil // Resolve has checked it
	}
	st, err := protocol.LookupStack(sp.Protocol, "", protocol.ClientSide)
	if err != nil || st.Worker != protocol.WorkerGo || st.QUIC {
		return nil
	}
	callCtx, cancel := context.WithTimeout(ctx, conform.IdentifyTimeout)
	defer cancel()
	cl, err := st.Dial(callCtx, protocol.ClientConfig{Address: target})
	if err == nil {
		defer cl.Close()
		_, err = cl.Stats(callCtx)
	}
	return mismatch(ctx, sp.Protocol, target, err)
}

// start says what is about to run (and how it is pinned) on the progress writer it
// returns (stderr, or nothing with --quiet), and makes the profile directory.
func (c *targetFlags) start(e *env, what string) (io.Writer, error) {
	for _, note := range c.settings.deprecated() {
		fmt.Fprintf(e.stderr, "wirebench: %s\n", note)
	}
	if c.addressNote != "" {
		fmt.Fprintf(e.stderr, "wirebench: %s\n", c.addressNote)
	}
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
func (c *targetFlags) writeJSON(e *env, progress io.Writer, res *results.Results) error {
	if c.JSON == "" {
		return nil
	}
	if err := writeOutput(e, c.JSON, res.Write); err != nil {
		return err
	}
	if c.JSON != stdoutPath {
		fmt.Fprintf(progress, "wirebench: results written to %s\n", c.JSON)
	}
	return nil
}

// stdoutPath is the path an output flag takes for standard output, as in ghz, k6
// and hyperfine.
const stdoutPath = "-"

// writeOutput writes what write writes into the file path names, or to standard
// output when path is "-".
func writeOutput(e *env, path string, write func(io.Writer) error) error {
	if path == stdoutPath {
		return write(e.stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// textOut is where a command prints its text for people: standard output, or
// standard error when one of its output flags (paths) sends a file to standard
// output, so that what a pipe reads is that file alone.
func textOut(e *env, paths ...string) io.Writer {
	if slices.Contains(paths, stdoutPath) {
		return e.stderr
	}
	return e.stdout
}
