package cluster

import (
	"errors"
	"maps"
	"time"

	"github.com/wirebench/wirebench/cluster/controlpb"
	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/record"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
)

// benchmarkMessage is the control message of a resolved benchmark: the whole spec,
// with the stacks named.
func benchmarkMessage(r Resolved) *controlpb.Benchmark {
	s := r.Spec
	m := s.Load
	return &controlpb.Benchmark{
		Name: s.Name(), Protocol: s.Protocol, ServerStack: r.ServerStackName(), ClientStack: r.ClientStackName(),
		Label: s.Label, Transport: s.Transport, Workload: s.Workload,
		Payload: int64(s.Params.Payload), Increments: int64(s.Params.Increments), Trades: s.Params.Trades,
		ClientOptions: s.ClientOptions, ServerOptions: s.ServerOptions,
		Load: &controlpb.LoadModel{Kind: string(m.Kind), Concurrency: int32(m.Concurrency),
			Connections: int32(m.Connections), Rate: m.Rate, Arrival: string(m.Arrival)},
		WarmupNanos: int64(s.Warmup), Iterations: int32(s.Iterations), IterationNanos: int64(s.IterationTime),
		IterationOps: s.IterationOps, Trials: int32(s.Trials), Mode: s.Mode, Method: s.Method,
		CallTimeoutNanos: int64(s.CallTimeout), ArrivalSeed: s.ArrivalSeed, DataSeed: s.DataSeed,
		DataSize: int32(s.DataSize), MaxMessageSize: int64(s.MaxMessageSize),
	}
}

// specOf is the inverse of benchmarkMessage. The CPU sets and the target stay with
// the driver.
func specOf(b *controlpb.Benchmark) spec.Spec {
	lm := b.GetLoad()
	return spec.Spec{
		Protocol: b.Protocol, ServerStack: b.ServerStack, ClientStack: b.ClientStack, Label: b.Label,
		Transport: b.Transport, Workload: b.Workload,
		Params:        contract.Params{Payload: int(b.Payload), Increments: int(b.Increments), Trades: b.Trades},
		ClientOptions: maps.Clone(b.ClientOptions), ServerOptions: maps.Clone(b.ServerOptions),
		Load: load.Model{Kind: load.Kind(lm.GetKind()), Concurrency: int(lm.GetConcurrency()),
			Connections: int(lm.GetConnections()), Rate: lm.GetRate(), Arrival: load.Arrival(lm.GetArrival())},
		Warmup: time.Duration(b.WarmupNanos), Iterations: int(b.Iterations), IterationTime: time.Duration(b.IterationNanos),
		IterationOps: b.IterationOps, Trials: int(b.Trials), Mode: b.Mode, Method: b.Method,
		CallTimeout: time.Duration(b.CallTimeoutNanos), ArrivalSeed: b.ArrivalSeed, DataSeed: b.DataSeed,
		DataSize: int(b.DataSize), MaxMessageSize: int(b.MaxMessageSize),
	}
}

func intervalMessage(phase *controlpb.Phase, iv *record.Interval) (*controlpb.Interval, error) {
	m := &controlpb.Interval{Phase: phase.Kind, Index: phase.Index,
		StartUnixNanos: iv.Start.UnixNano(), EndUnixNanos: iv.End.UnixNano(), Ops: iv.Ops,
		Errors: map[string]int64{}, Clamped: iv.Clamped, Overflow: iv.Overflow}
	for k, n := range iv.Errors {
		m.Errors[string(k)] = n
	}
	if len(iv.FirstErrors) > 0 {
		m.FirstErrors = map[string]string{}
		for k, msg := range iv.FirstErrors {
			m.FirstErrors[string(k)] = msg
		}
	}
	var err error
	if m.ResponseHistogram, err = record.EncodeHistogram(iv.Resp); err != nil {
		return nil, err
	}
	// In a closed model every call starts when it is due, so service time is response
	// time and the interval has no service histogram (record.Interval): none is sent
	// (encoding one takes about 0.5 ms, which an interleaved group pays between every
	// two slices).
	if iv.Service != nil {
		if m.ServiceHistogram, err = record.EncodeHistogram(iv.Service); err != nil {
			return nil, err
		}
	}
	if iv.Lag != nil {
		if m.LagHistogram, err = record.EncodeHistogram(iv.Lag); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func decodeInterval(m *controlpb.Interval) (*results.Interval, error) {
	if m == nil {
		return nil, errors.New("empty status")
	}
	iv := &results.Interval{Phase: m.Phase, Index: int(m.Index), Interval: &record.Interval{
		Start: time.Unix(0, m.StartUnixNanos), End: time.Unix(0, m.EndUnixNanos), Ops: m.Ops,
		Errors: map[record.ErrorKind]int64{}, Clamped: m.Clamped, Overflow: m.Overflow},
		BytesSent: m.BytesSent, BytesReceived: m.BytesReceived, ClientCPU: time.Duration(m.CpuNanos), LinkCPU: time.Duration(m.LinkCpuNanos),
		ClientCPUs: int(m.GetProc().GetCpus())}
	for k, n := range m.Errors {
		iv.Errors[record.ErrorKind(k)] = n
	}
	for k, msg := range m.FirstErrors {
		if iv.FirstErrors == nil {
			iv.FirstErrors = map[record.ErrorKind]string{}
		}
		iv.FirstErrors[record.ErrorKind(k)] = msg
	}
	var err error
	if iv.Resp, err = record.DecodeHistogram(m.ResponseHistogram); err != nil {
		return nil, err
	}
	if iv.Service, err = record.DecodeHistogram(m.ServiceHistogram); err != nil {
		return nil, err
	}

	if iv.Lag, err = record.DecodeHistogram(m.LagHistogram); err != nil {
		return nil, err
	}
	if iv.Resp == nil {
		return nil, errors.New("interval without histograms")
	}
	if iv.Resp.TotalCount() != iv.Ops {
		return nil, errors.New("interval whose response histogram does not count its ops")
	}
	return iv, nil
}

func procReading(m *controlpb.ProcStats) results.ProcReading {
	return results.ProcReading{Time: time.Unix(0, m.GetTimeUnixNanos()), CPU: time.Duration(m.GetCpuNanos()),
		RSS: m.GetRssBytes(), PeakRSS: m.GetPeakRssBytes()}
}
