package main

import (
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/quick"
	"time"

	"github.com/alecthomas/kong"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/spectest"
)

// TestSettingFlags: bench has a flag for every setting with one, named, explained
// and defaulted as the table says; capacity the same less those its search sets.
func TestSettingFlags(t *testing.T) {
	parser, err := kong.New(newCLI(), kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	omitted := map[string][]string{"capacity": {"rounds", "duration", "ops", "forks", "mode"}}
	for _, cmd := range parser.Model.Children {
		if cmd.Name != "bench" && cmd.Name != "capacity" {
			continue
		}
		flags := map[string]*kong.Flag{}
		for _, f := range cmd.Flags {
			flags[f.Name] = f
		}
		for _, st := range spec.Settings {
			f := flags[st.Flag]
			switch {
			case st.Flag == "":
			case slices.Contains(sharedMessageFlags, st.Key):
				if f == nil { // an outside call's flag of that name sets it (messageFiles)
					t.Errorf("%s has no --%s for setting %s", cmd.Name, st.Flag, st.Key)
				}
			case slices.Contains(omitted[cmd.Name], st.Key):
				if f != nil {
					t.Errorf("%s has --%s, which its search sets itself", cmd.Name, st.Flag)
				}
			case f == nil:
				t.Errorf("%s has no --%s for setting %s", cmd.Name, st.Flag, st.Key)
			case f.Help != st.Help:
				t.Errorf("%s --%s: help %q, want the table's %q", cmd.Name, st.Flag, f.Help, st.Help)
			case st.Short != f.Short:
				t.Errorf("%s --%s: short -%c, want -%c", cmd.Name, st.Flag, f.Short, st.Short)
			}
		}
	}
	// The defaults as users see them, written out (not taken from spec.Default).
	want := map[string]string{"warmup": "1s", "rounds": "5", "duration": "1s", "forks": "1", "mode": "thrpt",
		"call-timeout": "10s", "server-cpus": "0", "client-cpus": "1", "data-size": "20", "seed": "1",
		"arrival-seed": "1", "max-message-size": "16MiB", "warmup-max": "", "keep-alive": "5s", "ops": "", "runtime-args": "", "reference": "500ms"}
	for _, cmd := range parser.Model.Children {
		if cmd.Name != "bench" {
			continue
		}
		for _, f := range cmd.Flags {
			if d, ok := want[f.Name]; ok && f.Default != d {
				t.Errorf("bench --%s: default %q, want %q", f.Name, f.Default, d)
			}
			delete(want, f.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("bench lacks flags %v", want)
	}
}

// sharedMessageFlags are the settings whose flags are an outside call's too
// (--proto, --import-paths, --data-file): bench reads them with -w message
// (outsideFlags.messageFiles, TestMessageFilesFromSharedFlags), not from the table.
var sharedMessageFlags = []string{"message_proto", "message_import_paths", "message_data_file"}

// flagArgs is a bench command line setting every setting with a flag (but the CPU
// lists, which must name CPUs of this machine) to values drawn over their bounds.
type flagArgs struct {
	args []string
	want spec.Spec
}

func (flagArgs) Generate(r *rand.Rand, _ int) reflect.Value {
	want := spec.Default()
	spectest.Settings(r, &want)
	want.Method, want.ServerCPUs, want.ClientCPUs = spec.MethodSequential, nil, nil
	// Suite settings only: bench measures one target, in one group.
	want.Isolation, want.Workers = spec.IsolationFreeze, spec.WorkersPerFork
	args := []string{"bench", "-p", "http-json", "--no-pin"}
	for _, st := range spec.Settings {
		if slices.Contains(sharedMessageFlags, st.Key) {
			st.Set(&want, st.Get(spec.Default())) // not given: see TestMessageFilesFromSharedFlags
			continue
		}
		if st.Flag == "" || st.Kind == spec.CPUs {
			continue
		}
		args = append(args, "--"+st.Flag+"="+st.Format(st.Get(want)))
	}
	return reflect.ValueOf(flagArgs{args: args, want: want})
}

// TestSettingFlagsRoundTrip: settings given as bench's flags are the settings of the
// benchmark it builds.
func TestSettingFlagsRoundTrip(t *testing.T) {
	roundTrip := func(a flagArgs) bool {
		c := newCLI()
		parser, err := kong.New(c, kong.Vars(cliVars()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parser.Parse(a.args); err != nil {
			t.Errorf("%v: %v", a.args, err)
			return false
		}
		res, err := c.Bench.spec()
		if err != nil {
			t.Errorf("%v: %v", a.args, err)
			return false
		}
		for _, st := range spec.Settings {
			if g, w := st.Get(res.Spec), st.Get(a.want); !reflect.DeepEqual(g, w) {
				t.Errorf("%s: built %v, flags said %v\n%v", st.Key, g, w, a.args)
				return false
			}
		}
		return true
	}
	if err := quick.Check(roundTrip, &quick.Config{MaxCount: 300, Rand: rand.New(rand.NewSource(1))}); err != nil {
		t.Error(err)
	}
}

// TestCapacityFlags: capacity has a flag for every setting of the search's table,
// named, explained and defaulted as the table says, and the flags given are the
// search the command builds.
func TestCapacityFlags(t *testing.T) {
	c := newCLI()
	parser, err := kong.New(c, kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	flags := flagsOf(parser, "capacity")
	for _, st := range spec.CapacitySettings {
		if f := flags[st.Flag]; f == nil {
			t.Errorf("capacity has no --%s for setting %s", st.Flag, st.Key)
		} else if f.Help != st.Help {
			t.Errorf("capacity --%s: help %q, want the table's %q", st.Flag, f.Help, st.Help)
		}
	}
	// The defaults as users see them, written out ("": none, the zero value).
	want := map[string]string{"slo": "p99=10ms", "max-error-rate": "", "budget": "2m0s", "step": "1s", "confirm": "5s",
		"resolution": "0.05", "start-rate": "1000", "sweep": "", "concurrency": "1000"}
	for name, d := range want {
		if f := flags[name]; f == nil || f.Default != d {
			t.Errorf("capacity --%s: %v, want default %q", name, f, d)
		}
	}
	_, err = parser.Parse([]string{"capacity", "-p", "http-json", "--no-pin", "--slo", "p99=5ms", "--slo", "p99.9=20ms",
		"--max-error-rate", "0.01", "--budget", "30s", "--step", "2s", "--confirm", "0s", "--resolution", "0.1",
		"--start-rate", "500", "--sweep", "-c", "64"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Capacity.spec()
	if err != nil {
		t.Fatal(err)
	}
	wantCap := spec.Capacity{SLOs: []spec.SLO{{Quantile: 99, Max: 5 * time.Millisecond}, {Quantile: 99.9, Max: 20 * time.Millisecond}},
		MaxErrorRate: 0.01, Budget: 30 * time.Second, Step: 2 * time.Second, Confirm: 0, Resolution: 0.1, Sweep: true}
	if got := res.Spec.Capacity; got == nil || !reflect.DeepEqual(*got, wantCap) {
		t.Errorf("capacity %+v, want %+v", got, wantCap)
	}
	if l := res.Spec.Load; l.Rate != 500 || l.Concurrency != 64 || res.Spec.SliceTime != 2*time.Second {
		t.Errorf("load %+v, slice %v; want 500 ops/s from -c 64, steps of 2s", l, res.Spec.SliceTime)
	}
	// An objective that is not one is a usage error naming the flag.
	c = newCLI()
	parser, err = kong.New(c, kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"capacity", "-p", "http-json", "--no-pin", "--slo", "q50=1ms"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Capacity.spec(); err == nil || !strings.HasPrefix(err.Error(), `--slo: SLO "q50=1ms"`) {
		t.Errorf("--slo q50=1ms: %v, want a usage error naming --slo", err)
	}
}

// TestLoadFlags: bench has a flag for every load key with one (spec.LoadKeys), named,
// shortened and explained as the table says.
func TestLoadFlags(t *testing.T) {
	parser, err := kong.New(newCLI(), kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	flags := flagsOf(parser, "bench")
	for _, k := range spec.LoadKeys {
		if k.Flag == "" {
			continue
		}
		switch f := flags[k.Flag]; {
		case f == nil:
			t.Errorf("bench has no --%s for load key %s", k.Flag, k.Key)
		case f.Help != k.Help || f.Short != k.Short:
			t.Errorf("bench --%s: help %q, short %q; want the table's %q, %q", k.Flag, f.Help, f.Short, k.Help, k.Short)
		}
	}
}

// TestKeyFlags: bench has a flag for every suite key that has one (spec.FileKeys,
// TargetKeys, OutsideKeys, WorkloadKeys, WorkersKeys), and run one for every key of
// the workers block and for link, each named, shortened and explained as the table
// says.
func TestKeyFlags(t *testing.T) {
	parser, err := kong.New(newCLI(), kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	check := func(cmd string, k spec.Key) {
		switch f := flagsOf(parser, cmd)[k.Flag]; {
		case f == nil:
			t.Errorf("%s has no --%s for suite key %s", cmd, k.Flag, k.Key)
		case f.Help != k.Help || f.Short != k.Short:
			t.Errorf("%s --%s: help %q, short %q; want the table's %q, %q", cmd, k.Flag, f.Help, f.Short, k.Help, k.Short)
		}
	}
	n := 0
	for _, table := range keyTables {
		for _, k := range table {
			if k.Flag != "" {
				check("bench", k)
				n++
			}
		}
	}
	for _, k := range append(spec.WorkersKeys, spec.FileKeys...) {
		if k.Flag != "" {
			check("run", k) // the workers block's, and the file's link
		}
	}
	// The flags of the table, counted by hand: protocol, server-stack, client-stack,
	// transport, tls, address, option, server-option; the call's 11 (url has none:
	// bench's --address takes a URL too); workload, payload, increments, trades,
	// trade; the workers block's 10; link.
	if n != 8+11+5+10+1 {
		t.Errorf("the key tables have %d flags, want 35", n)
	}
}

// The defaults of flags outside the settings table that mean a setting, as users
// see them, written out: call's and conform's --timeout is the call timeout.
func TestDefaultsOfSettingsElsewhere(t *testing.T) {
	parser, err := kong.New(newCLI(), kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"call":    {"timeout": "10s", "max-message-size": "16MiB"},
		"conform": {"timeout": "10s", "max-message-size": "16MiB"},
		"serve":   {"max-message-size": "16MiB", "data-size": "20", "seed": "1"},
		"bench":   {"trade": "compact", "concurrency": "50", "connections": "1"},
	}
	for _, cmd := range parser.Model.Children {
		for _, f := range cmd.Flags {
			if d, ok := want[cmd.Name][f.Name]; ok {
				if f.Default != d {
					t.Errorf("%s --%s: default %q, want %q", cmd.Name, f.Name, f.Default, d)
				}
				delete(want[cmd.Name], f.Name)
			}
		}
	}
	for cmd, left := range want {
		if len(left) > 0 {
			t.Errorf("%s lacks flags %v", cmd, left)
		}
	}
}

// flagsOf are the flags of command name, by name.
func flagsOf(parser *kong.Kong, name string) map[string]*kong.Flag {
	flags := map[string]*kong.Flag{}
	for _, cmd := range parser.Model.Children {
		if cmd.Name == name {
			for _, f := range cmd.Flags {
				flags[f.Name] = f
			}
		}
	}
	return flags
}

// TestMessageFilesFromSharedFlags: with -w message, --proto, --import-paths and
// --data-file (an outside call's flags) are the message workload's schema, import
// paths (comma-separated, as the suite key) and data file.
func TestMessageFilesFromSharedFlags(t *testing.T) {
	c := newCLI()
	parser, err := kong.New(c, kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = parser.Parse([]string{"bench", "-p", "grpc-proto", "-w", "message", "--message", "shop.v1.Order",
		"--proto", "../../docs/examples/shop.proto", "--import-paths", "a,b", "--data-file", "../../docs/examples/orders.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	other := spec.Spec{Workload: "person.get"}
	if err := c.Bench.outsideFlags.messageFiles(&other); err != nil || other.MessageProto != "" {
		t.Errorf("person.get took the message files: %q, %v", other.MessageProto, err)
	}
	s := spec.Spec{Workload: "message"}
	if err := c.Bench.outsideFlags.messageFiles(&s); err != nil {
		t.Fatal(err)
	}
	if s.MessageProto != "../../docs/examples/shop.proto" || s.MessageImportPaths != "a,b" || s.MessageDataFile != "../../docs/examples/orders.jsonl" {
		t.Errorf("message files %q, %q, %q", s.MessageProto, s.MessageImportPaths, s.MessageDataFile)
	}
	c.Bench.outsideFlags.Proto = []string{"a.proto", "b.proto"}
	if err := c.Bench.outsideFlags.messageFiles(&s); err == nil {
		t.Error("two .proto files taken for the message workload")
	}
}
