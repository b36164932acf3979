package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/alecthomas/kong"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/summary"
	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

type capacityCmd struct {
	targetFlags
	Concurrency int `short:"c" default:"${capacity_concurrency}" help:"Cap on calls in flight (an arrival that finds every slot busy waits, and its wait counts)."`

	// Search are the flags of the search's settings (spec.CapacitySettings), which
	// newCLI makes before kong reads the flags.
	Search kong.Plugins `embed:""`
	search *settingFlags
}

func (c *capacityCmd) spec() (control.Resolved, error) {
	cs := spec.DefaultCapacitySpec()
	if err := c.search.apply(&cs, true); err != nil {
		return control.Resolved{}, err
	}
	m := load.Model{Kind: load.Open, Rate: cs.Load.Rate, Arrival: load.Arrival(c.Arrival), Concurrency: c.Concurrency, Connections: c.Connections}
	return c.targetFlags.resolve(m, func(s *spec.Spec) {
		s.Rounds, s.SliceTime = 1, cs.Capacity.Step
		s.Capacity = cs.Capacity
	})
}

// Run searches for the highest rate the target sustains within the objectives and
// prints the steps and the answer.
func (c *capacityCmd) Run(e *env) error {
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
	sp := res.Spec
	progress, err := c.start(e, fmt.Sprintf("%s: capacity search from %.0f ops/s, steps of %v, budget %v", sp.Name(), sp.Load.Rate, sp.Capacity.Step, sp.Capacity.Budget))
	if err != nil {
		return err
	}
	hosts, err := c.hostFlags.over(spec.Hosts{})
	if err != nil {
		return err
	}
	srvCPUs, cliCPUs := sp.Pinning()
	env, err := runner.Environment(e.ctx, buildVersion(), srvCPUs, cliCPUs, hosts)
	if err != nil {
		return err
	}
	metrics, err := startMetrics(e, c.MetricsAddr)
	if err != nil {
		return err
	}
	defer metrics.stop()
	tc, err := c.benchTLSFlags.load(res.Spec.Transport)
	if err != nil {
		return err
	}
	found, runErr := driver.Capacity(e.ctx, res, driver.Options{ProfileDir: c.Profile, Hosts: hosts, TLS: tc}, func(st results.SearchStep) {
		if st.Interval != nil {
			metrics.observe(sp.Name(), driver.Event{Interval: st.Interval})
		}
		fmt.Fprintf(progress, "  %s\n", capacityLine(st))
	})
	b := summary.Capacity(driver.DescribeResolved(res), found, runErr)
	out := &results.Results{SchemaVersion: results.SchemaVersion, Benchmarks: []results.Benchmark{b}, Environment: env}
	if found != nil && len(found.Steps) > 0 {
		table := textOut(e, c.JSON)
		fmt.Fprintln(table)
		if err := report.WriteCapacityText(table, out.Benchmarks); err != nil {
			return err
		}
		if err := c.writeJSON(e, progress, out); err != nil {
			return errors.Join(runErr, err)
		}
		if runErr == nil {
			if err := c.record(e.ctx, progress, out); err != nil {
				return err
			}
		}
	}
	switch {
	case errors.Is(runErr, context.Canceled) && e.ctx.Err() != nil:
		return fmt.Errorf("interrupted; the steps that finished are shown above")
	case runErr != nil:
		return runErr
	case found.Rate == 0 && !found.GeneratorBound:
		return fmt.Errorf("no rate met the objectives (the lowest tried failed)")
	}
	return nil
}

// capacityLine is one step's progress line.
func capacityLine(st results.SearchStep) string {
	iv := st.Interval
	what := "step   "
	if st.Confirm {
		what = "confirm"
	}
	line := fmt.Sprintf("%s %10.0f ops/s: achieved %10.0f  p50 %9.1f µs  p99 %9.1f µs  %s", what, st.Rate,
		float64(iv.Ops+iv.ErrorCount())/max(iv.Seconds(), 1e-9), float64(iv.Resp.ValueAtQuantile(50))/1e3,
		float64(iv.Resp.ValueAtQuantile(99))/1e3, st.Verdict)
	if st.Why != "" {
		line += " (" + st.Why + ")"
	}
	return line
}
