// Package capnpgo is the capnp-go stack of the capnp wire mapping (protocol/capnprpc):
// a server and a client on capnproto.org/go/capnp/v3's RPC, the contract's Wirebench
// interface served as the bootstrap capability of each connection.
//
// Design:
//
//   - Framing is bounded: each connection's transport refuses a frame larger than the
//     configured message limit (plus 64 KiB for the RPC envelope) from its header,
//     before reserving memory for it, and ends the connection; each received message
//     gets a traversal limit of 4 × its size + 64 KiB; once a frame has started, the
//     rest must arrive within 30 s (idle connections may wait for ever between frames).
//   - Memory follows the bytes received (frame.go): a server reserves a frame whole
//     from its header, as capnp does, only up to 64 KiB or while a budget of one
//     message limit, shared by its connections, has room; beyond that the frame's
//     buffer grows as its bytes arrive. Peers that send large headers and stall cost
//     the server at most that budget plus 64 KiB each.
//   - Errors: the mapping's (capnprpc.EncodeError, capnprpc.DecodeError). A connection
//     aborted because a message was over a limit fails the calls that were in flight
//     on it with ResourceExhausted. Everything else (disconnection, ...) stays a
//     non-contract error; calls that fail because their context ended satisfy
//     errors.Is(err, ctx.Err()).
//   - Every server method calls server.Call.Go first, so a slow call (a long stream, a
//     slow service) never holds up the other calls of its connection.
//   - StreamTrades: the server pushes trades to the client's TradeSink in batches of
//     StreamBatch, at most StreamWindow bytes unacknowledged, then calls done(count).
//     When yield fails, the sink fails that push and every later one, the client
//     cancels the call, and the server stops.
//   - Flow control on the client: the bootstrap capability carries a limiter bounding
//     the request bytes sent and not yet answered (option flow_window).
package capnpgo

import (
	"context"
	"fmt"
	"strings"

	"capnproto.org/go/capnp/v3/flowcontrol"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/capnprpc"
)

// Name is the stack's registry name.
const Name = "capnp-go"

const (
	// StreamBatch is the number of trades per TradeSink.push. One trade takes 56 bytes
	// on the wire (a 5-word struct, a pointer and a short text), so a push of 256 is
	// about 14 KiB: large enough that the per-call cost (an RPC message each way, a
	// return, a goroutine on each side) is spread over many trades, small enough that
	// the first trades arrive without waiting for a large batch and that a stopped
	// stream wastes little.
	StreamBatch = 256

	// StreamWindow bounds the bytes of pushes the server has sent on one stream and
	// the client has not yet acknowledged (a fixed flow limiter on the server's copy
	// of the sink): 256 KiB, about 18 batches, covers the round trip of a loopback or
	// LAN link at full rate while bounding what a slow receiver makes the server
	// queue. Larger pushes (none with StreamBatch trades) count as the whole window.
	StreamWindow = 256 << 10

	// OptionFlowWindow is the client option bounding the request bytes a client has
	// sent and not had answered, e.g. "8MiB". Default: 4 × the client's message limit
	// (64 MiB by default). A call over it waits, after sending, for answers to free
	// room; a request larger than the window counts as the whole window.
	OptionFlowWindow = "flow_window"
)

func init() {
	protocol.RegisterStack(&protocol.Stack{
		Name: Name, Protocol: capnprpc.Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "capnproto.org/go/capnp/v3 RPC with generated code",
		Libraries: protocol.GoLibraries("capnproto.org/go/capnp/v3"),
		Sides:     protocol.ServerSide | protocol.ClientSide, OriginalTrades: true,
		TLS:       true,
		NewServer: protocol.Servers(NewServer),
		NewClient: protocol.Clients(NewClient),
	})
}

// tooLarge reports whether a connection failure reason says a message was over a
// size limit (ours or the peer's).
func tooLarge(reason string) bool {
	return strings.Contains(reason, "message too large")
}

// clampLimiter is a fixed flow limiter that counts a message larger than the whole
// window as the window, where flowcontrol's fixed limiter panics.
type clampLimiter struct {
	flowcontrol.FlowLimiter
	max uint64
}

func newLimiter(window int64) flowcontrol.FlowLimiter {
	return clampLimiter{FlowLimiter: flowcontrol.NewFixedLimiter(window), max: uint64(window)}
}

func (l clampLimiter) StartMessage(ctx context.Context, size uint64) (func(), error) {
	return l.FlowLimiter.StartMessage(ctx, min(size, l.max))
}

// nopLogger is the rpc logger of servers: a library never prints, and a closing
// connection is no error of the application.
type nopLogger struct{}

func (nopLogger) Debug(string, ...any) {}
func (nopLogger) Info(string, ...any)  {}
func (nopLogger) Warn(string, ...any)  {}
func (nopLogger) Error(string, ...any) {}

// opError names the failed operation in an error that is not a contract error.
func opError(op string, err error) error {
	return fmt.Errorf("capnp %s: %w", op, err)
}
