// Command wirebench benchmarks RPC protocols side by side over one service contract.
// This file holds the command line; every subcommand is a thin layer over the packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"reflect"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"
	"google.golang.org/grpc/grpclog"

	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/results/compare"
	"github.com/wirebench/wirebench/results/stats"
	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/spec"
	_ "github.com/wirebench/wirebench/stack/all"
)

// version is set at build time with -ldflags "-X main.version=..."; otherwise it is
// taken from the module's build information.
var version = ""

// Exit codes scripts can rely on.
const (
	exitOK      = 0
	exitFailure = 1 // the command ran and failed: a call errored, a server died
	exitUsage   = 2 // the command line or a setting is wrong; nothing ran
)

type cli struct {
	VersionFlag kong.VersionFlag `name:"version" short:"v" help:"Print the version and exit."`

	Serve    serveCmd    `cmd:"" help:"Serve the benchmark service over one protocol."`
	Call     callCmd     `cmd:"" help:"Call one operation (or 'demo': every operation) of a server and print the answer as JSON."`
	Conform  conformCmd  `cmd:"" help:"Check a server of the contract: call every operation, compare every answer, print each difference; exit 1 if any."`
	Run      runCmd      `cmd:"" help:"Run a suite of benchmarks (default: quick; 'run --list' says what each bundled suite runs) in forks of interleaved rounds and write the reports."`
	Bench    benchCmd    `cmd:"" help:"Run one benchmark: start a server and a load generator in pinned worker processes, measure, and print the result."`
	Capacity capacityCmd `cmd:"" help:"Find the highest rate a target sustains within latency objectives (open loop: grow, bisect, confirm)."`
	Kube     kubeCmd     `cmd:"" help:"Run a suite on a Kubernetes cluster through kubectl: worker pods on different nodes, a driver pod, the results copied back, the namespace deleted (docs/distributed.md)."`
	Worker   workerCmd   `cmd:"" help:"Serve the worker control API: started by the driver of 'bench' and 'run', or by hand on another host (docs/distributed.md)."`
	Link     linkCmd     `cmd:"" hidden:"" help:"Proxy TCP with a delay (the link process of a client worker)."`
	List     listCmd     `cmd:"" help:"List the protocols and workloads."`
	Report   reportCmd   `cmd:"" help:"Render a results file as a table, Markdown, CSV, JSON or HTML (with charts)."`
	Compare  compareCmd  `cmd:"" help:"Compare two results files: change per benchmark, significance (benchstat's method), exit 1 on a regression."`
	History  historyCmd  `cmd:"" help:"Show the recorded results over time per benchmark, with change points (and import results into the store)."`
	Gate     gateCmd     `cmd:"" help:"Compare a run with the stored baseline of its branch: a Markdown delta table, exit 1 on a significant regression beyond a threshold."`
	Plan     planCmd     `cmd:"" help:"From a run's variance components (forks and rounds), the forks × rounds that give the narrowest interval within a budget, or a precision at the least cost (Kalibera and Jones)."`
	Version  versionCmd  `cmd:"" help:"Print the version."`
	Help     helpCmd     `cmd:"" help:"Show the help of wirebench or of a command: wirebench help [COMMAND...]."`
}

// env is what every subcommand runs with: a context cancelled on SIGINT or SIGTERM,
// and the output streams.
type env struct {
	ctx    context.Context
	stdout io.Writer
	stderr io.Writer
}

// usageError marks an error in what the user asked for (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func main() {
	// grpc-go logs connection errors at ERROR level to stderr by default; a closing
	// benchmark connection is no error of the user's, and wirebench reports the
	// errors that matter itself.
	grpclog.SetLoggerV2(grpclog.NewLoggerV2(io.Discard, io.Discard, io.Discard))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := newCLI()
	exited := -1
	parser, err := kong.New(c,
		kong.Name("wirebench"),
		kong.Description(description()),
		kong.UsageOnError(),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exited = code }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Vars(cliVars()),
		negativeNumbers(),
	)
	if err != nil {
		fmt.Fprintf(stderr, "wirebench: %v\n", err)
		return exitFailure
	}
	kctx, err := parser.Parse(args)
	if exited >= 0 { // --help, --version
		return exited
	}
	if err != nil {
		fmt.Fprintf(stderr, "wirebench: %v\n", err)
		if slices.Contains(args, "-i") && strings.HasPrefix(err.Error(), "--rounds:") {
			// ghz's -i is its .proto import paths; here -i is JMH's, the rounds.
			fmt.Fprintln(stderr, "wirebench: -i is --rounds here, as JMH's -i; ghz's -i, the import paths, is --import-paths")
		}
		return exitUsage
	}
	e := &env{ctx: ctx, stdout: stdout, stderr: stderr}
	if err := kctx.Run(e); err != nil {
		fmt.Fprintf(stderr, "wirebench %s: %v\n", strings.Fields(kctx.Command())[0], err)
		if errors.As(err, new(usageError)) {
			return exitUsage
		}
		return exitFailure
	}
	return exitOK
}

// cliVars are the variables flag defaults and help read: the operations of call,
// and spec.Default's values (specVars).
func cliVars() map[string]string {
	v := specVars()
	v["operations"] = strings.Join(operationNames(), ", ")
	v["version"] = "wirebench " + buildVersion()
	// compare's and gate's defaults, written once (compare.DefaultOptions).
	v["threshold"] = strconv.FormatFloat(compare.DefaultThreshold, 'g', -1, 64) + "%"
	v["alpha"] = strconv.FormatFloat(compare.DefaultAlpha, 'g', -1, 64)
	// history's (stats.DetectChanges') and run --precision's budget (runner's).
	v["change_alpha"] = strconv.FormatFloat(stats.DefaultChangeAlpha, 'g', -1, 64)
	v["min_runs"] = strconv.Itoa(stats.DefaultMinSegment)
	v["precision_budget"] = runner.PrecisionBudget.String()
	v["runs_dir"] = runner.RunsDir
	return v
}

// newCLI returns the command line to parse, with the flags of the benchmark settings
// made (settingFlags): bench takes every setting with a flag, capacity those its
// search does not set itself and those of the search (spec.CapacitySettings).
func newCLI() *cli {
	c := &cli{}
	// The message workload's files come from the flags an outside call shares
	// (--proto, --import-paths, --data-file: outsideFlags.messageFiles), not the table's.
	shared := []string{"message_proto", "message_import_paths", "message_data_file"}
	c.Bench.settings = newSettingFlags(shared...)
	c.Capacity.settings = newSettingFlags(append([]string{"rounds", "duration", "ops", "forks", "mode"}, shared...)...)
	c.Capacity.search = newTableFlags(spec.CapacitySettings, spec.DefaultCapacitySpec())
	c.Bench.Settings, c.Capacity.Settings = c.Bench.settings.plugin(), c.Capacity.settings.plugin()
	c.Capacity.Search = c.Capacity.search.plugin()
	return c
}

// description is the help's first paragraph: the protocols and transports of the
// registry, so it names what this build has.
func description() string {
	var names []string
	for _, p := range protocol.All() {
		if !p.InProcess {
			names = append(names, p.Name)
		}
	}
	return "Benchmark RPC protocols side by side: one service contract over " + strings.Join(names, ", ") +
		" (and direct, the in-process floor), over TCP, TLS 1.3, Unix sockets and QUIC. 'wirebench list' describes each protocol and its stacks."
}

// negativeNumbers lets a numeric flag take a negative value after a space, as it takes
// one after "=": kong reads "--rate -5" as the flag --rate followed by the short flag
// -5, and says "expected float value but got "-5" (short flag)" instead of what is
// wrong with -5. No flag is a digit, so a value that starts with "-" and a digit or a
// point is a number (or a duration, "-300ms") here.
func negativeNumbers() kong.Option {
	defaults := kong.NewRegistry().RegisterDefaults()
	m := kong.MapperFunc(func(ctx *kong.DecodeContext, target reflect.Value) error {
		if t := ctx.Scan.Peek(); t.Type == kong.UntypedToken && negativeNumber.MatchString(t.String()) {
			ctx.Scan.Pop()
			ctx.Scan.PushTyped(t.Value, kong.FlagValueToken)
		}
		return defaults.ForType(target.Type()).Decode(ctx, target)
	})
	return kong.OptionFunc(func(k *kong.Kong) error {
		opts := []kong.Option{kong.TypeMapper(reflect.TypeFor[time.Duration](), m), kong.TypeMapper(reflect.TypeFor[units.Size](), m)}
		for _, kind := range []reflect.Kind{reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64} {
			opts = append(opts, kong.KindMapper(kind, m))
		}
		for _, o := range opts {
			if err := o.Apply(k); err != nil {
				return err
			}
		}
		return nil
	})
}

var negativeNumber = regexp.MustCompile(`^-[0-9.]`)

type helpCmd struct {
	Command []string `arg:"" optional:"" help:"The command (and subcommand) to show the help of."`
}

// Run prints the help kong prints for "wirebench COMMAND --help".
func (c *helpCmd) Run(kctx *kong.Context) error {
	t, err := kong.Trace(kctx.Kong, c.Command)
	if err == nil {
		err = t.Error
	}
	if err != nil {
		return usageError{err}
	}
	return t.PrintUsage(false)
}

type versionCmd struct{}

func (versionCmd) Run(e *env) error {
	fmt.Fprintln(e.stdout, "wirebench", buildVersion())
	return nil
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}
