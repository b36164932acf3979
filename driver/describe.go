package driver

import (
	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

// DescribeResolved is r's description in results before anything is measured: its
// identity, settings, load and the stacks of both sides, with the tier of this run,
// and for a capacity search its objectives. summary adds what was measured (forks,
// summary, warnings).
func DescribeResolved(r control.Resolved) results.Benchmark {
	s := r.Spec
	b := DescribeSpec(s)
	srvCPUs, cliCPUs := s.Pinning()
	b.ClientStack = stackOf(r.Client, s.ClientOptions, s.RuntimeArgs, len(cliCPUs))
	switch {
	case r.Protocol.InProcess:
		b.ServerStack = b.ClientStack
	case r.HasServer():
		b.ServerStack = stackOf(r.Server, s.ServerOptions, s.RuntimeArgs, len(srvCPUs))
		b.Group = s.RoundsGroup(r.Server.Name)
	}
	return b
}

// DescribeSpec is what s says of a benchmark for results, before its protocol and
// stacks are resolved (DescribeResolved adds the stacks): its identity (name,
// series, comparison group, calls per op), settings, load and, for a capacity
// search, its objectives. It is also what a benchmark that could not be resolved
// is reported as.
func DescribeSpec(s spec.Spec) results.Benchmark {
	b := results.Benchmark{
		Name: s.Name(), Series: s.Series(), Group: s.RoundsGroup(s.ServerStack),
		Protocol: s.Protocol, Transport: s.Transport, Workload: s.Workload,
		Label: s.Label, Params: s.ParamMap(), Options: s.ClientOptions, ServerOptions: s.ServerOptions, Address: s.Address,
		Load: results.Load{Model: string(s.Load.Kind), Concurrency: s.Load.Concurrency,
			Connections: s.Load.Connections, Rate: s.Load.Rate, Arrival: string(s.Load.Arrival)},
		Mode: s.Mode, WarmupSeconds: s.Warmup.Seconds(), WarmupMaxSeconds: s.WarmupMax.Seconds(), KeepAliveSeconds: s.KeepAlive.Seconds(), SliceSeconds: s.SliceTime.Seconds(),
		SliceOps: s.SliceOps, Rounds: s.Rounds,
	}
	if s.Call != nil {
		b.Call = s.Call.Method
		if s.Call.Kind == spec.CallHTTP {
			b.Call = s.Call.HTTPMethod + " " + s.Call.Path
		}
	}
	srv, cli := s.Pinning()
	b.Shape = &results.Shape{Name: s.Shape, ServerCPUs: cpuset.FormatCPUList(srv), ClientCPUs: cpuset.FormatCPUList(cli)}
	if b.Shape.Name == "" {
		b.Shape.Name = spec.ShapeSplit
	}
	if w, err := contract.LookupWorkload(s.Workload); err == nil {
		b.CallsPerOp = w.Calls(s.Params)
	}
	if s.Load.Kind == load.Open {
		b.Load.MaxInFlight = s.Load.Concurrency
	}
	if c := s.Capacity; c != nil {
		b.Capacity = &results.Capacity{MaxErrorRate: c.MaxErrorRate, Steps: []results.CapacityStep{}}
		for _, o := range c.SLOs {
			b.Capacity.SLO = append(b.Capacity.SLO, o.String())
		}
	}
	return b
}

// stackOf is the results' description of a stack run with options, in a worker pinned
// to cpus CPUs with the benchmark's runtimeArgs (recorded as its launcher gives them to
// its runtime).
func stackOf(st *protocol.Stack, options map[string]string, runtimeArgs []string, cpus int) *results.Stack {
	s := &results.Stack{Name: st.Name, Language: st.Language, Tier: string(st.TierWith(options)), Libraries: st.Libraries}
	s.RuntimeArgs = launch.RuntimeArgs(st, runtimeArgs, cpus)
	return s
}
