package control

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

// BenchmarkMessage is the control message of a resolved benchmark: its target and
// workload, with the stacks named, and every setting the table gives a wire field
// (spec.Setting.Wire).
func BenchmarkMessage(r Resolved) *controlpb.Benchmark {
	s := r.Spec
	m := s.Load
	b := &controlpb.Benchmark{
		Name: s.Name(), Protocol: s.Protocol, ServerStack: r.ServerStackName(), ClientStack: r.ClientStackName(),
		Label: s.Label, Transport: s.Transport, Workload: s.Workload,
		Payload: int64(s.Params.Payload), Increments: int64(s.Params.Increments), Trades: s.Params.Trades,
		Trade:         s.Params.Trade,
		ClientOptions: s.ClientOptions, ServerOptions: s.ServerOptions,
		Load: &controlpb.LoadModel{Kind: string(m.Kind), Concurrency: int32(m.Concurrency),
			Connections: int32(m.Connections), Rate: m.Rate, Arrival: string(m.Arrival)},
	}
	if s.Call != nil {
		j, err := json.Marshal(s.Call)
		if err != nil {
			panic("control: a spec.Call always marshals: " + err.Error())
		}
		b.Call = string(j)
	}
	pb := b.ProtoReflect()
	for _, st := range spec.Settings {
		if st.Wire != "" {
			pb.Set(wireField(st), wireValue(st, st.Get(s)))
		}
	}
	setMessages(b, s)
	return b
}

// SpecOf is the inverse of BenchmarkMessage; CallOf reads its call. The settings only the driver reads (CPU
// sets, JVM options, an adaptive warm-up's bound) and an outside server's address
// stay with the driver, at their zero values.
func SpecOf(b *controlpb.Benchmark) spec.Spec {
	lm := b.GetLoad()
	s := spec.Spec{
		Protocol: b.Protocol, ServerStack: b.ServerStack, ClientStack: b.ClientStack, Label: b.Label,
		Transport: b.Transport, Workload: b.Workload,
		Params: contract.Params{Payload: int(b.Payload), Increments: int(b.Increments), Trades: b.Trades,
			Trade: b.Trade},
		ClientOptions: maps.Clone(b.ClientOptions), ServerOptions: maps.Clone(b.ServerOptions),
		Load: load.Model{Kind: load.Kind(lm.GetKind()), Concurrency: int(lm.GetConcurrency()),
			Connections: int(lm.GetConnections()), Rate: lm.GetRate(), Arrival: load.Arrival(lm.GetArrival())},
	}
	pb := b.ProtoReflect()
	for _, st := range spec.Settings {
		if st.Wire != "" {
			st.Set(&s, settingValue(st, pb.Get(wireField(st))))
		}
	}
	return s
}

// CallOf returns the outside call of a benchmark message (nil when it has none), or
// an error when its JSON does not read.
func CallOf(b *controlpb.Benchmark) (*spec.Call, error) {
	if b.GetCall() == "" {
		return nil, nil
	}
	c := new(spec.Call)
	if err := json.Unmarshal([]byte(b.GetCall()), c); err != nil {
		return nil, fmt.Errorf("benchmark %s: its call: %w", b.GetName(), err)
	}
	return c, nil
}

// wireField is the controlpb.Benchmark field of st. TestWireFields checks that
// every setting's field exists with a kind wireValue writes.
func wireField(st *spec.Setting) protoreflect.FieldDescriptor {
	fd := (*controlpb.Benchmark)(nil).ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(st.Wire))
	if fd == nil {
		panic("control: setting " + st.Key + ": controlpb.Benchmark has no field " + st.Wire)
	}
	return fd
}

// wireValue is v, a value of st, as st's wire field holds it: durations in
// nanoseconds, integers and sizes in the field's width, strings as they are.
func wireValue(st *spec.Setting, v spec.Value) protoreflect.Value {
	fd := wireField(st)
	switch v := v.(type) {
	case time.Duration:
		return protoreflect.ValueOfInt64(int64(v))
	case int64:
		if fd.Kind() == protoreflect.Int32Kind {
			return protoreflect.ValueOfInt32(int32(v))
		}
		return protoreflect.ValueOfInt64(v)
	case uint64:
		return protoreflect.ValueOfUint64(v)
	case string:
		return protoreflect.ValueOfString(v)
	}
	panic(fmt.Sprintf("control: setting %s: a %T has no wire form", st.Key, v))
}

// settingValue is the inverse of wireValue.
func settingValue(st *spec.Setting, v protoreflect.Value) spec.Value {
	switch st.Kind {
	case spec.Duration:
		return time.Duration(v.Int())
	case spec.Int, spec.Size:
		return v.Int()
	case spec.Uint:
		return v.Uint()
	case spec.Enum, spec.Text:
		return v.String()
	}
	panic("control: setting " + st.Key + " has no wire form")
}

// IntervalMessage is a client worker's answer to phase: the interval it measured,
// with its histograms encoded.
func IntervalMessage(phase *controlpb.Phase, iv *record.Interval) (*controlpb.Interval, error) {
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

// DecodeInterval is the inverse of IntervalMessage, as the driver receives it: an
// interval whose response histogram does not count its ops is refused.
func DecodeInterval(m *controlpb.Interval) (*results.Interval, error) {
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

// ProcReading is a worker's process statistics as results record them.
func ProcReading(m *controlpb.ProcStats) results.ProcReading {
	return results.ProcReading{Time: time.Unix(0, m.GetTimeUnixNanos()), CPU: time.Duration(m.GetCpuNanos()),
		RSS: m.GetRssBytes(), PeakRSS: m.GetPeakRssBytes()}
}
