package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sort"

	"github.com/alecthomas/kong"

	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/suite"
)

// suiteArg is the key of run's suite argument among the journaled ones.
const suiteArg = "suite"

// commandArg is the key of the command line that started the run among the journaled
// arguments: a resumed run's results name the command that started it, not
// "run --resume DIR" (fromJournal reads it back into resumedFrom).
const commandArg = "command"

// notJournaled are run's flags that do not change what a run measures, which a
// resume may give anew: where the output (--json too) and profiles go, how progress shows, how
// remote workers are reached, how the finished run is tagged in the store; and the
// deprecated --seed, which sets --order-seed. Every other flag of run is journaled
// (runArgs) and read back by --resume.
var notJournaled = []string{"help", "version", "out", "json", "resume", "list", "plain", "profile", "metrics-addr", "seed",
	"token-file", "tls-ca", "tls-cert", "tls-key", "tls-server-name", "store", "commit", "branch", "machine"}

// runFlags are run's flags that a run journals, by name.
func runFlags(kctx *kong.Context) map[string]*kong.Flag {
	out := map[string]*kong.Flag{}
	for _, f := range kctx.Flags() {
		if !slices.Contains(notJournaled, f.Name) {
			out[f.Name] = f
		}
	}
	return out
}

// suiteRef is how the journal names the suite: a bundled suite by its name, a suite
// file by its absolute path, so that a resume from another directory finds it.
func suiteRef(nameOrPath string) string {
	if slices.Contains(suite.Bundled(), nameOrPath) {
		return nameOrPath
	}
	if abs, err := filepath.Abs(nameOrPath); err == nil {
		return abs
	}
	return nameOrPath
}

// runArgs are the arguments of the run that decide what it measures, as its journal
// keeps them (runner.Options.Args): the suite and every journaled flag's value.
func (c *runCmd) runArgs(kctx *kong.Context) (map[string]json.RawMessage, error) {
	args := map[string]json.RawMessage{}
	ref, err := json.Marshal(suiteRef(c.Suite))
	if err != nil {
		return nil, err
	}
	args[suiteArg] = ref
	if args[commandArg], err = json.Marshal(commandLine(kctx.Args)); err != nil {
		return nil, err
	}
	for name, f := range runFlags(kctx) {
		v, err := json.Marshal(f.Target.Interface())
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", name, err)
		}
		args[name] = v
	}
	return args, nil
}

// fromJournal takes the suite and the flags of the run in c.Resume from its journal:
// a flag not given here takes the journal's value; one given must have it, or the
// resume is refused before anything runs, naming both values. A directory without a
// journal is no run.
func (c *runCmd) fromJournal(kctx *kong.Context) error {
	h, err := runner.ReadHeader(c.Resume)
	if errors.Is(err, runner.ErrNoRun) {
		return usagef("--resume: %v; start a run there with --out %s", err, c.Resume)
	}
	if err != nil {
		return err
	}
	given := map[string]bool{}
	for _, p := range kctx.Path {
		if p.Flag != nil {
			given[p.Flag.Name] = true
			if p.Flag.Name == "seed" {
				given["order-seed"] = true // the deprecated name, copied already
			}
		}
	}
	if raw, ok := h.Args[suiteArg]; ok {
		var ref string
		if err := json.Unmarshal(raw, &ref); err != nil {
			return fmt.Errorf("--resume %s: the journal's suite: %w", c.Resume, err)
		}
		if c.Suite != "" && suiteRef(c.Suite) != ref {
			return usagef("--resume %s: the run is of suite %s, this command names %s: leave the suite out to resume the run's",
				c.Resume, ref, suiteRef(c.Suite))
		}
		c.Suite = ref
	} else if c.Suite == "" {
		// A journal from before the arguments were kept names a bundled suite by its name.
		if !slices.Contains(suite.Bundled(), h.Suite) {
			return usagef("--resume %s: its journal does not say which suite file it ran (an older wirebench wrote it): give the suite", c.Resume)
		}
		c.Suite = h.Suite
	}
	if raw, ok := h.Args[commandArg]; ok {
		if err := json.Unmarshal(raw, &c.startedAs); err != nil {
			return fmt.Errorf("--resume %s: the journal's command: %w", c.Resume, err)
		}
	}
	flags := runFlags(kctx)
	names := make([]string, 0, len(h.Args))
	for name := range h.Args {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f, ok := flags[name]
		if !ok {
			continue // the suite, or a flag this wirebench no longer has
		}
		was := reflect.New(f.Target.Type())
		if err := json.Unmarshal(h.Args[name], was.Interface()); err != nil {
			return fmt.Errorf("--resume %s: the journal's --%s: %w", c.Resume, name, err)
		}
		if !given[name] {
			f.Target.Set(was.Elem())
			continue
		}
		now, err := json.Marshal(f.Target.Interface())
		if err != nil {
			return err
		}
		if norm, _ := json.Marshal(was.Interface()); !bytes.Equal(norm, now) {
			return usagef("--%s: the run in %s was started with --%s=%v, this command gives --%s=%v: leave the flag out to resume with the run's, or start a new run with another --out",
				name, c.Resume, name, show(was.Elem()), name, show(f.Target))
		}
	}
	return nil
}

// show is a flag's value as a user would type it.
func show(v reflect.Value) string {
	if v.Kind() == reflect.Slice {
		s := ""
		for i := range v.Len() {
			if i > 0 {
				s += ","
			}
			s += fmt.Sprint(v.Index(i).Interface())
		}
		return s
	}
	if v.Kind() == reflect.String {
		return fmt.Sprintf("%q", v.String())
	}
	return fmt.Sprint(v.Interface())
}
