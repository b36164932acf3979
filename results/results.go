// Package results is wirebench's results model: what the driver measured of each
// benchmark (measured.go) and the versioned JSON document every later stage reads,
// described by an embedded JSON Schema. It imports no wirebench package but record
// (whose intervals the driver's measurements embed): no driver, settings, statistics
// or rendering code, so the file reader, the summary and the renderers depend on it
// and not on each other, and a reader of results files pulls in little else.
//
// The JSON names marked stable in DESIGN.md ("Results JSON (stable names)")
// keep their names and meaning for as long as SchemaVersion stays the same;
// fields may be added. A change that renames or redefines one bumps
// SchemaVersion, and Read refuses versions it does not know rather than
// misread them.
package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"time"
)

// SchemaVersion is the version of the results format this package writes. It reads
// that and every version from OldestSchemaVersion on, as this version's model.
//
// Version 3 calls a fork's slices "slices" (each one target's measured part of a
// round), a benchmark's rounds per fork "rounds", a slice's length "slice_s" or
// "slice_ops", and the steady-state class of too few rounds "too few rounds";
// version 2 called them "iterations", "iterations", "iteration_s", "iteration_ops"
// and "too few iterations", and is otherwise the same. Version 1 is version 2 but
// that it called a benchmark's forks "trials".
const SchemaVersion = 3

// OldestSchemaVersion is the oldest version of the results format Read reads.
const OldestSchemaVersion = 1

// Results is one results file: the environment and every benchmark run.
type Results struct {
	SchemaVersion int         `json:"schema_version"`
	Environment   Environment `json:"environment"`
	// Command is the wirebench command line that made the results ("wirebench run
	// quick --smoke"); empty in files written before it existed.
	Command string `json:"command,omitempty"`
	// Smoke marks a smoke run: tiny durations and one fork, to check that a suite
	// runs. Its figures are not measurements: reports say so in their title, and it
	// is kept out of the store and refused by gate. False in files written before it
	// existed.
	Smoke bool `json:"smoke,omitempty"`
	// Suite is the suite the results were run from; nil for a single benchmark.
	Suite      *SuiteInfo  `json:"suite,omitempty"`
	Benchmarks []Benchmark `json:"benchmarks"`
	// Reference is the machine's own speed measured at the start and end of each batch
	// of the run (drift.go), in the order the batches ran; none when the run measured
	// no reference (turned off, or a file written before it existed).
	Reference []ReferenceRun `json:"reference,omitempty"`
}

// SuiteInfo names the suite of a run and the extra views (tables in the shape of
// an original experiment, see views.go) its reports show.
type SuiteInfo struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Views       []string `json:"views,omitempty"`
	// Original names the original experiment the suite reproduces, whose published
	// figures its reports set beside the results (package originals); nil for none.
	Original *OriginalRef `json:"original,omitempty"`
	// Deviations are the suite's declared departures from the original, in file order.
	Deviations []Deviation `json:"deviations,omitempty"`
	// Skipped are the pairs of stacks the suite left out (its skip list), in file order.
	Skipped []SkippedPair `json:"skipped,omitempty"`
	// Process is ProcessOne when each comparison group was measured in one process
	// holding its servers and clients, with a fresh client per slice; "" when
	// by worker processes.
	Process string `json:"process,omitempty"`
}

// ProcessOne is SuiteInfo.Process of a suite measured in one process (suite.ProcessOne).
const ProcessOne = "one"

// SkippedPair is a server and client stack of a protocol a suite did not run
// together, and why; Transport, when set, is the only transport it was left out of.
type SkippedPair struct {
	Protocol    string `json:"protocol"`
	ServerStack string `json:"server_stack"`
	ClientStack string `json:"client_stack"`
	Transport   string `json:"transport,omitempty"`
	Why         string `json:"why"`
}

// OriginalRef names an original's published figures (suite/bundled/originals/NAME.yaml) and,
// when the suite reproduces one of its setups only, that setup.
type OriginalRef struct {
	Name  string `json:"name"`
	Setup string `json:"setup,omitempty"`
}

// Deviation is one known departure of a suite from the original it reproduces: what
// differs, and why.
type Deviation struct {
	What string `json:"what"`
	Why  string `json:"why"`
}

// Shape is the machine shape of a benchmark: Name is "split" (the server and the
// load generators on CPUs of their own) or "shared" (both on the CPUs of both), and
// the CPUs each side could use, as Linux CPU lists ("" when not pinned).
type Shape struct {
	Name       string `json:"name"`
	ServerCPUs string `json:"server_cpus,omitempty"`
	ClientCPUs string `json:"client_cpus,omitempty"`
}

// Environment says where and with what the results were measured, so two
// files can be compared knowingly.
type Environment struct {
	CPUModel         string `json:"cpu_model"`
	Cores            int    `json:"cores"`
	MemoryBytes      int64  `json:"memory_bytes"`
	Kernel           string `json:"kernel"`
	OS               string `json:"os"`
	GoVersion        string `json:"go_version"`
	WirebenchVersion string `json:"wirebench_version"`
	// ServerCPUs and ClientCPUs are Linux CPU lists ("0-1") the server and the
	// load generators were pinned to; empty when not pinned.
	ServerCPUs string    `json:"server_cpus,omitempty"`
	ClientCPUs string    `json:"client_cpus,omitempty"`
	Started    time.Time `json:"started"`
	// Workers are the hosts of the server worker and of every client worker, in
	// that order (files written before runs across hosts have none).
	Workers []WorkerHost `json:"workers,omitempty"`
	// Link is what lay between the clients and the server when wirebench put
	// network conditions there (or namespaces); nil otherwise.
	Link *Link `json:"link,omitempty"`
}

// WorkerHost is where one worker ran: this host for a worker the driver spawned,
// or what a remote worker said of itself.
type WorkerHost struct {
	// Role is "server", "client", or "client 2" when several share the load; with
	// process: one, "server and client, one process" (runner.OneProcessRole).
	Role string `json:"role"`
	// URL is a remote worker's control URL; empty for one the driver spawned.
	URL string `json:"url,omitempty"`
	// Netns names the network namespace wirebench started the worker in, if any.
	Netns       string `json:"netns,omitempty"`
	Hostname    string `json:"hostname,omitempty"`
	CPUModel    string `json:"cpu_model,omitempty"`
	Cores       int    `json:"cores,omitempty"`
	MemoryBytes int64  `json:"memory_bytes,omitempty"`
	Kernel      string `json:"kernel,omitempty"`
	OS          string `json:"os,omitempty"`
	// CPUs is the Linux CPU list the worker may run on: its pinning.
	CPUs string `json:"cpus,omitempty"`
	// Runtime and Version are a remote worker's language runtime and wirebench
	// version (a spawned worker's are the driver's).
	Runtime string `json:"runtime,omitempty"`
	Version string `json:"version,omitempty"`
	// ControlRTTUs is the median round trip of a control call from the driver to a
	// remote worker, in µs: a first look at the network between them.
	ControlRTTUs float64 `json:"control_rtt_us,omitempty"`
}

// Link is the network conditions put between the clients and the server.
type Link struct {
	// Profile is the link as given, e.g. "delay=1ms,rate=1gbit" ("none" for
	// namespaces without conditions).
	Profile           string  `json:"profile"`
	DelayUs           float64 `json:"delay_us,omitempty"`
	JitterUs          float64 `json:"jitter_us,omitempty"`
	RateBitsPerSecond int64   `json:"rate_bits_per_second,omitempty"`
	LossPercent       float64 `json:"loss_percent,omitempty"`
	// Between says what carried the traffic: "loopback", "two network namespaces
	// joined by a veth pair", "the network between the hosts".
	Between string `json:"between"`
	// Made says how each part of the profile was made, one line each.
	Made []string `json:"made,omitempty"`
}

// Benchmark is one target × workload × load point, over all its forks.
type Benchmark struct {
	Name string `json:"name"`
	// Series names the target without its transport (spec.Spec.Series): the protocol,
	// then in brackets its label and the stacks that are not the protocol's defaults,
	// e.g. "http-json[server=go-tuned-json]". Empty in files written before it
	// existed (SeriesOf then reads it from Name).
	Series string `json:"series,omitempty"`
	// Group is the comparison-group key (spec.Spec.RoundsGroup): the workload, its
	// parameters and the load, e.g. "echo[payload=1024]/closed-c50", and for a suite
	// that interleaves per server also the server ("person.get/closed-c50 on
	// grpc-proto/tcp server tonic"). Benchmarks with the same Group differ only in
	// their target. Empty in files written before it
	// existed (GroupOf then reads it from Name).
	Group string `json:"group,omitempty"`
	// CallsPerOp is the number of service calls one op makes
	// (contract.Workload.Calls); 0 in files written before it existed, which
	// `wirebench report` fills in from the workload before rendering (results knows
	// no workload).
	CallsPerOp int    `json:"calls_per_op,omitempty"`
	Protocol   string `json:"protocol"`
	Transport  string `json:"transport"`
	Workload   string `json:"workload"`
	// Params are the workload parameters actually used, e.g. {"payload": 1024}.
	// Numbers read back from JSON are float64.
	Params map[string]any `json:"params"`
	// Options are protocol options, e.g. {"compression": "gzip"}.
	Options map[string]string `json:"options,omitempty"`
	// ServerOptions are the server's protocol options, e.g.
	// {"num_stream_workers": "1"}.
	ServerOptions map[string]string `json:"server_options,omitempty"`
	// Label tells apart benchmarks of one protocol that differ only by options
	// (a suite target's label, e.g. "win-64KiB"); it is in Name after the protocol.
	Label string `json:"label,omitempty"`
	// Address is the address of an outside server (spec.Spec.Address), set when one
	// was loaded instead of a server wirebench started. Files written before
	// 2026-11-29 call it "target", read as it (Benchmark.UnmarshalJSON).
	Address string `json:"address,omitempty"`
	// Call is the outside server's own method ("pkg.Service/Method") or endpoint
	// ("GET /path") that was loaded at Address, when it was not wirebench's contract
	// (the workload "call"); its series is named by Address and Call.
	Call string `json:"call,omitempty"`
	// ServerStack and ClientStack are the implementations of each side, with the
	// tier of this run (tuned when options changed a library's defaults). For an
	// in-process protocol both are the stack the service runs in; for an outside
	// target the server stack is unknown (nil).
	ServerStack *Stack `json:"server_stack,omitempty"`
	ClientStack *Stack `json:"client_stack,omitempty"`
	// Method is how the benchmark was measured against the others of its
	// comparison group: "interleaved" (rounds of short slices over the group's
	// targets) or "sequential" (one after the other).
	Method string `json:"method,omitempty"`
	// Shape is the machine shape it ran in (nil in files written before shapes).
	Shape *Shape `json:"shape,omitempty"`
	// Isolation says how the other targets of its interleaved group were kept from
	// running during its warm-up and slices: IsolationCgroupV2 and the like (frozen
	// by that mechanism), or "none" with the reason; empty for a benchmark measured
	// alone, and in files written before isolation.
	Isolation string `json:"isolation,omitempty"`
	// Workers is set when the worker processes of each of its forks served other
	// groups of the run too, one after the other (spec.WorkersPerFork: warmed up once
	// per fork): how many groups, and where its own came. Absent when its forks
	// started their own workers, and in files written before.
	Workers *WorkersShare `json:"workers,omitempty"`
	Load    Load          `json:"load"`
	// Mode is "thrpt" (score in ops/s) or "avgt" (score in ms/op), as in JMH.
	Mode          string  `json:"mode"`
	WarmupSeconds float64 `json:"warmup_s"`
	// WarmupMaxSeconds is set for an adaptive warm-up: it lasted at least
	// WarmupSeconds and at most this, until its slices stopped changing (each fork's
	// Warmup says how long it took).
	WarmupMaxSeconds float64 `json:"warmup_max_s,omitempty"`
	// KeepAliveSeconds, in an interleaved group, is how long the target could go
	// without running while the others warmed up after it (spec.Spec.KeepAlive);
	// 0: no keep-alive (and in files written before it existed).
	KeepAliveSeconds float64 `json:"keepalive_s,omitempty"`
	// SliceSeconds is the length of a time-bounded slice, SliceOps that of a
	// count-bounded one ("iteration_s" and "iteration_ops" in files written before
	// schema_version 3, read as these).
	SliceSeconds float64 `json:"slice_s,omitempty"`
	SliceOps     int64   `json:"slice_ops,omitempty"`
	// Rounds is the number of measured rounds per fork: each gave the benchmark one
	// slice ("iterations" before schema_version 3, read as it).
	Rounds int `json:"rounds"`
	// Forks are the benchmark's forks, each with fresh worker processes, in order
	// ("trials" in schema_version 1, which reading takes too).
	Forks   []ForkResult `json:"forks"`
	Summary Summary      `json:"summary"`
	// Warnings are what a reader must know before trusting the figures, in the order
	// they were found. In JSON they are "warnings", as reports print them, and
	// "warning_details", as data (warning.go).
	Warnings Warnings `json:"-"`
	// GeneratorBound is true when the load generator, not the target, limited
	// the result (lag grew, or the client ran out of CPU).
	GeneratorBound bool `json:"generator_bound"`
	// Steady is the benchmark's steady-state class over its forks: the worst of its
	// forks' (no steady state, then slowdown, warmed up, flat); empty when not
	// classified.
	Steady string `json:"steady,omitempty"`
	// Capacity is set for a capacity search: the highest rate the target sustained
	// within its objectives, and every step of the search. The summary is then the
	// confirming run's (or, unconfirmed, the last passing step's).
	Capacity *Capacity `json:"capacity,omitempty"`
}

// Capacity is what a capacity search found.
type Capacity struct {
	// RateOpsS is the answer: the highest rate that passed (and was confirmed);
	// 0 when none did. LowOpsS and HighOpsS bracket the capacity: the last passing
	// and the first failing rate (HighOpsS 0: none failed).
	RateOpsS float64 `json:"rate_ops_s"`
	LowOpsS  float64 `json:"low_ops_s"`
	HighOpsS float64 `json:"high_ops_s"`
	// SLO are the objectives, e.g. ["p99=10ms"]; MaxErrorRate the share of failed
	// calls a step could have.
	SLO          []string `json:"slo"`
	MaxErrorRate float64  `json:"max_error_rate"`
	Confirmed    bool     `json:"confirmed"`
	// GeneratorBound: the load generator could not go faster, so RateOpsS is a
	// floor of the target's capacity. OutOfBudget: the budget ended first.
	GeneratorBound bool           `json:"generator_bound"`
	OutOfBudget    bool           `json:"out_of_budget,omitempty"`
	Steps          []CapacityStep `json:"steps"`
}

// CapacityStep is one step of a capacity search.
type CapacityStep struct {
	RateOpsS     float64 `json:"rate_ops_s"`
	AchievedOpsS float64 `json:"achieved_ops_s"`
	Seconds      float64 `json:"seconds"`
	LatencyUs    Latency `json:"latency_us"`
	Errors       int64   `json:"errors"`
	// Verdict is "pass", "slo", "rate", "errors" or "generator"; Why the figure
	// that decided it.
	Verdict string `json:"verdict"`
	Why     string `json:"why,omitempty"`
	Confirm bool   `json:"confirm,omitempty"`
}

// Stack is an implementation of one side of a protocol.
type Stack struct {
	Name     string `json:"name"`
	Language string `json:"language"`
	// Tier is "production" (stock libraries and settings) or "tuned"
	// (hand-optimised code or non-default settings).
	Tier string `json:"tier"`
	// Libraries are the libraries it is built on, with their versions.
	Libraries map[string]string `json:"libraries,omitempty"`
	// RuntimeArgs are the options of the runtime its worker ran with (a JVM's,
	// Python's, Node's), for a stack in a worker the driver started: its launcher's
	// defaults, then the benchmark's runtime_args. Files written before 2026-11-29
	// call them jvm_args, read as these (Stack.UnmarshalJSON).
	RuntimeArgs []string `json:"runtime_args,omitempty"`
}

// Tier values.
const (
	TierProduction = "production"
	TierTuned      = "tuned"
)

// Tuned reports whether either side of b is a tuned stack.
func (b *Benchmark) Tuned() bool {
	return b.ServerStack != nil && b.ServerStack.Tier == TierTuned || b.ClientStack != nil && b.ClientStack.Tier == TierTuned
}

// Score returns the benchmark's score, its error and units by its mode: ops/s, or
// ms/op in average-time mode.
func (b *Benchmark) Score() (score, errS float64, units string) {
	if a := b.Summary.AvgTimeMs; b.Mode == ModeAverageTime && a != nil {
		return a.Mean, a.Error, "ms/op"
	}
	t := b.Summary.ThroughputOpsS
	return t.Mean, t.Error, "ops/s"
}

// Load is the load model a benchmark ran under.
type Load struct {
	// Model is "closed" (Concurrency calls always in flight) or "open"
	// (arrivals at Rate per second whatever the responses do).
	Model       string `json:"model"`
	Concurrency int    `json:"concurrency"`
	Connections int    `json:"connections"`
	// Rate and Arrival are required for the open model (the schema checks).
	Rate    float64 `json:"rate,omitempty"`
	Arrival string  `json:"arrival,omitempty"`
	// MaxInFlight bounds outstanding calls in the open model.
	MaxInFlight int `json:"max_in_flight,omitempty"`
}

// ForkResult is one fork of a benchmark as a results file keeps it: a run of it with
// fresh worker processes (Fork is what the driver measured of it).
type ForkResult struct {
	Index int `json:"index"`
	// Slices are the fork's measured slices, one a round, in order ("iterations" in
	// files written before schema_version 3, read as these: ForkResult.UnmarshalJSON).
	Slices []Slice `json:"slices"`
	// Error says why a fork was cut short; its slices so far are kept. Phase is
	// what the fork was doing then ("start", "warmup", "round 3"; ForkError), empty
	// when the failure was not of one phase (the run was stopped). In files written
	// before Phase, Error began with "trial N, PHASE: ", which reading takes apart
	// (legacyFork).
	Error string `json:"error,omitempty"`
	Phase string `json:"phase,omitempty"`
	// Steady is how the fork's slices settled; its summary and ratios use the
	// slices from StartRound on. Nil in files written before it existed.
	Steady *Steady `json:"steady,omitempty"`
	// Warmup is the fork's warm-up; nil without one (and in files written before it
	// was recorded).
	Warmup *Warmup `json:"warmup,omitempty"`
}

// Warmup is how one fork of one target warmed up.
type Warmup struct {
	Seconds float64 `json:"seconds"`
	// Adaptive is set when it ran in slices until they stopped changing; Settled says
	// whether they did (false: it stopped at the benchmark's WarmupMaxSeconds), and
	// Levels are the slices' levels in order: ops/s, or the median latency in µs
	// under open-loop load.
	Adaptive bool      `json:"adaptive,omitempty"`
	Settled  bool      `json:"settled,omitempty"`
	Levels   []float64 `json:"levels,omitempty"`
	// KeepAliveSlices counts the unmeasured slices of its own load the target got
	// after its warm-up while the group's other targets warmed up (the benchmark's
	// KeepAliveSeconds).
	KeepAliveSlices int `json:"keepalive_slices,omitempty"`
}

// Steady is the steady-state class of one fork of one target, after Barrett et al.
// (stats.ClassifySteady).
type Steady struct {
	// Class is SteadyFlat, SteadyWarmedUp, SteadySlowdown, SteadyNone, or SteadyUnknown
	// when there were too few rounds to tell.
	Class string `json:"class"`
	// StartRound is the index of the first slice of the steady state (0 when flat);
	// for no steady state it is 0, every slice being used.
	StartRound int `json:"start_round"`
	// AfterSeconds is how long after the measurement began the steady state started
	// (the rounds before it, every target's slices included).
	AfterSeconds float64 `json:"after_s,omitempty"`
	// Change is the steady level over the first segment's, minus one, in the better
	// direction (+0.8: 80 % faster once warm).
	Change float64 `json:"change,omitempty"`
}

// Steady-state classes.
const (
	SteadyFlat     = "flat"
	SteadyWarmedUp = "warmed up"
	SteadySlowdown = "slowdown"
	SteadyNone     = "no steady state"
	SteadyUnknown  = "too few rounds"
)

// Slice is one target's measured part of a round: one measurement interval.
type Slice struct {
	Index          int     `json:"index"`
	Seconds        float64 `json:"seconds"`
	Ops            int64   `json:"ops"`
	Errors         int64   `json:"errors"`
	ThroughputOpsS float64 `json:"throughput_ops_s"`
	// LatencyUs is response time, measured from the intended start.
	LatencyUs Latency `json:"latency_us"`
	// ServiceUs (end - start) and LagUs (start - intended) are set for the
	// open model, where they differ from response time.
	ServiceUs *Latency `json:"service_us,omitempty"`
	LagUs     *Latency `json:"lag_us,omitempty"`
	// Histogram is the response-time histogram in ns, HdrHistogram V2
	// compressed and base64 encoded (record.EncodeHistogram).
	Histogram string `json:"histogram,omitempty"`
}

// Summary is a benchmark's result over every slice of every fork.
type Summary struct {
	// ThroughputOpsS is the score: mean ± error over slices × forks.
	ThroughputOpsS Throughput `json:"throughput_ops_s"`
	LatencyUs      Latency    `json:"latency_us"`
	ServiceUs      *Latency   `json:"service_us,omitempty"`
	LagUs          *Latency   `json:"lag_us,omitempty"`
	Ops            int64      `json:"ops"`
	Errors         int64      `json:"errors"`
	// ErrorsByKind counts errors by kind, e.g. {"unavailable": 3, "timeout": 1};
	// the calls an outside server answered with an error status are counted as
	// "status" here, and by their status in ErrorsByStatus.
	ErrorsByKind map[string]int64 `json:"errors_by_kind,omitempty"`
	// ErrorsByStatus counts the calls an outside server (the workload "call")
	// answered with an error status, by the status: the protocol and its code,
	// e.g. {"grpc:Unavailable": 3, "http:503": 1}. Absent in files of earlier
	// versions, which had no outside calls.
	ErrorsByStatus map[string]int64 `json:"errors_by_status,omitempty"`
	// Overflow counts open-model arrivals that found every in-flight slot busy
	// and so started late.
	Overflow         int64   `json:"overflow,omitempty"`
	ClientCPUUsPerOp float64 `json:"client_cpu_us_per_op"`
	// ServerCPUUsPerOp is nil (JSON null) when unknown: an outside target, or
	// the direct protocol where there is no server process.
	ServerCPUUsPerOp *float64 `json:"server_cpu_us_per_op"`
	// LinkCPUUsPerOp is the CPU the link proxies beside the clients used, when
	// there was a link (not part of the client's CPU).
	LinkCPUUsPerOp *float64 `json:"link_cpu_us_per_op,omitempty"`
	BytesSentPerOp float64  `json:"bytes_sent_per_op"`
	BytesRecvPerOp float64  `json:"bytes_recv_per_op"`
	// BytesNotCounted: the client stack cannot count its bytes (it owns its
	// sockets, as the JDK's HTTP client does); the per-op bytes are then 0 and
	// unknown.
	BytesNotCounted bool `json:"bytes_not_counted,omitempty"`
	// ServerRSSMaxBytes is the server's peak RSS; nil (JSON null) when unknown.
	ServerRSSMaxBytes *int64 `json:"server_rss_max_bytes"`
	// AchievedRate is the open model's measured arrival rate, to compare with
	// Load.Rate.
	AchievedRate float64 `json:"achieved_rate_ops_s,omitempty"`
	// AvgMsPerOp is the mean time one caller spent per op, over the whole run.
	AvgMsPerOp float64 `json:"avg_ms_per_op"`
	// AvgTimeMs is the avgt-mode score, ms per op per caller, mean ± error over
	// slices as JMH's average-time mode reports it; set in avgt mode only.
	AvgTimeMs *Throughput `json:"avg_time_ms,omitempty"`
	// Relative is the benchmark's score against its comparison group's baseline,
	// paired by round; nil for a baseline itself and for a benchmark with no group.
	Relative *Relative `json:"relative,omitempty"`
	// Drift, on the baseline of a comparison group of two targets or more, is how far
	// the machine's speed moved under the group's rounds (drift.go); nil elsewhere, in
	// the open model, and in files written before it existed (summary.FillDrift
	// computes it from their stored slices).
	Drift *Drift `json:"drift,omitempty"`
}

// Relative is a score relative to a baseline benchmark's: the ratio of the scores
// (ops/s over ops/s, or ms/op over ms/op in avgt mode) with its confidence interval.
type Relative struct {
	// Baseline is the name of the benchmark the ratio is against.
	Baseline string `json:"baseline"`
	Ratio    Ratio  `json:"ratio"`
	// Rounds is the number of paired samples (interleaved rounds, or slices paired
	// by round when measured sequentially), over every fork.
	Rounds int `json:"rounds"`
	// Forks is how many forks (each with fresh processes) the rounds came
	// from. With two or more, the interval has Forks − 1 degrees of freedom and holds
	// what differs from process to process; with one, only what differs from round
	// to round.
	Forks int `json:"forks,omitempty"`
	// DF is the interval's degrees of freedom.
	DF float64 `json:"df,omitempty"`
	// Variance splits the variance of one round's log ratio into its levels.
	Variance *Variance `json:"variance,omitempty"`
	// Of says what the ratio is of: empty for the score (throughput, or time per op
	// in avgt mode), RelativeLatencyP50 in the open model, where the throughput is
	// the fixed rate and the target's response-time p50 over the baseline's is
	// paired instead (LatencyP99 then holds the p99's).
	Of         string `json:"of,omitempty"`
	LatencyP99 *Ratio `json:"latency_p99,omitempty"`
	// Unsteady is set when the benchmark or its baseline reached no steady state
	// in some fork.
	Unsteady bool `json:"unsteady,omitempty"`
}

// HasInterval reports whether r's interval rests on enough degrees of freedom
// (MinIntervalDF) and rounds to be read: without, reports print "too few" in its
// place. A file from before forks has no DF: its rounds, of one fork, give it.
func (r *Relative) HasInterval() bool {
	df := r.DF
	if r.Forks == 0 {
		df = float64(r.Rounds - 1)
	}
	return df >= MinIntervalDF && r.Rounds >= 2
}

// HalfWidth is r's interval's relative half-width: the larger side of its interval
// over the ratio (an interval of a ratio is not symmetric), +Inf when it has none.
func (r *Relative) HalfWidth() float64 {
	q := r.Ratio
	if q.Mean <= 0 || q.CILow <= 0 {
		return math.Inf(1)
	}
	return max(q.CIHigh/q.Mean, q.Mean/q.CILow) - 1
}

// Samples says what r's interval rests on: "15 forks" or "40 rounds of one fork".
func (r *Relative) Samples() string {
	if r.Forks >= 2 {
		return fmt.Sprintf("%d forks", r.Forks)
	}
	if r.Rounds == 1 {
		return "1 round of one fork"
	}
	return fmt.Sprintf("%d rounds of one fork", r.Rounds)
}

// RelativeLatencyP50 is Relative.Of for a ratio of response-time p50s.
const RelativeLatencyP50 = "latency_p50"

// Variance is the variance components of a log ratio (natural log; √ of one is
// roughly a relative standard deviation).
type Variance struct {
	// WithinRound is the variance of one round's log ratio about its fork's mean.
	WithinRound float64 `json:"within_round"`
	// BetweenForks is the variance of the fork means beyond what their rounds
	// explain; nil with one fork, where it cannot be estimated.
	BetweenForks *float64 `json:"between_forks,omitempty"`
}

// Ratio is an estimate with its confidence interval [CILow, CIHigh] at level CI.
type Ratio struct {
	Mean   float64 `json:"mean"`
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
	CI     float64 `json:"ci"`
}

// Throughput is a score as JMH prints it: Mean ± Error at confidence CI over N
// slices.
type Throughput struct {
	Mean float64 `json:"mean"`
	// Error is the half-width of the CI confidence interval; 0 when N < 2,
	// where there is no interval (JSON has no NaN).
	Error float64 `json:"error"`
	CI    float64 `json:"ci"`
	N     int     `json:"n"`
}

// Latency is a latency distribution in microseconds.
type Latency struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

// Write writes r as indented JSON, after checking it against Schema so that no
// file this package writes fails to read back. A nil Params, Forks or
// Slices is written as an empty object or array, since the schema requires
// them to be present. Write does not modify r.
func (r *Results) Write(w io.Writer) error {
	data, err := r.marshal()
	if err != nil {
		return err
	}
	if err := ValidateJSON(data); err != nil {
		return fmt.Errorf("results: refusing to write an invalid file: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("results: write: %w", err)
	}
	return nil
}

func (r *Results) marshal() ([]byte, error) {
	out := *r
	out.Benchmarks = make([]Benchmark, len(r.Benchmarks))
	for i, b := range r.Benchmarks {
		if b.Params == nil {
			b.Params = map[string]any{}
		}
		forks := make([]ForkResult, len(b.Forks))
		for j, t := range b.Forks {
			if t.Slices == nil {
				t.Slices = []Slice{}
			}
			forks[j] = t
		}
		b.Forks = forks
		out.Benchmarks[i] = b
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	// Names like "a<b" and payload params stay readable in the file.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&out); err != nil {
		// encoding/json's message for NaN names no field; say where to look.
		return nil, fmt.Errorf("results: encode (a NaN or ±Inf in a float field?): %w", err)
	}
	return buf.Bytes(), nil
}

// Read reads a results file of any schema_version from OldestSchemaVersion to
// SchemaVersion, as this version's model (its SchemaVersion is SchemaVersion, so
// that writing it again writes today's format). It refuses another version, and a
// document that does not match Schema, with messages that say which.
func Read(r io.Reader) (*Results, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("results: read: %w", err)
	}
	var head struct {
		SchemaVersion *json.RawMessage `json:"schema_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("results: not JSON: %w", err)
	}
	if head.SchemaVersion == nil {
		return nil, fmt.Errorf("results: no schema_version: not a wirebench results file")
	}
	var v int
	if err := json.Unmarshal(*head.SchemaVersion, &v); err != nil {
		return nil, fmt.Errorf("results: schema_version %s is not an integer", *head.SchemaVersion)
	}
	if v < OldestSchemaVersion || v > SchemaVersion {
		return nil, fmt.Errorf("results: schema_version %d is not supported: this wirebench reads versions %d to %d", v, OldestSchemaVersion, SchemaVersion)
	}
	if err := ValidateJSON(data); err != nil {
		return nil, err // already says "results ..."
	}
	var res Results
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("results: decode: %w", err)
	}
	res.SchemaVersion = SchemaVersion // Benchmark.UnmarshalJSON read the older names
	return &res, nil
}

// ReadFile reads the results file at path (see Read).
func ReadFile(path string) (*Results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // already names the path
	}
	defer f.Close()
	res, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return res, nil
}

// WorkersShare says which groups a benchmark's worker processes served in each fork
// (Benchmark.Workers): Groups groups in turn, its own the Position-th (from 1).
type WorkersShare struct {
	Groups   int `json:"groups"`
	Position int `json:"position"`
}
