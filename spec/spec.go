// Package spec defines one benchmark: what is measured (a protocol served by a server
// stack and called by a client stack, a workload and its parameters, a load model),
// how (warmup, rounds, forks, method) and where (transport, CPU sets). It owns
// the defaults and the validation, and nothing else. The settings of how and where
// are defined once, in the table Settings (settings.go), beside their fields
// (SettingValues): the suite keys and their checks, the defaults (Default), the command
// line's flags, the control message sent to workers and docs/suites.md's settings table
// are all derived from it, so a default or a rule is written once.
//
// The package is a leaf: it knows the contract's workloads and the load models, not
// the protocol registry; protocol and stack names are checked where the registry is
// (control.Resolve).
package spec

import (
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/spec/load"
)

// Spec is one benchmark. The zero value is not valid: start from Default.
type Spec struct {
	// Protocol is the wire mapping: "http-json", "grpc-proto", ...
	Protocol string
	// ServerStack and ClientStack name the implementations of each side; "" is the
	// protocol's default (production) stack, and names say a stack only when it is
	// not the default.
	ServerStack, ClientStack string
	// Label, when set, tells apart benchmarks of one protocol and stacks that differ
	// only by options (e.g. "win-64KiB"); it is part of the benchmark's name.
	Label string
	// Transport is "tcp" or "unix" for networked protocols, "tls" for TCP with TLS 1.3
	// on both sides, "quic" for QUIC over UDP (HTTP/3's; TLS 1.3 always), "inproc"
	// for in-process ones.
	Transport string
	// Address, when set, is the address of an outside server to load (tcp://HOST:PORT,
	// unix:///PATH or udp://HOST:PORT): no server worker is started. The suite key
	// address (or a url's host), bench's --address (formerly Target, --target).
	Address string
	// Call, when set, is the outside call made at Address (a user's own method or
	// endpoint, not the contract), under the workload CallWorkload.
	Call *Call
	// Workload is a contract workload name and Params its parameters.
	Workload string
	Params   contract.Params
	// ClientOptions and ServerOptions are stack options; each side rejects names it
	// does not know. Setting any makes that side's tier "tuned".
	ClientOptions, ServerOptions map[string]string
	// Load is the load model, normalized.
	Load load.Model
	// Capacity, when set, makes the benchmark a capacity search: the highest open-loop
	// rate the target sustains within its objectives (Load is then the open model,
	// its Rate where the search starts).
	Capacity *Capacity

	// SettingValues are the benchmark's settings (settings.go): how it is measured
	// (warm-up, slices, forks, method) and where (CPUs, shape), each a row of the
	// table Settings.
	SettingValues

	// InterleaveBy splits a comparison group into rounds of their own: "" measures
	// every target of the group in one set of rounds; InterleaveServer gives each
	// server (protocol, server stack, transport, server options) its own, so its
	// clients are interleaved against it (RoundsGroup). A suite's interleave_by.
	InterleaveBy string
}

// MessageType is the user's message type of the message workload, or nil.
func (s Spec) MessageType() protoreflect.MessageDescriptor {
	if s.Params.Messages == nil {
		return nil
	}
	return s.Params.Messages.Desc
}

// Score modes, as JMH names them.
const (
	ModeThroughput  = "thrpt"
	ModeAverageTime = "avgt"
)

// Machine shapes.
const (
	ShapeSplit  = "split"
	ShapeShared = "shared"
)

// Isolations of an interleaved group's targets.
const (
	IsolationFreeze = "freeze"
	IsolationNone   = "none"
)

// Worker process lifetimes across the groups of a suite.
const (
	WorkersPerFork  = "per-fork"
	WorkersPerGroup = "per-group"
)

// WorkersKey is what must be equal for two benchmarks' workers to be the same
// processes, one benchmark after the other (WorkersPerFork): the stacks on both
// sides and the protocol and transport between them, where they run (pinning,
// shape, an outside server's address), their runtime options, and how they are kept apart; ""
// for a benchmark whose workers serve it alone (WorkersPerGroup).
func (s Spec) WorkersKey() string {
	if s.Workers != WorkersPerFork {
		return ""
	}
	server, client := s.Pinning()
	return fmt.Sprintf("%s|%s|%s|%s|%q|%v|%v|%s|%s|%q", s.Protocol, s.ServerStack, s.ClientStack, s.Transport, s.Address,
		server, client, s.Shape, s.Isolation, s.RuntimeArgs)
}

// SharesWorkers says whether a comparison group's workers can serve other groups,
// one after the other, in each fork (WorkersPerFork): an interleaved group of
// two or more targets in worker processes, none a capacity search.
func SharesWorkers(specs []Spec) bool {
	if len(specs) < 2 || specs[0].Method != MethodInterleaved {
		return false
	}
	for _, s := range specs {
		if s.Capacity != nil || s.WorkersKey() == "" {
			return false
		}
	}
	return true
}

// SameWorkers says whether two groups that share workers (SharesWorkers) can share
// them with each other: the same targets' workers (Spec.WorkersKey), target by
// target, and the same plan of forks and rounds.
func SameWorkers(a, b []Spec) bool {
	if !SharesWorkers(a) || !SharesWorkers(b) || len(a) != len(b) || a[0].Forks != b[0].Forks || a[0].Rounds != b[0].Rounds {
		return false
	}
	for k := range a {
		if a[k].WorkersKey() != b[k].WorkersKey() {
			return false
		}
	}
	return true
}

// Pinning returns the CPUs the server and the load generators may run on, as the
// shape says: split, ServerCPUs and ClientCPUs; shared, both sides on the union of
// the two (in order, without repeats). nil: not pinned.
func (s Spec) Pinning() (server, client []int) {
	if s.Shape != ShapeShared {
		return s.ServerCPUs, s.ClientCPUs
	}
	if s.ServerCPUs == nil || s.ClientCPUs == nil {
		return nil, nil // one side not pinned: sharing means neither is
	}
	all := slices.Clone(s.ServerCPUs)
	for _, c := range s.ClientCPUs {
		if !slices.Contains(all, c) {
			all = append(all, c)
		}
	}
	slices.Sort(all)
	return all, slices.Clone(all)
}

// InterleaveServer is the InterleaveBy that gives each server its own rounds.
const InterleaveServer = "server"

// Methods of measuring a comparison group.
const (
	MethodInterleaved = "interleaved"
	MethodSequential  = "sequential"
)

// Transports.
const (
	TCP  = "tcp"
	Unix = "unix"
	// TLS is TCP with TLS 1.3 on both sides: the server's certificate is made for the
	// run (or given), the handshake is made when a connection opens, and ALPN names
	// the protocol (h2 for gRPC, http/1.1 for http-json).
	TLS = "tls"
	// QUIC is QUIC over UDP, the transport of HTTP/3 stacks (and only theirs): TLS 1.3
	// always, with a certificate made or given as for TLS, ALPN h3; the handshake is
	// made when a connection opens. Its addresses are udp://host:port.
	QUIC   = "quic"
	InProc = "inproc"
)

// Secure reports whether the benchmark's transport carries TLS, and so needs a
// server certificate and a CA its clients trust: tls and quic.
func (s Spec) Secure() bool { return s.Transport == TLS || s.Transport == QUIC }

// StartOverhead is the time an estimate adds to each fork for starting and stopping the
// worker processes and checking the targets against the contract, and
// ProcessStartOverhead what it adds for each worker process the fork starts, beyond its
// launcher's StartCost (a JVM's). Measured from the journals of three runs on the 2-vCPU
// machine kind (2026-11-29, docs/method.md "What the estimate counts"): the gaps
// between forks were 0.79–0.85 s for the quick suite's 10 processes and about 4.4 s
// for the protocols suite's 54 (TLS certificates made, QUIC servers bound).
const (
	StartOverhead        = 400 * time.Millisecond
	ProcessStartOverhead = 60 * time.Millisecond
)

// PhaseOverhead is the time an estimate adds to each slice for what happens between
// two phases: the client's interval and the server's reading reach the driver, and
// the next phase starts; FreezeOverhead is what freezing and thawing the other targets'
// processes adds to it in an interleaved group (isolation freeze). Measured from the
// same journals: 1.6 ms between the phases of rpcecho (one process, nothing frozen),
// 6.1 ms in protocols' and 7.6–7.9 ms in quick's (27 and 5 targets, frozen).
const (
	PhaseOverhead  = 2 * time.Millisecond
	FreezeOverhead = 4500 * time.Microsecond
)

// WarmupSlice is the length of one slice of an adaptive warm-up (WarmupMax): JMH's
// default iteration. The last slice may run past WarmupMax by less than one slice.
const WarmupSlice = time.Second

// DefaultReference is how long the reference runs at each end of a batch by default
// (Spec.Reference), and MaxReference the longest it may: a short look at the
// machine's speed, not a benchmark.
const (
	DefaultReference = 500 * time.Millisecond
	MaxReference     = time.Second
)

// KeepAliveSlice is the length of one keep-alive slice (Spec.KeepAlive): the
// rounds' usual slice.
const KeepAliveSlice = 50 * time.Millisecond

// WarmupBound is the longest the warm-up of s can last: WarmupMax for an adaptive
// one, Warmup otherwise.
func (s Spec) WarmupBound() time.Duration {
	return max(s.Warmup, s.WarmupMax)
}

// DefaultMaxMessageSize is the default bound on one message (16 MiB).
const DefaultMaxMessageSize = 16 << 20

// Limits: far beyond any sensible benchmark, so that a typo fails at once rather than
// an hour into a run.
const (
	MaxTime        = 24 * time.Hour
	MaxRounds      = 1_000_000
	MaxForks       = 1000
	MaxOps         = 1_000_000_000_000
	MaxDataSize    = 1_000_000
	MaxMessageSize = 1<<31 - 1
	MaxConcurrency = 1_000_000
	// The message workload's generator: a message of MaxMessageCount distinct values,
	// strings and bytes of MaxMessageFieldLen, MaxMessageRepeated elements in each
	// list and map (a nested message multiplies them: the message size bound refuses
	// what is too large).
	MaxMessageCount    = 10_000
	MaxMessageFieldLen = 1 << 20
	MaxMessageRepeated = 10_000
)

// Default returns the defaults of every benchmark: those of `wirebench bench` and
// under every suite's defaults. Protocol is left empty (it has no default).
func Default() Spec {
	s := Spec{Transport: TCP, Workload: "person.get", Load: load.Model{Kind: load.Closed, Concurrency: 50, Connections: 1}}
	for _, st := range Settings {
		if st.Default != nil {
			st.Set(&s, st.Default)
		}
	}
	return s
}

// Error is a problem with one setting of a spec. Setting is its name in a suite
// file (rounds, call_timeout, ...; "load" for the load model), so that the bench
// command and the suite reader can point at their own spelling of it.
type Error struct {
	Setting string
	Msg     string
}

func (e *Error) Error() string { return e.Setting + ": " + e.Msg }

func bad(setting, format string, args ...any) error {
	return &Error{Setting: setting, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks everything that can be checked without the protocol registry, and
// returns the first problem as an *Error naming the setting. Protocol and stack
// names are checked by control.Resolve.
func (s Spec) Validate() error {
	if s.Protocol == "" {
		return bad("protocol", "none given")
	}
	w, err := contract.LookupWorkload(s.Workload)
	if err != nil {
		return bad("workload", "%v", err)
	}
	if err := w.Check(s.Params); err != nil {
		return bad("params", "%v", err)
	}
	if w.Name == "message" && s.Params.Messages == nil {
		switch {
		case s.MessageName == "":
			return bad("message", "the message workload needs the full name of a message (--message package.Message)")
		case s.MessageProto == "":
			return bad("message_proto", "the message workload needs the .proto that defines %s (--proto FILE)", s.MessageName)
		}
	}
	if _, err := s.Load.Normalize(); err != nil {
		return bad("load", "%v", err)
	}
	if err := s.checkCall(); err != nil {
		return err
	}
	if s.Capacity != nil {
		if s.Load.Kind != load.Open {
			return bad("load", "a capacity search runs the open model (its rate is where the search starts)")
		}
		if err := s.Capacity.Validate(); err != nil {
			return err
		}
		if s.WarmupMax != 0 {
			return bad("warmup_max", "a capacity search warms up for its warmup at the start rate; an adaptive warm-up is for rounds of slices")
		}
	}
	switch {
	case s.Load.Concurrency > MaxConcurrency:
		return bad("concurrency", "%d is over %d", s.Load.Concurrency, MaxConcurrency)
	case s.Load.Kind == load.Open && s.Load.Rate > 1e9:
		return bad("rate", "%v is over 1e9 ops/s", s.Load.Rate)
	case s.Transport != TCP && s.Transport != Unix && s.Transport != TLS && s.Transport != QUIC && s.Transport != InProc:
		return bad("transport", "%q, want tcp, unix, tls or quic", s.Transport)
	case (s.SliceTime != 0) == (s.SliceOps != 0):
		return bad("duration", "a slice lasts a duration or a number of ops: set exactly one, and positive")
	}
	// Each setting on its own, as the table bounds it (the suite reader checks the
	// same at each value's position).
	if err := s.checkSettings(); err != nil {
		return err
	}
	// Settings that are wrong only together.
	if s.KeepAlive != 0 && s.KeepAlive < WarmupSlice {
		return bad("keep_alive", "%v, want 0 (none) or at least one warm-up slice (%v): a target gets its keep-alive between its neighbours' warm-up slices", s.KeepAlive, WarmupSlice)
	}
	if s.WarmupMax != 0 && s.WarmupMax < max(s.Warmup, WarmupSlice) {
		return bad("warmup_max", "%v, want 0 (a fixed warm-up) or from the warmup (%v, and at least one %v slice) to %v",
			s.WarmupMax, s.Warmup, WarmupSlice, MaxTime)
	}
	// A suite's grouping, not a setting of one benchmark (the suite reader checks it
	// where the suite says it).
	if s.InterleaveBy != "" && s.InterleaveBy != InterleaveServer {
		return bad("interleave_by", "%q, want server (or nothing: every target of a group in one set of rounds)", s.InterleaveBy)
	}
	return nil
}

// SamePlan reports whether a and b are measured the same way, so that they can be
// compared as targets of one group: every setting but those a target may have of its
// own (Setting.PerTarget: its warmup, runtime options). The target (protocol, stacks,
// label, transport, address, options) differs by design, and the workload and load
// are what Group names.
// A capacity search is in no group.
func SamePlan(a, b Spec) bool {
	if a.Capacity != nil || b.Capacity != nil {
		return false // a capacity search answers for its target alone
	}
	for _, st := range Settings {
		if !st.PerTarget && !equalValues(st.Get(a), st.Get(b)) {
			return false
		}
	}
	return true
}
