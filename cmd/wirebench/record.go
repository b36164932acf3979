package main

import (
	"context"
	"fmt"
	"io"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/store"
)

// storeFlag names the results store of history, gate and the recording commands.
type storeFlag struct {
	Store string `placeholder:"PATH" help:"Results store (an SQLite file; default: history.db under the user's data directory, $XDG_DATA_HOME/wirebench or ~/.local/share/wirebench; docs/history.md)."`
}

// open opens the store named, or the default one.
func (f storeFlag) open(ctx context.Context) (*store.Store, error) {
	path, err := f.path()
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, path)
}

// path is the store's path: the one named, or the default one.
func (f storeFlag) path() (string, error) {
	if f.Store != "" {
		return f.Store, nil
	}
	p, err := store.DefaultPath()
	if err != nil {
		return "", usagef("--store: %v", err)
	}
	return p, nil
}

// tagFlags override the tags a recorded run gets from git, the CI and the host.
type tagFlags struct {
	Commit  string `help:"Commit to tag recorded results with (default: $GITHUB_SHA, $CI_COMMIT_SHA, or git's HEAD here)."`
	Branch  string `help:"Branch to tag recorded results with (default: the CI's branch variable, or git's current branch here)."`
	Machine string `help:"Machine to tag recorded results with (default: $WIREBENCH_MACHINE or the host name); series are per machine."`
}

func (f tagFlags) tags(ctx context.Context) store.Tags {
	return store.DetectTags(ctx, ".", store.Tags{Commit: f.Commit, Branch: f.Branch, Machine: f.Machine})
}

// recordFlags are the recording flags of run, bench and capacity: results go into
// the store unless --no-store.
type recordFlags struct {
	storeFlag
	NoStore bool `name:"no-store" help:"Do not record the results in the store."`
	tagFlags
}

// record adds the results to the store and says so on progress. A store given with
// --store that cannot take them is an error; the default store only warns, so a
// run never fails for a store the user did not ask for.
func (f recordFlags) record(ctx context.Context, progress io.Writer, res *results.Results) error {
	if f.NoStore {
		return nil
	}
	doc, err := store.Encode(res)
	if err != nil {
		return err
	}
	return f.recordDocument(ctx, progress, doc, "")
}

func (f recordFlags) recordDocument(ctx context.Context, progress io.Writer, doc []byte, source string) error {
	if f.NoStore {
		return nil
	}
	err := func() error {
		s, err := f.open(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		tags := f.tags(ctx)
		if source == "" {
			source = "wirebench " + buildVersion()
		}
		run, _, err := s.Record(ctx, doc, tags, source)
		if err != nil {
			return err
		}
		fmt.Fprintf(progress, "wirebench: recorded in %s as run %d (commit %s, branch %s, machine %s)\n",
			s.Path(), run.ID, orNone(run.Commit), orNone(run.Branch), orNone(run.Machine))
		return nil
	}()
	if err != nil && f.Store == "" {
		fmt.Fprintf(progress, "wirebench: warning: not recorded in the default store: %v (give --store, or --no-store)\n", err)
		return nil
	}
	return err
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
