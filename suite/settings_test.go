package suite_test

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/quick"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/spectest"
	"github.com/wirebench/wirebench/suite"
)

// badSettings has a bad value of every setting, under defaults at line 2, and the
// whole error it gets: the value's line and column (the key's length + 5), the key,
// and what is wrong.
var badSettings = []struct{ key, value, want string }{
	{"warmup", "25h", `t.yaml:2:11: warmup: 25h0m0s is out of range [0s, 24h0m0s]`},
	{"warmup_max", "-1s", `t.yaml:2:15: warmup_max: -1s is out of range [0s, 24h0m0s]`},
	{"keep_alive", "500ms", `t.yaml:3:11: keep_alive: 500ms, want 0 (none) or at least one warm-up slice (1s): a target gets its keep-alive between its neighbours' warm-up slices`},
	{"rounds", "1000001", `t.yaml:2:11: rounds: 1000001 is out of range [1, 1000000]`},
	{"duration", "500us", `t.yaml:2:13: duration: 500µs is out of range [1ms, 24h0m0s]`},
	{"ops", "0", `t.yaml:2:8: ops: 0 is out of range [1, 1000000000000]`},
	{"forks", "1001", `t.yaml:2:10: forks: 1001 is out of range [1, 1000]`},
	{"mode", "fast", `t.yaml:2:9: mode: "fast", want thrpt (ops/s) or avgt (time per op)`},
	{"method", "random", `t.yaml:2:11: method: "random", want interleaved (rounds of short slices over a comparison group's targets) or sequential (one after the other)`},
	{"call_timeout", "1 sec", `t.yaml:2:17: call_timeout: "1 sec" is not a duration (want e.g. 500ms, 1s, 1m30s)`},
	{"server_cpus", `"0-"`, `t.yaml:2:16: server_cpus: cpu list "0-": missing CPU number (or none to not pin)`},
	{"client_cpus", "[1]", `t.yaml:2:16: client_cpus: want a CPU list such as "0", "0-1" or none, got a list`},
	{"shape", "wide", `t.yaml:2:10: shape: "wide", want split (the server on server_cpus, the load generators on client_cpus) or shared (the server and the load generators all on server_cpus and client_cpus together, as on one machine)`},
	{"isolation", "cgroup", `t.yaml:2:14: isolation: "cgroup", want freeze (the other targets' processes are frozen during each target's warm-up and slices) or none (every target's processes run all the time)`},
	{"worker_lifetime", "shared", `t.yaml:2:20: worker_lifetime: "shared", want per-fork (a fork's worker processes serve every group of the suite with the same targets, one after the other, so a JVM warms up once per fork) or per-group (each group's forks start worker processes of their own)`},
	{"reference", "2s", `t.yaml:2:14: reference: 2s is out of range [0s, 1s]`},
	{"data_size", "0", `t.yaml:2:14: data_size: 0 is out of range [1, 1000000]`},
	{"data_seed", "-1", `t.yaml:2:14: data_seed: want an integer from 0 to 18446744073709551615, got "-1"`},
	{"arrival_seed", "1.5", `t.yaml:2:17: arrival_seed: want an integer from 0 to 18446744073709551615, got "1.5"`},
	{"max_message_size", "0", `t.yaml:2:21: max_message_size: 0B is out of range [1B, 2147483647B]`},
	{"runtime_args", `"-Xmx2g -jar x.jar"`, `t.yaml:2:17: runtime_args: "-jar", want the runtime's options separated by spaces, e.g. "-Xms2G -Xmx2G" (the driver names what it runs)`},
	{"message_proto", `"a\nb.proto"`, `t.yaml:2:18: message_proto: "a\nb.proto": one line of text, please`},
	{"message_import_paths", `"a\x00b"`, `t.yaml:2:25: message_import_paths: "a\x00b": one line of text, please`},
	{"message", `"pkg.\nMsg"`, `t.yaml:2:12: message: "pkg.\nMsg": one line of text, please`},
	{"message_data_file", `"x\n"`, `t.yaml:2:22: message_data_file: "x\n": one line of text, please`},
	{"message_count", "0", `t.yaml:2:18: message_count: 0 is out of range [1, 10000]`},
	{"message_string_len", "2MiB", `t.yaml:2:23: message_string_len: 2MiB is out of range [0B, 1MiB]`},
	{"message_bytes_len", "-1", `t.yaml:2:22: message_bytes_len: size "-1": want a number of bytes such as 11, 1KiB, 100KiB or 4MiB`},
	{"message_repeated", "10001", `t.yaml:2:21: message_repeated: 10001 is out of range [0, 10000]`},
}

// TestBadSettings: a bad value of each setting is reported at the value, with the
// message written above; every setting of the table has a case.
func TestBadSettings(t *testing.T) {
	tried := map[string]bool{}
	for _, c := range badSettings {
		tried[c.key] = true
		text := fmt.Sprintf("defaults:\n  %s: %s\ntargets: [grpc-proto]\nworkloads: [person.get]\n", c.key, c.value)
		s, err := suite.Parse("t.yaml", []byte(text))
		if err == nil {
			t.Errorf("%s: %s: Parse made %d benchmarks, want\n%s", c.key, c.value, len(s.Benchmarks), c.want)
			continue
		}
		if got := err.Error(); got != c.want {
			t.Errorf("%s: %s: error\n got: %s\nwant: %s", c.key, c.value, got, c.want)
		}
	}
	for _, st := range spec.Settings {
		if !tried[st.Key] {
			t.Errorf("setting %s has no bad value in badSettings", st.Key)
		}
	}
}

// TestBadSettingInEntries: a bad value in a target or workload entry is reported at
// its own line and column, as in defaults.
func TestBadSettingInEntries(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"targets:\n  - protocol: grpc-proto\n    forks: 0\nworkloads: [person.get]\n",
			`t.yaml:3:12: forks: 0 is out of range [1, 1000]`},
		{"targets: [grpc-proto]\nworkloads:\n  - {name: echo, mode: slow}\n",
			`t.yaml:3:24: mode: "slow", want thrpt (ops/s) or avgt (time per op)`},
	} {
		if _, err := suite.Parse("t.yaml", []byte(c.text)); err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %s", err, c.want)
		}
	}
}

// yamlValue writes v, a value of st, as a suite file holds it: integers bare (a
// quoted number is a string, which an integer setting refuses), the rest quoted.
func yamlValue(st *spec.Setting, v spec.Value) string {
	if st.Kind == spec.Int || st.Kind == spec.Uint {
		return st.Format(v)
	}
	return strconv.Quote(st.Format(v))
}

// settingsSuite is a suite whose one benchmark has the settings of s: each written at
// a level chosen at random (defaults, the target, the workload), over another value
// of it at a level below, which it must override.
type settingsSuite struct {
	text string
	want spec.Spec
}

func (settingsSuite) Generate(r *rand.Rand, _ int) reflect.Value {
	want := spec.Default()
	spectest.Settings(r, &want)
	var levels [3][]string // defaults, targets[0], workloads[0]
	for _, st := range spec.Settings {
		v := st.Get(want)
		if st.Alternative != "" && reflect.ValueOf(v).IsZero() {
			continue // the alternative not chosen (its zero value)
		}
		at := r.Intn(3)
		levels[at] = append(levels[at], st.Key+": "+yamlValue(st, v))
		if at > 0 && r.Intn(2) == 0 { // another value below, overridden
			below := st
			if st.Alternative != "" && r.Intn(2) == 0 {
				below = spec.LookupSetting(st.Alternative) // dropped by the choice above
			}
			lo := r.Intn(at)
			levels[lo] = append(levels[lo], below.Key+": "+yamlValue(below, spectest.Value(r, below)))
		}
	}
	var b strings.Builder
	b.WriteString("defaults:\n")
	for _, l := range levels[0] {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("targets:\n  - protocol: grpc-proto\n")
	for _, l := range levels[1] {
		b.WriteString("    " + l + "\n")
	}
	b.WriteString("workloads:\n  - name: person.get\n")
	for _, l := range levels[2] {
		b.WriteString("    " + l + "\n")
	}
	return reflect.ValueOf(settingsSuite{text: b.String(), want: want})
}

// TestSettingsRoundTrip: settings written into a suite file, at any level, read
// back as the settings of its benchmark.
func TestSettingsRoundTrip(t *testing.T) {
	roundTrip := func(c settingsSuite) bool {
		s, err := suite.Parse("t.yaml", []byte(c.text))
		if err != nil {
			t.Errorf("%v\n%s", err, c.text)
			return false
		}
		got := s.Benchmarks[0].Spec
		for _, st := range spec.Settings {
			if g, w := st.Get(got), st.Get(c.want); !reflect.DeepEqual(g, w) {
				t.Errorf("%s: read %v, wrote %v\n%s", st.Key, g, w, c.text)
				return false
			}
		}
		return true
	}
	if err := quick.Check(roundTrip, &quick.Config{MaxCount: 1000, Rand: rand.New(rand.NewSource(1))}); err != nil {
		t.Error(err)
	}
}

// TestFormerKey: a suite file that uses a setting's former key (trials, now forks;
// jvm_args, now runtime_args; iterations, now rounds) is read as if it used the new
// one, and says so once, at the first use, naming the other lines; a file without
// one has no note.
func TestFormerKey(t *testing.T) {
	s := mustParse(t, `
		|defaults:
		|  trials: 4
		|targets:
		|  - protocol: grpc-proto
		|  - protocol: capnp
		|    trials: 2
		|workloads: [person.get]`)
	got := map[string]int{}
	for _, b := range s.Benchmarks {
		got[b.Spec.Protocol] = b.Spec.Forks
	}
	if got["grpc-proto"] != 4 || got["capnp"] != 2 {
		t.Errorf("forks by protocol %v, want grpc-proto 4 (from defaults) and capnp 2", got)
	}
	want := []string{`t.yaml:2: "trials" is deprecated: it is "forks" now (read as forks); also on line 6`}
	if !slices.Equal(s.Notes, want) {
		t.Errorf("notes %q, want %q", s.Notes, want)
	}
	if s := mustParse(t, "|defaults: {forks: 4}\n|targets: [direct]\n|workloads: [person.get]"); s.Notes != nil {
		t.Errorf("a file with the new key: notes %q, want none", s.Notes)
	}
	// jvm_args, runtime_args since 2026-11-29: its value read as the new key's, at
	// every level, with one note.
	s = mustParse(t, `
		|defaults:
		|  jvm_args: "-Xms2G -Xmx2G"
		|targets:
		|  - protocol: grpc-proto
		|  - protocol: capnp
		|    jvm_args: -Xss1m
		|workloads: [person.get]`)
	args := map[string][]string{}
	for _, b := range s.Benchmarks {
		args[b.Spec.Protocol] = b.Spec.RuntimeArgs
	}
	if !slices.Equal(args["grpc-proto"], []string{"-Xms2G", "-Xmx2G"}) || !slices.Equal(args["capnp"], []string{"-Xss1m"}) {
		t.Errorf("runtime_args by protocol %q, want grpc-proto [-Xms2G -Xmx2G] (from defaults) and capnp [-Xss1m]", args)
	}
	want = []string{`t.yaml:2: "jvm_args" is deprecated: it is "runtime_args" now (read as runtime_args); also on line 6`}
	if !slices.Equal(s.Notes, want) {
		t.Errorf("notes %q, want %q", s.Notes, want)
	}
	// iterations, rounds since 2026-11-29; beside rounds in one entry it is one key
	// given twice.
	s = mustParse(t, `
		|defaults:
		|  iterations: 3
		|targets:
		|  - protocol: grpc-proto
		|  - protocol: capnp
		|    iterations: 7
		|workloads: [person.get]`)
	rounds := map[string]int{}
	for _, b := range s.Benchmarks {
		rounds[b.Spec.Protocol] = b.Spec.Rounds
	}
	if rounds["grpc-proto"] != 3 || rounds["capnp"] != 7 {
		t.Errorf("rounds by protocol %v, want grpc-proto 3 (from defaults) and capnp 7", rounds)
	}
	want = []string{`t.yaml:2: "iterations" is deprecated: it is "rounds" now (read as rounds); also on line 6`}
	if !slices.Equal(s.Notes, want) {
		t.Errorf("notes %q, want %q", s.Notes, want)
	}
	both := "defaults: {rounds: 2, iterations: 3}\ntargets: [direct]\nworkloads: [person.get]\n"
	if _, err := suite.Parse("t.yaml", []byte(both)); err == nil || !strings.Contains(err.Error(), `key "iterations" in defaults sets rounds again`) {
		t.Errorf("rounds and iterations in one entry: %v, want refused as one key twice", err)
	}
}
