package spec

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/units"
)

// Kind is the type of a setting's value: how it is written in a suite file and on
// the command line, and which Go type Value holds.
type Kind int

// Kinds of settings, with the Go type a Value of each holds.
const (
	Duration Kind = iota + 1 // time.Duration, written as a Go duration: 500ms, 1m30s
	Int                      // int64
	Uint                     // uint64, unbounded (seeds)
	Size                     // int64 bytes, written as 11, 1KiB, 16MiB
	Enum                     // string, one of the setting's Choices
	CPUs                     // []int, a Linux CPU list ("0-1"), or none (nil: not pinned)
	Args                     // []string, options separated by spaces
	Float                    // float64, finite (a rate, a share)
	Bool                     // bool
	SLOs                     // []SLO, each written as pQUANTILE=DURATION
	Text                     // string, free text (a file name, a message name)
)

func (k Kind) String() string {
	if k < Duration || k > Text {
		return "kind " + strconv.Itoa(int(k))
	}
	return [...]string{"duration", "integer", "unsigned integer", "size", "enum", "CPU list", "argument list",
		"number", "boolean", "latency objectives", "text"}[k-Duration]
}

// Value is a setting's value, of the Go type its Kind names.
type Value = any

// Choice is one value an Enum setting may take, and what it means (for messages).
type Choice struct{ Value, Means string }

// Setting is one benchmark setting: its suite key, flag, type, default, bounds, help,
// documentation and the field of SettingValues it fills. The table Settings is the
// one place a setting is defined: the suite reader, the command line's flags and
// defaults (Default), Validate, the control message sent to workers and
// docs/suites.md's settings table (SettingsTable) all derive from it. A new setting is
// its field in SettingValues, its row in Settings, the code that acts on it and its
// test.
type Setting struct {
	// Key is the setting's name in a suite file and in errors (*Error.Setting).
	Key string
	// Flag is the bench command's flag, without the dashes; "" for none.
	Flag string
	// Short is the flag's one-letter form; 0 for none.
	Short rune
	Kind  Kind
	// Min and Max bound a Duration (in nanoseconds), Int or Size setting.
	Min, Max int64
	// Choices are the values of an Enum setting.
	Choices []Choice
	// Default is the setting's value in a Spec from Default, of the Go type its Kind
	// names (Value: an Int's is an int64); nil: the field's zero value.
	Default Value
	// Want says what a valid value is when the bounds alone do not (e.g. runtime_args).
	Want string
	// Help is the flag's help (Doc is the meaning docs/suites.md gives).
	Help string
	// Wire is the controlpb.Benchmark field that carries the setting to workers, in a
	// unit the field's name says (_nanos: nanoseconds); "" for a setting only the
	// driver reads.
	Wire string
	// DocType, Doc and DocDefault are the setting's row of docs/suites.md's settings
	// table (Markdown, SettingsTable): what values it takes, what it means, and, when
	// Default does not say it (a zero Default reads "none", or "`0`" for a duration),
	// its default in words.
	DocType, Doc, DocDefault string
	// DriverOnly, for a setting with no Wire field, says why the workers never need it
	// (the driver acts on it itself); a setting has one of Wire and DriverOnly.
	DriverOnly string
	// PerTarget is set for a setting the targets of one comparison group may each
	// have their own of (a JVM stack's longer warmup); the others are the group's
	// plan (SamePlan).
	PerTarget bool
	// OldKey and OldFlag are the setting's former suite key and flag, still read so
	// that users' suite files and scripts keep working: the suite reader and the
	// command line each say, once, that the old name is deprecated and name the new
	// one (RenamedSetting, RenamedKey). "" for none.
	OldKey, OldFlag string
	// Alternative names the setting this one excludes: a slice lasts a duration or a
	// number of ops. The zero value of either means "not chosen".
	Alternative string
	// field points at the setting's field in s.
	field func(s *Spec) any
}

// SettingValues are a benchmark's settings, the fields of Spec that the table
// Settings defines, one field a row (Setting.field). Spec embeds them, so a setting
// reads as any other field of Spec (s.Warmup); a new setting is its field here and its
// row below, with its default.
type SettingValues struct {
	// Warmup runs before measuring. Rounds are the measured rounds of a fork: each
	// gives every target of a comparison group one slice (a target measured alone has
	// one slice a round), SliceTime long or SliceOps ops (exactly one is set).
	Warmup time.Duration
	// WarmupMax, when set, makes the warm-up adaptive: it runs in slices of
	// WarmupSlice and ends once it has lasted Warmup and its slices stopped changing
	// (stats.WarmupSettled), or at WarmupMax. 0: the warm-up is Warmup, fixed.
	WarmupMax time.Duration
	// KeepAlive, in an interleaved group, is how long a target that has warmed up may
	// go without running while the group's other targets warm up after it: it then
	// gets a slice of KeepAliveSlice of its own load, not measured, so that a timer
	// of its (a server's idle timeout, a keep-alive) does not find its connections
	// idle when the rounds begin. 0: never.
	KeepAlive time.Duration
	Rounds    int
	SliceTime time.Duration
	SliceOps  int64
	// Forks repeat the whole measurement with fresh worker processes.
	Forks int
	// Mode is the score: ModeThroughput (ops/s) or ModeAverageTime (ms per op per caller).
	Mode string
	// Method is how a comparison group is measured: MethodInterleaved (rounds of short
	// slices over every target of the group) or MethodSequential (one target after the
	// other). A benchmark alone in its group is measured sequentially either way.
	Method string
	// CallTimeout fails a call that takes longer (0: none).
	CallTimeout time.Duration
	// ArrivalSeed seeds Poisson arrivals; DataSeed and DataSize choose the data set
	// (servers and clients must agree).
	ArrivalSeed, DataSeed uint64
	DataSize              int
	// MaxMessageSize bounds one message on both sides, in bytes.
	MaxMessageSize int
	// ServerCPUs and ClientCPUs pin the workers (nil: not pinned), as Shape says
	// (Pinning).
	ServerCPUs, ClientCPUs []int
	// Shape is the machine shape: ShapeSplit (each side on its own CPUs) or
	// ShapeShared (both sides on the CPUs of both).
	Shape string
	// Isolation is how the targets of an interleaved group are kept apart:
	// IsolationFreeze (the others frozen during each target's warm-up and slices)
	// or IsolationNone.
	Isolation string
	// Workers is whether the groups of a suite that have the same targets share each
	// fork's worker processes (WorkersPerFork: warm once per fork) or start their own
	// (WorkersPerGroup).
	Workers string
	// Reference is how long the reference workload runs before the first group and
	// after the last of each batch of a run (results.ReferenceRun: the machine's own
	// speed, for the report's drift figures); 0: not measured.
	Reference time.Duration
	// RuntimeArgs are the options of the runtime of the benchmark's workers (server
	// and client) that have one, a JVM, Python or Node, after its launcher's defaults
	// (driver/launch: a JVM's heap, collector and CPU count); each launcher passes them
	// as its runtime takes options, and Go and Rust workers have none. A suite of an
	// original sets the original's (e.g. -Xms2G -Xmx2G). The suite key runtime_args,
	// formerly jvm_args.
	RuntimeArgs []string
	// The message workload: a user's message MessageName from the .proto file
	// MessageProto (found in MessageImportPaths, comma-separated), sent as the
	// messages of MessageDataFile (protojson lines) or MessageCount messages generated
	// from DataSeed with strings of MessageStringLen bytes, bytes fields of
	// MessageBytesLen and MessageRepeated elements in each repeated field and map.
	// The schema and the messages, once read, are Params.Messages.
	MessageProto, MessageImportPaths, MessageName, MessageDataFile   string
	MessageCount, MessageStringLen, MessageBytesLen, MessageRepeated int64
}

// Settings is the table of benchmark settings, in the order docs/suites.md lists
// them (SettingsTable) and a suite's "valid:" key lists name them.
var Settings = []*Setting{
	{Key: "warmup", Flag: "warmup", Kind: Duration, Default: time.Second, Max: int64(MaxTime), Wire: "warmup_nanos", PerTarget: true,
		DocType: "duration",
		Doc:     "warmup before measuring, in each fork; `0` for none",
		Help:    "Warmup before measuring, in each fork (0 for none).",
		field:   func(s *Spec) any { return &s.Warmup }},
	{Key: "warmup_max", Flag: "warmup-max", Kind: Duration, Max: int64(MaxTime), PerTarget: true,
		DocType:    "duration",
		Doc:        "makes the warmup adaptive: after `warmup`, on in 1 s slices until they stop changing (the last 4 within 3 % of the 4 before, not swinging by over 10 %), for at most this long; `0`: the warmup is `warmup`, fixed (docs/method.md, \"Adaptive warm-up\")",
		DriverOnly: "the driver ends an adaptive warm-up, running it as fixed warm-up phases",
		Help:       "Make the warmup adaptive: after the warmup, go on in 1s slices until they stop changing, for at most this long (0: the warmup is fixed).",
		field:      func(s *Spec) any { return &s.WarmupMax }},
	{Key: "keep_alive", Flag: "keep-alive", Kind: Duration, Default: 5 * time.Second, Max: int64(MaxTime), PerTarget: true,
		DocType:    "duration",
		Doc:        "in an interleaved group, while the other targets warm up one after the other, a target that has warmed up gets an unmeasured 50 ms slice of its own load whenever it has not run for this long, so that a timer of its (a server's idle timeout, a keep-alive) never finds its connections idle longer than it would in a running service; `0`: never; at least `1s` otherwise (docs/method.md, \"Keep-alive\")",
		DriverOnly: "the driver runs the keep-alive slices, as ordinary warm-up phases",
		Help:       "Interleaved rounds: while the group's other targets warm up, give a target already warmed up an unmeasured slice of its own load at least this often, so no timer of its (an idle connection's, a keep-alive's) finds it idle longer (0: never; docs/method.md).",
		field:      func(s *Spec) any { return &s.KeepAlive }},
	// The control message keeps the wire names iterations, iteration_nanos and
	// iteration_ops (control.proto: only the driver and the workers read them, and
	// renaming them would regenerate every worker's code for no user's gain).
	{Key: "rounds", Flag: "rounds", Short: 'i', Kind: Int, Default: int64(5), Min: 1, Max: MaxRounds, Wire: "iterations",
		DocType: "integer, 1 to 1 000 000",
		Doc:     "measured **rounds** per fork: each gives every target of a comparison group one **slice** (a target measured alone has one slice a round); read under its former name `iterations` too, with a note to rename it",
		OldKey:  "iterations", OldFlag: "iterations",
		Help:  "Rounds measured per fork: each is one slice of every target of a comparison group (one slice a round for a target measured alone).",
		field: func(s *Spec) any { return &s.Rounds }},
	{Key: "duration", Flag: "duration", Short: 'd', Kind: Duration, Default: time.Second, Min: int64(time.Millisecond), Max: int64(MaxTime), Wire: "iteration_nanos",
		DocType:     "duration, at least `1ms`",
		Doc:         "length of each slice",
		Alternative: "ops",
		Help:        "Length of each measured slice (one target's part of a round).",
		field:       func(s *Spec) any { return &s.SliceTime }},
	{Key: "ops", Flag: "ops", Kind: Int, Min: 1, Max: MaxOps, Wire: "iteration_ops",
		DocType:     "integer, at least 1",
		Doc:         "make each slice this many ops instead of `duration` long",
		Alternative: "duration",
		Help:        "Make each slice this many ops instead of a duration long.",
		field:       func(s *Spec) any { return &s.SliceOps }},
	{Key: "forks", Flag: "forks", Kind: Int, Default: int64(1), Min: 1, Max: MaxForks, Wire: "forks",
		DocType: "integer, 1 to 1000",
		Doc:     "forks, each with fresh server and client processes (read under its former name `trials` too, with a note to rename it); an interleaved group's ratio has an interval over its forks (`docs/method.md`): 5 or more for an interval that means something",
		OldKey:  "trials", OldFlag: "trials",
		Help:  "Forks, each with fresh server and client processes.",
		field: func(s *Spec) any { return &s.Forks }},
	{Key: "mode", Flag: "mode", Kind: Enum, Default: ModeThroughput, Wire: "mode",
		DocType: "`thrpt` or `avgt`",
		Doc:     "the score: ops/s, or time per op per caller (ms)",
		Choices: []Choice{{ModeThroughput, "ops/s"}, {ModeAverageTime, "time per op"}},
		Help:    "Score: thrpt (ops/s) or avgt (ms per op per caller).",
		field:   func(s *Spec) any { return &s.Mode }},
	{Key: "method", Kind: Enum, Default: MethodInterleaved, Wire: "method",
		DocType: "`interleaved` or `sequential`",
		Doc:     "how a comparison group is measured: rounds of short slices over all its targets, or one target after the other (`wirebench run --sequential` sets it for every benchmark)",
		Choices: []Choice{{MethodInterleaved, "rounds of short slices over a comparison group's targets"}, {MethodSequential, "one after the other"}},
		Help:    "How a comparison group is measured: interleaved rounds or one target after the other.",
		field:   func(s *Spec) any { return &s.Method }},
	{Key: "call_timeout", Flag: "call-timeout", Kind: Duration, Default: 10 * time.Second, Max: int64(MaxTime), Wire: "call_timeout_nanos",
		DocType: "duration",
		Doc:     "a call taking longer fails as a timeout",
		Help:    "A call taking longer fails as a timeout (0: none).",
		field:   func(s *Spec) any { return &s.CallTimeout }},
	{Key: "server_cpus", Flag: "server-cpus", Kind: CPUs, Default: []int{0},
		DocType:    "CPU list or `none`",
		Doc:        "CPUs of the server process (`taskset -c` syntax: `\"0\"`, `\"0-1\"`, `\"0,2\"`); `none` does not pin",
		DriverOnly: "the driver pins the processes",
		Help:       "CPUs of the server process (Linux list, e.g. 0 or 0-1).",
		field:      func(s *Spec) any { return &s.ServerCPUs }},
	{Key: "client_cpus", Flag: "client-cpus", Kind: CPUs, Default: []int{1},
		DocType:    "CPU list or `none`",
		Doc:        "CPUs of the load generator process",
		DriverOnly: "the driver pins the processes",
		Help:       "CPUs of the load generator process.",
		field:      func(s *Spec) any { return &s.ClientCPUs }},
	{Key: "shape", Flag: "shape", Kind: Enum, Default: ShapeSplit,
		DocType:    "`split` or `shared`",
		Doc:        "machine shape: `split` runs the server on `server_cpus` and the load generators on `client_cpus`; `shared` runs both sides on both lists together, as on one machine (the originals' shape). A JVM is told the number of CPUs its process may use (`-XX:ActiveProcessorCount`); Go and Rust workers size their thread pools from their CPU affinity. Every group's shape is in the results and in the report's group header",
		DriverOnly: "the driver pins and sizes the processes",
		Choices: []Choice{{ShapeSplit, "the server on server_cpus, the load generators on client_cpus"},
			{ShapeShared, "the server and the load generators all on server_cpus and client_cpus together, as on one machine"}},
		Help:  "Machine shape: split (each side on its own CPUs) or shared (both sides on all of them, as the originals ran); a JVM's ActiveProcessorCount and a Go worker's GOMAXPROCS follow the CPUs its process may use.",
		field: func(s *Spec) any { return &s.Shape }},
	{Key: "isolation", Kind: Enum, Default: IsolationFreeze,
		DocType:    "`freeze` or `none`",
		Doc:        "in interleaved rounds, freeze the other targets' processes (server and client workers, and what they start) during each target's warm-up and slices, so that a neighbour's JIT, GC and timers run in its own slices (`docs/method.md`, \"Isolation\"); `none` lets every target run all the time. Remote workers are never frozen (the results say so)",
		DriverOnly: "the driver freezes the processes",
		Choices: []Choice{{IsolationFreeze, "the other targets' processes are frozen during each target's warm-up and slices"},
			{IsolationNone, "every target's processes run all the time"}},
		Help:  "Interleaved rounds: freeze the other targets' processes while one target has its slice, so a neighbour's JIT, GC and timers run in its own slices (docs/method.md).",
		field: func(s *Spec) any { return &s.Isolation }},
	{Key: "worker_lifetime", Kind: Enum, Default: WorkersPerFork,
		DocType:    "`per-fork` or `per-group`",
		Doc:        "whether the comparison groups that follow one another in a suite with the same targets (stacks, protocol, transport, pinning, shape, runtime options) share each fork's worker processes: `per-fork` starts each target's workers once a fork and measures every such group on them in turn, each with its own warm-up and rounds, so a JVM starts and first warms up once per fork (`docs/method.md`, \"Warm once\"); `per-group` starts new workers for every group's forks",
		DriverOnly: "the driver keeps the processes for a fork or a group",
		Choices: []Choice{{WorkersPerFork, "a fork's worker processes serve every group of the suite with the same targets, one after the other, so a JVM warms up once per fork"},
			{WorkersPerGroup, "each group's forks start worker processes of their own"}},
		Help:  "Whether the groups of a suite that have the same targets share each fork's worker processes (warm once per fork) or start their own (docs/method.md, \"Warm once\").",
		field: func(s *Spec) any { return &s.Workers }},
	{Key: "reference", Flag: "reference", Kind: Duration, Default: DefaultReference, Max: int64(MaxReference),
		DocType:    "duration, 0 to 1s",
		Doc:        "how long a fixed workload that depends on the machine alone (person.get over the in-process `direct` stack, one thread pinned to the server's CPUs) runs before the first group and after the last of each batch (the groups that share workers, or one group), never inside a group's rounds: the results record its speed and time (`reference` in `results.json`), so a run says how much the machine moved under it and two runs how much it moved between them (`docs/method.md`, \"What an interval promises\"); counted in the estimate; `0s` turns it off",
		DriverOnly: "the driver measures the reference in its own process",
		Help:       "How long a fixed workload that depends on the machine alone (person.get over direct, one pinned thread) runs before and after each batch of groups, so the results say how much the machine moved under the run and between runs (0: not measured; docs/method.md).",
		field:      func(s *Spec) any { return &s.Reference }},
	{Key: "data_size", Flag: "data-size", Kind: Int, Default: int64(contract.DefaultSize), Min: 1, Max: MaxDataSize, Wire: "data_size",
		DocType: "integer, 1 to 1 000 000",
		Doc:     "persons in the data set",
		Help:    "Persons in the data set (servers and clients must agree).",
		field:   func(s *Spec) any { return &s.DataSize }},
	{Key: "data_seed", Flag: "seed", Kind: Uint, Default: uint64(contract.DefaultSeed), Wire: "data_seed",
		DocType: "integer ≥ 0",
		Doc:     "seed of the data set",
		Help:    "Seed of the data set (servers and clients must agree).",
		field:   func(s *Spec) any { return &s.DataSeed }},
	{Key: "arrival_seed", Flag: "arrival-seed", Kind: Uint, Default: uint64(1), Wire: "arrival_seed",
		DocType: "integer ≥ 0",
		Doc:     "seed of Poisson arrivals",
		Help:    "Seed of Poisson arrivals.",
		field:   func(s *Spec) any { return &s.ArrivalSeed }},
	{Key: "max_message_size", Flag: "max-message-size", Kind: Size, Default: int64(DefaultMaxMessageSize), Min: 1, Max: MaxMessageSize, Wire: "max_message_size",
		DocType: "size",
		Doc:     "largest message either side accepts",
		Help:    "Largest message either side accepts.",
		field:   func(s *Spec) any { return &s.MaxMessageSize }},
	{Key: "runtime_args", Flag: "runtime-args", Kind: Args, PerTarget: true,
		DocType:    "the runtime's options, separated by spaces",
		Doc:        "options of the workers' runtime (server and client), each passed as that runtime takes them, after its launcher's defaults: a JVM's after `-Xms1g -Xmx1g -XX:+UseG1GC -XX:ActiveProcessorCount=N` (N: the CPUs the worker is pinned to), e.g. an original's `\"-Xms2G -Xmx2G\"` (docs/java-worker.md); Python's after `-X faulthandler` (e.g. `-Xdev`; a value joined to its option); Node's after `--max-old-space-size=4096` (e.g. `--max-old-space-size=8192`); Go and Rust workers take none. Set it on the targets of one runtime when a suite mixes them (a JVM's options are not Node's). Recorded in the results as the stack's `runtime_args`. Read under its former name `jvm_args` too (`--jvm-args` on the command line), with a note to rename it",
		DriverOnly: "the launcher gives the runtime its options",
		OldKey:     "jvm_args", OldFlag: "jvm-args",
		Want:  `the runtime's options separated by spaces, e.g. "-Xms2G -Xmx2G" (the driver names what it runs)`,
		Help:  `Options of the workers' runtime, the JVM's, Python's or Node's, after its launcher's defaults (e.g. "-Xms2G -Xmx2G" for a JVM); Go and Rust workers take none (docs/suites.md).`,
		field: func(s *Spec) any { return &s.RuntimeArgs }},
	// The message workload's settings: a user's message (docs/your-service.md). The
	// driver reads the schema and the data and sends both to the workers (the
	// control message's message_schema and message_data), so the file names stay
	// with the driver; the generator's knobs travel for the record.
	{Key: "message_proto", Flag: "proto", Kind: Text,
		DocType:    "a file name",
		Doc:        "the message workload: the `.proto` that defines `message`, compiled at run time (protocompile; google/protobuf's well-known types always importable); read by the driver, whose workers get the compiled schema ([your-service.md](your-service.md#your-messages-on-every-protocol))",
		DriverOnly: "the driver reads the schema and sends it compiled (message_schema)",
		Help:       "message workload: the .proto file that defines --message (compiled at run time; google/protobuf's well-known types are always importable).",
		field:      func(s *Spec) any { return &s.MessageProto }},
	{Key: "message_import_paths", Flag: "import-paths", Kind: Text,
		DocDefault: "`message_proto`'s own directory",
		DocType:    "directories, comma-separated",
		Doc:        "where `message_proto` and its imports are found",
		DriverOnly: "the driver reads the schema and sends it compiled (message_schema)",
		Help:       "message workload: directories, comma-separated, where --proto and its imports are found (default: --proto's own directory).",
		field:      func(s *Spec) any { return &s.MessageImportPaths }},
	{Key: "message", Flag: "message", Kind: Text, Wire: "message_name",
		DocType: "a full message name",
		Doc:     "the message workload: the message echoed (`package.Message`)",
		Help:    "message workload: the full name of the message echoed (package.Message).",
		field:   func(s *Spec) any { return &s.MessageName }},
	{Key: "message_data_file", Flag: "data-file", Kind: Text,
		DocDefault: "none (generated)",
		DocType:    "a file name",
		Doc:        "the message workload: the messages sent, one protojson message a line, taken in turn; without it, `message_count` messages are generated from `data_seed`",
		DriverOnly: "the driver reads the messages and sends them (message_data)",
		Help:       "message workload: the messages sent, one protojson message a line, taken in turn (default: generated from the schema and --seed).",
		field:      func(s *Spec) any { return &s.MessageDataFile }},
	{Key: "message_count", Flag: "message-count", Kind: Int, Default: int64(16), Min: 1, Max: MaxMessageCount, Wire: "message_count",
		DocType: "1–10000",
		Doc:     "generated messages (taken in turn)",
		Help:    "message workload: distinct messages generated (taken in turn) when no --data-file is given.",
		field:   func(s *Spec) any { return &s.MessageCount }},
	{Key: "message_string_len", Flag: "string-len", Kind: Size, Default: int64(16), Min: 0, Max: MaxMessageFieldLen, Wire: "message_string_len",
		DocType: "size, 0–1MiB",
		Doc:     "generated messages: the length of every string, map key and string value (ASCII)",
		Help:    "message workload, generated messages: the length of every string field, map key and value (ASCII, so bytes).",
		field:   func(s *Spec) any { return &s.MessageStringLen }},
	{Key: "message_bytes_len", Flag: "bytes-len", Kind: Size, Default: int64(16), Min: 0, Max: MaxMessageFieldLen, Wire: "message_bytes_len",
		DocType: "size, 0–1MiB",
		Doc:     "generated messages: the length of every bytes field",
		Help:    "message workload, generated messages: the length of every bytes field.",
		field:   func(s *Spec) any { return &s.MessageBytesLen }},
	{Key: "message_repeated", Flag: "repeated-len", Kind: Int, Default: int64(3), Min: 0, Max: MaxMessageRepeated, Wire: "message_repeated",
		DocType: "0–10000",
		Doc:     "generated messages: the elements of every repeated field and the entries of every map",
		Help:    "message workload, generated messages: the elements of every repeated field and the entries of every map.",
		field:   func(s *Spec) any { return &s.MessageRepeated }},
}

// LookupSetting returns the setting of a suite key, or nil.
func LookupSetting(key string) *Setting {
	for _, st := range Settings {
		if st.Key == key {
			return st
		}
	}
	return nil
}

// RenamedSetting returns the setting whose former suite key (OldKey) is key, or nil.
func RenamedSetting(key string) *Setting {
	for _, st := range Settings {
		if st.OldKey != "" && st.OldKey == key {
			return st
		}
	}
	return nil
}

// SettingKeys returns the suite keys of the settings, in table order.
func SettingKeys() []string { return keysOf(Settings) }

// keysOf returns the suite keys of a table's settings, in its order.
func keysOf(table []*Setting) []string {
	keys := make([]string, len(table))
	for i, st := range table {
		keys[i] = st.Key
	}
	return keys
}

// Get returns the setting's value in s, of the type its Kind names.
func (st *Setting) Get(s Spec) Value {
	switch p := st.field(&s).(type) {
	case *float64:
		return *p
	case *bool:
		return *p
	case *[]SLO:
		return slices.Clone(*p)
	case *time.Duration:
		return *p
	case *int:
		return int64(*p)
	case *int64:
		return *p
	case *uint64:
		return *p
	case *string:
		return *p
	case *[]int:
		return slices.Clone(*p)
	case *[]string:
		return slices.Clone(*p)
	}
	panic("spec: setting " + st.Key + " points at a field of a type Settings does not handle")
}

// Set stores v, of the type the setting's Kind names, in s. Setting one of two
// alternatives (duration, ops) clears the other. Lists are copied; an empty list is
// stored as nil.
func (st *Setting) Set(s *Spec, v Value) {
	switch p := st.field(s).(type) {
	case *time.Duration:
		*p = v.(time.Duration)
	case *int:
		*p = int(v.(int64))
	case *int64:
		*p = v.(int64)
	case *uint64:
		*p = v.(uint64)
	case *string:
		*p = v.(string)
	case *[]int:
		*p = nilIfEmpty(slices.Clone(v.([]int)))
	case *[]string:
		*p = nilIfEmpty(slices.Clone(v.([]string)))
	case *float64:
		*p = v.(float64)
	case *bool:
		*p = v.(bool)
	case *[]SLO:
		*p = nilIfEmpty(slices.Clone(v.([]SLO)))
	default:
		panic("spec: setting " + st.Key + " points at a field of a type Settings does not handle")
	}
	if alt := LookupSetting(st.Alternative); alt != nil && !st.unset(v) {
		alt.clear(s)
	}
}

func nilIfEmpty[T any](v []T) []T {
	if len(v) == 0 {
		return nil
	}
	return v
}

// clear sets the setting's field of s to its zero value.
func (st *Setting) clear(s *Spec) {
	switch p := st.field(s).(type) {
	case *time.Duration:
		*p = 0
	case *int64:
		*p = 0
	default:
		panic("spec: setting " + st.Key + " is an alternative of a type Settings does not clear")
	}
}

// unset reports whether v is the zero value that leaves an alternative unchosen.
func (st *Setting) unset(v Value) bool {
	switch v := v.(type) {
	case time.Duration:
		return v == 0
	case int64:
		return v == 0
	}
	return false
}

// Check returns what is wrong with v as the setting's value ("" when nothing): the
// message after "KEY: " in a suite's error at the value, and in Validate's *Error.
func (st *Setting) Check(v Value) string {
	switch st.Kind {
	case Duration:
		if d := v.(time.Duration); int64(d) < st.Min || int64(d) > st.Max {
			return fmt.Sprintf("%v is out of range [%v, %v]", d, time.Duration(st.Min), time.Duration(st.Max))
		}
	case Int:
		if n := v.(int64); n < st.Min || n > st.Max {
			return fmt.Sprintf("%d is out of range [%d, %d]", n, st.Min, st.Max)
		}
	case Size:
		if n := v.(int64); n < st.Min || n > st.Max {
			return fmt.Sprintf("%s is out of range [%s, %s]", units.Size(n), units.Size(st.Min), units.Size(st.Max))
		}
	case Enum:
		if s := v.(string); !slices.ContainsFunc(st.Choices, func(c Choice) bool { return c.Value == s }) {
			return fmt.Sprintf("%q, want %s", s, st.ChoiceList())
		}
	case CPUs:
		for _, c := range v.([]int) {
			if c < 0 {
				return fmt.Sprintf("CPU %d: CPU numbers start at 0", c)
			}
		}
	case Args:
		for _, a := range v.([]string) {
			if !strings.HasPrefix(a, "-") || slices.Contains(programArgs, a) {
				return fmt.Sprintf("%q, want %s", a, st.Want)
			}
		}
	case Text:
		if t := v.(string); strings.ContainsAny(t, "\n\x00") {
			return fmt.Sprintf("%q: one line of text, please", t)
		}
	case Float:
		if f := v.(float64); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Sprintf("%v, want a finite number", f)
		}
	}
	return ""
}

// programArgs are the runtime options that name what the runtime runs, which the
// driver names itself (its worker): a JVM's -jar, -cp, -classpath and -p (a module
// path), Python's -m and -c, Node's -e, --eval and --print.
var programArgs = []string{"-jar", "-cp", "-classpath", "-p", "-m", "-c", "-e", "--eval", "--print"}

// ChoiceList says the values of an Enum setting with their meanings: "thrpt
// (ops/s) or avgt (time per op)".
func (st *Setting) ChoiceList() string {
	parts := make([]string, len(st.Choices))
	for i, c := range st.Choices {
		parts[i] = c.Value + " (" + c.Means + ")"
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// Format writes v as a suite file and the command line read it: "1s", "5", "16MiB",
// "0-1", "none" (CPUs nil), "-Xms2G -Xmx2G", "0.05", "p99=10ms,p99.9=50ms" (the
// command line's repeated flag, comma-separated): the flags' defaults, and what the
// suite reader reads back to v.
func (st *Setting) Format(v Value) string {
	switch v := v.(type) {
	case time.Duration:
		return v.String()
	case int64:
		if st.Kind == Size {
			return units.Size(v).String()
		}
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case string:
		return v
	case []int:
		if len(v) == 0 {
			return "none"
		}
		return cpuset.FormatCPUList(v)
	case []string:
		return strings.Join(v, " ")
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case []SLO:
		parts := make([]string, len(v))
		for i, o := range v {
			parts[i] = o.String()
		}
		return strings.Join(parts, ",")
	}
	panic(fmt.Sprintf("spec: setting %s: no format for %T", st.Key, v))
}

// equalValues reports whether two values of one setting are equal (a nil and an
// empty list are).
func equalValues(a, b Value) bool {
	switch a := a.(type) {
	case []int:
		return slices.Equal(a, b.([]int))
	case []string:
		return slices.Equal(a, b.([]string))
	case []SLO:
		return slices.Equal(a, b.([]SLO))
	}
	return a == b
}

// checkSettings checks every setting of s against its bounds (Check), in table
// order, and returns the first problem as an *Error. An alternative's zero value is
// the alternative not chosen, not a value.
func (s Spec) checkSettings() error {
	for _, st := range Settings {
		v := st.Get(s)
		if st.Alternative != "" && st.unset(v) {
			continue
		}
		if msg := st.Check(v); msg != "" {
			return &Error{Setting: st.Key, Msg: msg}
		}
	}
	return nil
}

// SettingsTable is docs/suites.md's settings table, in Markdown: a row a setting, in
// the table's order, with its key, its DocType, its default and its Doc.
func SettingsTable() string {
	var b strings.Builder
	b.WriteString("| key | type | default | meaning |\n|---|---|---|---|\n")
	d := Default()
	for _, st := range Settings {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", st.Key, st.DocType, st.docDefault(d), st.Doc)
	}
	return b.String()
}

// docDefault is st's default as its row of the settings table gives it: DocDefault,
// else its value in d as a suite file writes it, in backquotes (a CPU list quoted, as
// YAML needs it), else "none" ("`0`" for a duration).
func (st *Setting) docDefault(d Spec) string {
	v := st.Get(d)
	zero := v == nil || reflect.ValueOf(v).IsZero()
	switch {
	case st.DocDefault != "":
		return st.DocDefault
	case zero && st.Kind == Duration:
		return "`0`"
	case zero:
		return "none"
	case st.Kind == CPUs:
		return "`\"" + st.Format(v) + "\"`"
	}
	return "`" + st.Format(v) + "`"
}
