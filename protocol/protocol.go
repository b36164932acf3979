// Package protocol holds the registry of protocols and stacks. A Protocol is a wire
// mapping of the contract ("http-json", "grpc-proto", ...); a Stack is a named
// implementation of one or both sides of a protocol (its language, libraries and
// tier), such as "go-nethttp-json" or "grpc-go". Each adapter lives in its own package
// under protocol/ and registers its protocol and stacks from its init function; the
// blank imports in stack/all make every built-in one available. Nothing outside an
// adapter's package switches on protocol or stack names.
package protocol

import (
	"context"
	"errors"
	"fmt"
	"github.com/wirebench/wirebench/internal/suggest"
	"net"
	"slices"
	"sort"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
)

// DefaultMaxMessageSize is the default limit on one request or response message, on
// servers and clients alike: the max_message_size setting's default (spec.Settings).
const DefaultMaxMessageSize = spec.DefaultMaxMessageSize

// Protocol is a registered wire mapping of the contract.
type Protocol struct {
	// Name is what users type: "http-json", "grpc-proto", ...
	Name string
	// Summary is one line for `wirebench list`.
	Summary string
	// InProcess is true for protocols with no wire (direct): they have no server, and
	// their client calls ClientConfig.Local.
	InProcess bool
	// DefaultServer and DefaultClient name the stacks a benchmark uses when it names
	// none: production stacks, written as a service would be. An in-process protocol
	// has no server stack.
	DefaultServer, DefaultClient string
	// NoMessages, for a protocol that cannot carry a user's own message (the message
	// workload), says why (its schema is compiled ahead, it has no dynamic
	// messages); "" when it can (its stacks with Stack.Messages do).
	NoMessages string
}

// ServerConfig configures a protocol server.
type ServerConfig struct {
	// MaxMessageSize bounds one request message in bytes; a larger one is refused
	// without being read whole into memory. 0 means DefaultMaxMessageSize.
	MaxMessageSize int
	// Options are protocol-specific settings (for example a gRPC window size), by
	// name. Adapters reject names they do not know.
	Options map[string]string
	// TLS, when enabled, makes the server speak TLS 1.3 with this certificate on
	// every listener, negotiating by ALPN the application protocol it speaks. Only
	// stacks with Stack.TLS set take it; the others refuse it.
	TLS transport.TLS
	// Message, when set, is a user's message type the server echoes (the message
	// workload): it decodes each request into a dynamic message of the type and
	// answers with that decoded value encoded again. Only stacks with Stack.Messages
	// take it; the others refuse it.
	Message protoreflect.MessageDescriptor
}

// MessageLimit returns MaxMessageSize, or the default when it is 0.
func (c ServerConfig) MessageLimit() int {
	if c.MaxMessageSize > 0 {
		return c.MaxMessageSize
	}
	return DefaultMaxMessageSize
}

// ClientConfig configures a protocol client.
type ClientConfig struct {
	// Address is the server's address (unused by in-process protocols).
	Address transport.Addr
	// Dial opens one connection to Address; clients must open every connection through
	// it, so that bytes are counted. NewClient fills it in from Address when nil.
	Dial transport.DialFunc
	// Packet opens the UDP socket a client over QUIC (a stack with Stack.QUIC, an
	// Address of network udp) dials from; its datagrams are counted as Dial's
	// connections are. NewClient fills it in for a udp Address when nil.
	Packet transport.PacketFunc
	// Local is the service an in-process protocol calls.
	Local contract.Service
	// MaxMessageSize bounds one response message in bytes; 0 means the default.
	MaxMessageSize int
	// Concurrency is the most calls the client is expected to carry at once (0:
	// unknown). A client that pools connections sizes its pool from it, as a service
	// sizes its client's pool for the calls it makes at once; it is no limit.
	Concurrency int
	// Options are protocol-specific settings (for example a gRPC window size), by
	// name. Adapters reject names they do not know.
	Options map[string]string
	// NoProbe tells a client that checks its target in NewClient with a connection
	// of its own (one it would not use for calls) to skip that check: the caller
	// makes a call at once (PerCall), which fails as clearly.
	NoProbe bool
	// TLS, when enabled, makes the client speak TLS 1.3 over every connection it
	// opens through Dial, trusting TLS.CAPEM only; the handshake is made when the
	// connection is opened (transport.TLSDialer). Only stacks with Stack.TLS take it.
	TLS transport.TLS
	// Message, when set, is the user's message type the client's EchoMessage sends
	// and decodes (usermsg.Echoer); only stacks with Stack.Messages take it.
	Message protoreflect.MessageDescriptor
}

// MessageLimit returns MaxMessageSize, or the default when it is 0.
func (c ClientConfig) MessageLimit() int {
	if c.MaxMessageSize > 0 {
		return c.MaxMessageSize
	}
	return DefaultMaxMessageSize
}

// Server serves a contract.Service on listeners.
//
// Serve may be called from several goroutines with different listeners. Close stops
// the server at once: listeners and connections are closed, calls in flight fail on
// their clients, and every Serve returns. Shutdown stops accepting, lets calls in flight
// finish until ctx is done, then closes like Close. Both are safe to call more than once.
type Server interface {
	// Serve accepts connections on ln until the server is closed. It returns nil after
	// Close or Shutdown, and the accept error otherwise.
	Serve(ln net.Listener) error
	Shutdown(ctx context.Context) error
	Close() error
}

// PacketServer is a Server over QUIC: it serves on a UDP socket, never on a stream
// listener (its Serve refuses one). ServePacket serves pc until the server is closed,
// then closes pc and returns nil. A stack whose server is one has Stack.QUIC set.
type PacketServer interface {
	Server
	ServePacket(pc net.PacketConn) error
}

// Client is a connection (or pool of connections) to one server, and a contract.Service.
// It is safe for concurrent use. Close releases its connections; calls after Close fail.
type Client interface {
	contract.Service
	Close() error
}

var (
	mu       sync.RWMutex
	registry = map[string]*Protocol{}
	stacks   = map[string][]*Stack{} // by protocol, in registration order
)

// Register adds p to the registry; its default stacks are registered with
// RegisterStack (before or after). It panics on a duplicate or incomplete entry, which
// is a programming error in an adapter's init.
func Register(p *Protocol) {
	mu.Lock()
	defer mu.Unlock()
	switch {
	case p.Name == "" || p.DefaultClient == "":
		panic("protocol: Register needs a Name and a DefaultClient")
	case !p.InProcess && p.DefaultServer == "":
		panic("protocol: " + p.Name + " needs a DefaultServer")
	case registry[p.Name] != nil:
		panic("protocol: " + p.Name + " registered twice")
	}
	registry[p.Name] = p
}

// ErrUnknown is wrapped by Lookup's error for a name that is not registered.
var ErrUnknown = errors.New("unknown protocol")

// Lookup returns the protocol registered under name.
func Lookup(name string) (*Protocol, error) {
	mu.RLock()
	defer mu.RUnlock()
	if p := registry[name]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("%w %q%s (known: %s)", ErrUnknown, name, suggest.Hint(name, namesLocked()), strings.Join(namesLocked(), ", "))
}

// Names returns the registered protocol names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// All returns the registered protocols sorted by name.
func All() []*Protocol {
	mu.RLock()
	defer mu.RUnlock()
	ps := make([]*Protocol, 0, len(registry))
	for _, n := range namesLocked() {
		ps = append(ps, registry[n])
	}
	return ps
}

// NewServer returns a server of svc made by p's default server stack.
func (p *Protocol) NewServer(svc contract.Service, cfg ServerConfig) (Server, error) {
	s, err := LookupStack(p.Name, "", ServerSide)
	if err != nil {
		return nil, err
	}
	return s.NewServer(svc, cfg)
}

// NewClient returns a client made by p's default client stack.
func (p *Protocol) NewClient(ctx context.Context, cfg ClientConfig) (Client, error) {
	s, err := LookupStack(p.Name, "", ClientSide)
	if err != nil {
		return nil, err
	}
	return s.NewClient(ctx, cfg)
}

// Dial returns a client of p's default client stack for cfg, filling in cfg.Dial
// from cfg.Address (with no byte counting) when it is nil.
func (p *Protocol) Dial(ctx context.Context, cfg ClientConfig) (Client, error) {
	s, err := LookupStack(p.Name, "", ClientSide)
	if err != nil {
		return nil, err
	}
	return s.Dial(ctx, cfg)
}

// CheckOptions returns an error naming the first key of opts not in known.
func CheckOptions(protocol string, opts map[string]string, known ...string) error {
	for k := range opts {
		if !slices.Contains(known, k) {
			return fmt.Errorf("%s: unknown option %q%s (known: %s)", protocol, k, suggest.Hint(k, known), strings.Join(known, ", "))
		}
	}
	return nil
}

// Servers adapts an adapter's constructor that returns its concrete server type to
// Protocol.NewServer. Returning the concrete nil pointer of a failed constructor
// through the interface would give a non-nil Server; this returns a nil interface.
func Servers[S Server](f func(contract.Service, ServerConfig) (S, error)) func(contract.Service, ServerConfig) (Server, error) {
	return func(svc contract.Service, cfg ServerConfig) (Server, error) {
		s, err := f(svc, cfg)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
}

// Clients is Servers for Protocol.NewClient.
func Clients[C Client](f func(context.Context, ClientConfig) (C, error)) func(context.Context, ClientConfig) (Client, error) {
	return func(ctx context.Context, cfg ClientConfig) (Client, error) {
		c, err := f(ctx, cfg)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// ServeAt listens on a (a UDP socket for a udp address, which only a PacketServer
// takes; a stream listener otherwise) and serves srv there in a goroutine. It returns
// the address bound (its port, when a's was 0) and a channel that receives what Serve
// (or ServePacket) returns. On an error nothing is served and srv is left as it was.
func ServeAt(srv Server, a transport.Addr) (transport.Addr, <-chan error, error) {
	served := make(chan error, 1)
	if a.Network == "udp" {
		ps, ok := srv.(PacketServer)
		if !ok {
			return transport.Addr{}, nil, fmt.Errorf("%s is a udp address, and this server does not serve QUIC", a)
		}
		pc, err := transport.ListenPacket(a)
		if err != nil {
			return transport.Addr{}, nil, err
		}
		go func() { served <- ps.ServePacket(pc) }()
		return transport.AddrOf(pc.LocalAddr()), served, nil
	}
	ln, err := transport.Listen(a)
	if err != nil {
		return transport.Addr{}, nil, err
	}
	go func() { served <- srv.Serve(ln) }()
	return transport.AddrOf(ln.Addr()), served, nil
}
