package spec

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

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

// Setting is one benchmark setting: its suite key, flag, type, bounds, help and the
// field of Spec it fills. The table Settings is the one place a setting is defined;
// the suite reader, the bench command's flags and defaults, Validate and the control
// message sent to workers all derive from it.
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
	// Want says what a valid value is when the bounds alone do not (e.g. runtime_args).
	Want string
	// Help is the flag's help, and the meaning docs/suites.md gives.
	Help string
	// Wire is the controlpb.Benchmark field that carries the setting to workers, in a
	// unit the field's name says (_nanos: nanoseconds); "" for a setting only the
	// driver reads.
	Wire string
	// PerTarget is set for a setting the targets of one comparison group may each
	// have their own of (a JVM stack's longer warmup); the others are the group's
	// plan (SamePlan).
	PerTarget bool
	// OldKey and OldFlag are the setting's former suite key and flag, still read so
	// that users' suite files and scripts keep working: the suite reader and the
	// command line each say, once, that the old name is deprecated and name the new
	// one (RenamedSetting, RenamedKey). "" for none.
	OldKey, OldFlag string
	// Alternative names the setting this one excludes: an iteration lasts a duration
	// or a number of ops. The zero value of either means "not chosen".
	Alternative string
	// field points at the setting's field in s.
	field func(s *Spec) any
}

// Settings is the table of benchmark settings, in the order docs/suites.md lists
// them (and a suite's "valid:" key lists name them).
var Settings = []*Setting{
	{Key: "warmup", Flag: "warmup", Kind: Duration, Max: int64(MaxTime), Wire: "warmup_nanos", PerTarget: true,
		Help:  "Warmup before measuring, in each fork (0 for none).",
		field: func(s *Spec) any { return &s.Warmup }},
	{Key: "warmup_max", Flag: "warmup-max", Kind: Duration, Max: int64(MaxTime), PerTarget: true,
		Help:  "Make the warmup adaptive: after the warmup, go on in 1s slices until they stop changing, for at most this long (0: the warmup is fixed).",
		field: func(s *Spec) any { return &s.WarmupMax }},
	{Key: "keep_alive", Flag: "keep-alive", Kind: Duration, Max: int64(MaxTime), PerTarget: true,
		Help:  "Interleaved rounds: while the group's other targets warm up, give a target already warmed up an unmeasured slice of its own load at least this often, so no timer of its (an idle connection's, a keep-alive's) finds it idle longer (0: never; docs/method.md).",
		field: func(s *Spec) any { return &s.KeepAlive }},
	{Key: "iterations", Flag: "iterations", Short: 'i', Kind: Int, Min: 1, Max: MaxIterations, Wire: "iterations",
		Help:  "Rounds measured per fork: each is one slice of every target of a comparison group (a results file keeps the slices as a fork's iterations).",
		field: func(s *Spec) any { return &s.Iterations }},
	{Key: "duration", Flag: "duration", Short: 'd', Kind: Duration, Min: int64(time.Millisecond), Max: int64(MaxTime), Wire: "iteration_nanos",
		Alternative: "ops",
		Help:        "Length of each measured slice (one target's part of a round).",
		field:       func(s *Spec) any { return &s.IterationTime }},
	{Key: "ops", Flag: "ops", Kind: Int, Min: 1, Max: MaxOps, Wire: "iteration_ops",
		Alternative: "duration",
		Help:        "Make each slice this many ops instead of a duration long.",
		field:       func(s *Spec) any { return &s.IterationOps }},
	{Key: "forks", Flag: "forks", Kind: Int, Min: 1, Max: MaxForks, Wire: "forks",
		OldKey: "trials", OldFlag: "trials",
		Help:  "Forks, each with fresh server and client processes.",
		field: func(s *Spec) any { return &s.Forks }},
	{Key: "mode", Flag: "mode", Kind: Enum, Wire: "mode",
		Choices: []Choice{{ModeThroughput, "ops/s"}, {ModeAverageTime, "time per op"}},
		Help:    "Score: thrpt (ops/s) or avgt (ms per op per caller).",
		field:   func(s *Spec) any { return &s.Mode }},
	{Key: "method", Kind: Enum, Wire: "method",
		Choices: []Choice{{MethodInterleaved, "rounds of short slices over a comparison group's targets"}, {MethodSequential, "one after the other"}},
		Help:    "How a comparison group is measured: interleaved rounds or one target after the other.",
		field:   func(s *Spec) any { return &s.Method }},
	{Key: "call_timeout", Flag: "call-timeout", Kind: Duration, Max: int64(MaxTime), Wire: "call_timeout_nanos",
		Help:  "A call taking longer fails as a timeout (0: none).",
		field: func(s *Spec) any { return &s.CallTimeout }},
	{Key: "server_cpus", Flag: "server-cpus", Kind: CPUs,
		Help:  "CPUs of the server process (Linux list, e.g. 0 or 0-1).",
		field: func(s *Spec) any { return &s.ServerCPUs }},
	{Key: "client_cpus", Flag: "client-cpus", Kind: CPUs,
		Help:  "CPUs of the load generator process.",
		field: func(s *Spec) any { return &s.ClientCPUs }},
	{Key: "shape", Flag: "shape", Kind: Enum,
		Choices: []Choice{{ShapeSplit, "the server on server_cpus, the load generators on client_cpus"},
			{ShapeShared, "the server and the load generators all on server_cpus and client_cpus together, as on one machine"}},
		Help:  "Machine shape: split (each side on its own CPUs) or shared (both sides on all of them, as the originals ran); a JVM's ActiveProcessorCount and a Go worker's GOMAXPROCS follow the CPUs its process may use.",
		field: func(s *Spec) any { return &s.Shape }},
	{Key: "isolation", Kind: Enum,
		Choices: []Choice{{IsolationFreeze, "the other targets' processes are frozen during each target's warm-up and slices"},
			{IsolationNone, "every target's processes run all the time"}},
		Help:  "Interleaved rounds: freeze the other targets' processes while one target has its slice, so a neighbour's JIT, GC and timers run in its own slices (docs/method.md).",
		field: func(s *Spec) any { return &s.Isolation }},
	{Key: "worker_lifetime", Kind: Enum,
		Choices: []Choice{{WorkersPerFork, "a fork's worker processes serve every group of the suite with the same targets, one after the other, so a JVM warms up once per fork"},
			{WorkersPerGroup, "each group's forks start worker processes of their own"}},
		Help:  "Whether the groups of a suite that have the same targets share each fork's worker processes (warm once per fork) or start their own (docs/method.md, \"Warm once\").",
		field: func(s *Spec) any { return &s.Workers }},
	{Key: "reference", Flag: "reference", Kind: Duration, Max: int64(MaxReference),
		Help:  "How long a fixed workload that depends on the machine alone (person.get over direct, one pinned thread) runs before and after each batch of groups, so the results say how much the machine moved under the run and between runs (0: not measured; docs/method.md).",
		field: func(s *Spec) any { return &s.Reference }},
	{Key: "data_size", Flag: "data-size", Kind: Int, Min: 1, Max: MaxDataSize, Wire: "data_size",
		Help:  "Persons in the data set (servers and clients must agree).",
		field: func(s *Spec) any { return &s.DataSize }},
	{Key: "data_seed", Flag: "seed", Kind: Uint, Wire: "data_seed",
		Help:  "Seed of the data set (servers and clients must agree).",
		field: func(s *Spec) any { return &s.DataSeed }},
	{Key: "arrival_seed", Flag: "arrival-seed", Kind: Uint, Wire: "arrival_seed",
		Help:  "Seed of Poisson arrivals.",
		field: func(s *Spec) any { return &s.ArrivalSeed }},
	{Key: "max_message_size", Flag: "max-message-size", Kind: Size, Min: 1, Max: MaxMessageSize, Wire: "max_message_size",
		Help:  "Largest message either side accepts.",
		field: func(s *Spec) any { return &s.MaxMessageSize }},
	{Key: "runtime_args", Flag: "runtime-args", Kind: Args, PerTarget: true,
		OldKey: "jvm_args", OldFlag: "jvm-args",
		Want:  `the runtime's options separated by spaces, e.g. "-Xms2G -Xmx2G" (the driver names what it runs)`,
		Help:  `Options of the workers' runtime, the JVM's, Python's or Node's, after its launcher's defaults (e.g. "-Xms2G -Xmx2G" for a JVM); Go and Rust workers take none (docs/suites.md).`,
		field: func(s *Spec) any { return &s.RuntimeArgs }},
	// The message workload's settings: a user's message (docs/your-service.md). The
	// driver reads the schema and the data and sends both to the workers (the
	// control message's message_schema and message_data), so the file names stay
	// with the driver; the generator's knobs travel for the record.
	{Key: "message_proto", Flag: "proto", Kind: Text,
		Help:  "message workload: the .proto file that defines --message (compiled at run time; google/protobuf's well-known types are always importable).",
		field: func(s *Spec) any { return &s.MessageProto }},
	{Key: "message_import_paths", Flag: "import-paths", Kind: Text,
		Help:  "message workload: directories, comma-separated, where --proto and its imports are found (default: --proto's own directory).",
		field: func(s *Spec) any { return &s.MessageImportPaths }},
	{Key: "message", Flag: "message", Kind: Text, Wire: "message_name",
		Help:  "message workload: the full name of the message echoed (package.Message).",
		field: func(s *Spec) any { return &s.MessageName }},
	{Key: "message_data_file", Flag: "data-file", Kind: Text,
		Help:  "message workload: the messages sent, one protojson message a line, taken in turn (default: generated from the schema and --seed).",
		field: func(s *Spec) any { return &s.MessageDataFile }},
	{Key: "message_count", Flag: "message-count", Kind: Int, Min: 1, Max: MaxMessageCount, Wire: "message_count",
		Help:  "message workload: distinct messages generated (taken in turn) when no --data-file is given.",
		field: func(s *Spec) any { return &s.MessageCount }},
	{Key: "message_string_len", Flag: "string-len", Kind: Size, Min: 0, Max: MaxMessageFieldLen, Wire: "message_string_len",
		Help:  "message workload, generated messages: the length of every string field, map key and value (ASCII, so bytes).",
		field: func(s *Spec) any { return &s.MessageStringLen }},
	{Key: "message_bytes_len", Flag: "bytes-len", Kind: Size, Min: 0, Max: MaxMessageFieldLen, Wire: "message_bytes_len",
		Help:  "message workload, generated messages: the length of every bytes field.",
		field: func(s *Spec) any { return &s.MessageBytesLen }},
	{Key: "message_repeated", Flag: "repeated-len", Kind: Int, Min: 0, Max: MaxMessageRepeated, Wire: "message_repeated",
		Help:  "message workload, generated messages: the elements of every repeated field and the entries of every map.",
		field: func(s *Spec) any { return &s.MessageRepeated }},
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
