package protocol

import (
	"context"
	"errors"
	"fmt"
	"github.com/wirebench/wirebench/internal/suggest"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/transport"
)

// Tier says how a stack is written, after the tiers of the benchmark suites people
// trust (TechEmpower's realistic and stripped implementations, HttpArena's production
// and tuned tiers).
type Tier string

const (
	// Production: stock libraries and settings, written the way a service would be.
	Production Tier = "production"
	// Tuned: hand-optimised code or non-default settings. Always marked in reports,
	// never a protocol's default.
	Tuned Tier = "tuned"
)

// Side is a side of a protocol that a stack implements.
type Side uint8

const (
	ServerSide Side = 1 << iota
	ClientSide
)

func (s Side) String() string {
	switch s {
	case ServerSide:
		return "server"
	case ClientSide:
		return "client"
	case ServerSide | ClientSide:
		return "server and client"
	}
	return "no side"
}

// Worker kinds: the process a stack runs in.
const (
	// WorkerGo is wirebench's own worker: the stack is compiled into this binary.
	WorkerGo = "go"
	// WorkerJava is the JVM worker of workers/java.
	WorkerJava = "java"
	// WorkerRust is the Rust worker of workers/rust.
	WorkerRust = "rust"
	// WorkerPython is the Python worker of workers/python.
	WorkerPython = "python"
	// WorkerNode is the Node worker of workers/node.
	WorkerNode = "node"
)

// Stack is a named implementation of one or both sides of a protocol.
type Stack struct {
	// Name is what users type: "go-nethttp-json", "grpc-go", ... One name may be
	// registered for several protocols (grpc-go speaks grpc-proto and grpc-avro).
	Name string
	// Protocol is the wire mapping the stack speaks.
	Protocol string
	// Language is the stack's language: "go", "java", "scala".
	Language string
	// Tier is the stack's own tier; options set on a run make that side tuned
	// (TierWith).
	Tier Tier
	// Summary is one line for `wirebench list`.
	Summary string
	// Libraries are the libraries the stack is built on, by module or artifact, with
	// their versions ("go" is the Go standard library).
	Libraries map[string]string
	// Worker is the kind of worker process that runs the stack (WorkerGo, WorkerJava,
	// WorkerRust, WorkerPython, WorkerNode).
	Worker string
	// Family is the build of the worker that runs the stack, where a kind has several:
	// for WorkerJava, the stack family whose jar runs it ("" for the main jar, e.g.
	// "originals-2.12" for wirebench-worker-originals-2.12.jar; docs/java-worker.md).
	Family string
	// Sides are the sides the stack implements.
	Sides Side
	// TLS says that the stack's sides honour ServerConfig.TLS and ClientConfig.TLS;
	// a benchmark over TLS is refused for a stack without it.
	TLS bool
	// TLSExcept are the sides, among Sides, that do not speak TLS although TLS is set
	// (a library whose client speaks TLS 1.3 and whose server cannot); SpeaksTLS says.
	TLSExcept Side
	// QUIC says that the stack speaks HTTP/3 over QUIC (UDP, TLS 1.3 always): it runs
	// over the quic transport and no other, its server is a PacketServer and its
	// client dials from ClientConfig.Packet, with ServerConfig.TLS and
	// ClientConfig.TLS required.
	QUIC bool
	// OriginalTrades says that the stack's sides carry the REST vs gRPC original's
	// trade (Service.StreamOriginalTrades; a stream workload with trade: original): a
	// benchmark asking for it is refused for a stack without it, rather than run with
	// the compact trade.
	OriginalTrades bool
	// Messages says that the stack's sides carry a user's own message (the message
	// workload: ServerConfig.Message, ClientConfig.Message, usermsg.Echoer); a
	// benchmark of it is refused for a stack without it.
	Messages bool
	// MessagesExcept are the sides, among Sides, that do not carry a user's message
	// although Messages is set (a worker of another language that serves the echo
	// and has no client of it yet); CarriesMessages says.
	MessagesExcept Side
	// NewServer and NewClient make each side of a Go stack (WorkerGo); nil for a side
	// the stack does not implement, and for stacks of other workers.
	NewServer func(svc contract.Service, cfg ServerConfig) (Server, error)
	NewClient func(ctx context.Context, cfg ClientConfig) (Client, error)
}

// Has reports whether the stack implements side.
func (s *Stack) Has(side Side) bool { return s.Sides&side == side }

// SpeaksTLS reports whether the stack's side speaks TLS.
func (s *Stack) SpeaksTLS(side Side) bool { return s.TLS && s.Has(side) && s.TLSExcept&side == 0 }

// CarriesMessages reports whether the stack's side carries a user's own message.
func (s *Stack) CarriesMessages(side Side) bool {
	return s.Messages && s.Has(side) && s.MessagesExcept&side == 0
}

// TierWith is the tier of a run of the stack with options: tuned when the stack is,
// or when any option changes its library's defaults.
func (s *Stack) TierWith(options map[string]string) Tier {
	if len(options) > 0 {
		return Tuned
	}
	return s.Tier
}

// Dial returns a client of the stack for cfg, filling in cfg.Dial (cfg.Packet for a
// udp address) from cfg.Address, with no byte counting, when it is nil.
func (s *Stack) Dial(ctx context.Context, cfg ClientConfig) (Client, error) {
	if s.NewClient == nil {
		return nil, fmt.Errorf("%s stack %s has no client in this process (worker %s)", s.Protocol, s.Name, s.Worker)
	}
	switch {
	case cfg.Local != nil:
	case cfg.Address.Network == "udp" && cfg.Packet == nil:
		cfg.Packet = transport.PacketListener(nil)
	case cfg.Address.Network != "udp" && cfg.Dial == nil:
		cfg.Dial = transport.Dialer(cfg.Address, nil)
	}
	return s.NewClient(ctx, cfg)
}

// RegisterStack adds a stack of a protocol. It panics on a duplicate or incomplete
// entry, which is a programming error in an adapter's init.
func RegisterStack(s *Stack) {
	mu.Lock()
	defer mu.Unlock()
	switch {
	case s.Name == "" || s.Protocol == "" || s.Language == "" || s.Sides == 0:
		panic("protocol: RegisterStack needs a Name, Protocol, Language and Sides")
	case s.Tier != Production && s.Tier != Tuned:
		panic("protocol: stack " + s.Name + ": tier must be production or tuned")
	case s.Worker == "":
		panic("protocol: stack " + s.Name + ": no worker kind")
	case s.Worker == WorkerGo && s.Has(ServerSide) && s.NewServer == nil,
		s.Worker == WorkerGo && s.Has(ClientSide) && s.NewClient == nil:
		panic("protocol: Go stack " + s.Name + " lacks the constructor of a side it claims")
	}
	for _, o := range stacks[s.Protocol] {
		if o.Name == s.Name {
			panic("protocol: stack " + s.Name + " of " + s.Protocol + " registered twice")
		}
	}
	stacks[s.Protocol] = append(stacks[s.Protocol], s)
}

// loadClient is the function LoadClient asks, set by the stack that is wirebench's
// load generator (the instrument), so that the driver finds it without importing a
// concrete stack.
var loadClient func(proto, client string) string

// RegisterLoadClient sets how LoadClient answers: f names, for a protocol and a client
// stack of it, the client stack built to load that protocol's servers cheaply (the
// same protocol and HTTP version), or "". It panics when called twice.
func RegisterLoadClient(f func(proto, client string) string) {
	mu.Lock()
	defer mu.Unlock()
	if loadClient != nil {
		panic("protocol: RegisterLoadClient called twice")
	}
	loadClient = f
}

// LoadClient is the client stack built to load a server of proto cheaply in place of
// client, or "" when there is none (or no load generator is linked in).
func LoadClient(proto, client string) string {
	mu.RLock()
	f := loadClient
	mu.RUnlock()
	if f == nil {
		return ""
	}
	return f(proto, client)
}

// ErrUnknownStack is wrapped by LookupStack's error for a stack that does not exist,
// or does not implement the side of the protocol asked for.
var ErrUnknownStack = errors.New("unknown stack")

// LookupStack returns the stack of protocol proto called name that implements side
// (ServerSide or ClientSide); "" is the protocol's default for that side. An
// in-process protocol's server side is its client stack (the service runs in the
// client). The error lists the valid names.
func LookupStack(proto, name string, side Side) (*Stack, error) {
	mu.RLock()
	defer mu.RUnlock()
	p := registry[proto]
	if p == nil {
		return nil, fmt.Errorf("%w %q%s (known: %s)", ErrUnknown, proto, suggest.Hint(proto, namesLocked()), strings.Join(namesLocked(), ", "))
	}
	if p.InProcess {
		side = ClientSide
	}
	if name == "" {
		name = p.DefaultClient
		if side == ServerSide {
			name = p.DefaultServer
		}
	}
	var valid []string
	for _, s := range stacks[proto] {
		if !s.Has(side) {
			continue
		}
		if s.Name == name {
			return s, nil
		}
		valid = append(valid, s.Name)
	}
	// Say why a name that is a stack elsewhere is not one here: a pair of a matrix
	// names stacks of both sides and of several protocols, and a mix-up is the likely
	// mistake.
	why := ""
	for _, s := range stacks[proto] {
		if s.Name == name {
			why = fmt.Sprintf(": %s has no %s side in %s", name, side, proto)
		}
	}
	if why == "" {
		why = suggest.Hint(name, valid)
	}
	if why == "" {
		var others []string
		for other, sts := range stacks {
			for _, s := range sts {
				if s.Name == name && other != proto {
					others = append(others, other)
				}
			}
		}
		if len(others) > 0 {
			slices.Sort(others)
			why = fmt.Sprintf(": %s is a stack of %s, not of %s", name, strings.Join(others, ", "), proto)
		}
	}
	return nil, fmt.Errorf("%w %q for the %s side of %s%s (known: %s)", ErrUnknownStack, name, side, proto, why, strings.Join(valid, ", "))
}

// Stacks returns the stacks of a protocol in registration order.
func Stacks(proto string) []*Stack {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(stacks[proto])
}

// GoLibraries returns the versions of what a stack is built on, with "go" for the
// toolchain and runtime. A path is a module's, versioned as this binary's build
// information records it (a module the binary does not record, as in a test binary or
// a build without module information, is "(unknown)"), or a standard-library
// package's, such as net/http (no dot in its first element), versioned as the Go
// release that the binary is built with.
func GoLibraries(paths ...string) map[string]string {
	out := map[string]string{"go": runtime.Version()}
	var deps []*debug.Module
	if bi, ok := debug.ReadBuildInfo(); ok {
		deps = bi.Deps
	}
	for _, m := range paths {
		if first, _, _ := strings.Cut(m, "/"); !strings.Contains(first, ".") {
			out[m] = runtime.Version() // the standard library's
			continue
		}
		out[m] = "(unknown)"
		for _, d := range deps {
			if d.Path == m {
				out[m] = d.Version
				if d.Replace != nil {
					out[m] = d.Replace.Version
				}
			}
		}
	}
	return out
}
