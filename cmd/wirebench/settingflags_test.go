package main

import (
	"math/rand"
	"reflect"
	"slices"
	"testing"
	"testing/quick"

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
	omitted := map[string][]string{"capacity": {"iterations", "duration", "ops", "trials", "mode"}}
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
	want := map[string]string{"warmup": "1s", "iterations": "5", "duration": "1s", "trials": "1", "mode": "thrpt",
		"call-timeout": "10s", "server-cpus": "0", "client-cpus": "1", "data-size": "20", "seed": "1",
		"arrival-seed": "1", "max-message-size": "16MiB", "warmup-max": "", "ops": "", "jvm-args": ""}
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
