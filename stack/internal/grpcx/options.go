package grpcx

import (
	"fmt"
	"math"
	"strconv"

	"google.golang.org/grpc"

	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/protocol"
)

// The options of the gRPC adapters, set by name in protocol.ClientConfig.Options and
// protocol.ServerConfig.Options: grpc-go's transport knobs, which a suite can sweep as
// the original benchmarks swept grpc-java's. Sizes read like "64KiB" or "1MiB"
// (internal/units). An option left out keeps grpc-go's default.
const (
	// OptionInitialWindowSize is the HTTP/2 flow-control window of each stream, at
	// least 64KiB (grpc-go ignores smaller values, so they are refused) and below
	// 2GiB. Setting it, or OptionInitialConnWindowSize, turns off grpc-go's dynamic
	// (BDP-estimated) windows on that side: the windows stay fixed, and the one not
	// set stays at HTTP/2's 64KiB, so a large static window needs both.
	// Default: dynamic windows starting at 64KiB.
	OptionInitialWindowSize = "initial_window_size"
	// OptionInitialConnWindowSize is the HTTP/2 flow-control window of the whole
	// connection, shared by its streams; the same bounds and effect as
	// OptionInitialWindowSize.
	OptionInitialConnWindowSize = "initial_conn_window_size"
	// OptionReadBufferSize is the size of the buffered reader in front of each
	// connection: at most this many bytes per read system call. 0 reads straight
	// from the connection. Default 32KiB; at most 1GiB.
	OptionReadBufferSize = "read_buffer_size"
	// OptionWriteBufferSize is how many bytes are batched before a write system call.
	// 0 writes each frame at once. Default 32KiB; at most 1GiB.
	OptionWriteBufferSize = "write_buffer_size"
	// OptionNumStreamWorkers (server only) is the number of goroutines that serve
	// incoming streams (grpc.NumStreamWorkers), a plain count such as "4". 0, the
	// default, turns workers off: each stream gets a new goroutine. A fixed worker pool
	// is the nearest Go analogue of grpc-java's direct executor (handlers run on
	// transport threads, no hand-off); it saves the goroutine start per call, and a
	// stream that finds every worker busy still gets its own goroutine. At most 4096.
	OptionNumStreamWorkers = "num_stream_workers"
)

// ClientOptionNames lists the options a gRPC client accepts.
var ClientOptionNames = []string{
	OptionInitialWindowSize, OptionInitialConnWindowSize, OptionReadBufferSize, OptionWriteBufferSize,
}

// ServerOptionNames lists the options a gRPC server accepts.
var ServerOptionNames = []string{
	OptionInitialWindowSize, OptionInitialConnWindowSize, OptionReadBufferSize, OptionWriteBufferSize,
	OptionNumStreamWorkers,
}

const (
	minWindow    = 64 << 10 // HTTP/2's default; grpc-go ignores smaller windows
	maxBuffer    = 1 << 30
	maxWorkers   = 4096
	sizeExamples = "such as 64KiB or 1MiB"
)

// ClientOptions validates the client options of protocol proto and returns them as
// dial options. The error names the option at fault.
func ClientOptions(proto string, opts map[string]string) ([]grpc.DialOption, error) {
	return build(proto, opts, ClientOptionNames, map[string]func(int64) grpc.DialOption{
		OptionInitialWindowSize:     func(n int64) grpc.DialOption { return grpc.WithInitialWindowSize(int32(n)) },
		OptionInitialConnWindowSize: func(n int64) grpc.DialOption { return grpc.WithInitialConnWindowSize(int32(n)) },
		OptionReadBufferSize:        func(n int64) grpc.DialOption { return grpc.WithReadBufferSize(int(n)) },
		OptionWriteBufferSize:       func(n int64) grpc.DialOption { return grpc.WithWriteBufferSize(int(n)) },
	})
}

// ServerOptions validates the server options of protocol proto and returns them as
// server options. The error names the option at fault.
func ServerOptions(proto string, opts map[string]string) ([]grpc.ServerOption, error) {
	return build(proto, opts, ServerOptionNames, map[string]func(int64) grpc.ServerOption{
		OptionInitialWindowSize:     func(n int64) grpc.ServerOption { return grpc.InitialWindowSize(int32(n)) },
		OptionInitialConnWindowSize: func(n int64) grpc.ServerOption { return grpc.InitialConnWindowSize(int32(n)) },
		OptionReadBufferSize:        func(n int64) grpc.ServerOption { return grpc.ReadBufferSize(int(n)) },
		OptionWriteBufferSize:       func(n int64) grpc.ServerOption { return grpc.WriteBufferSize(int(n)) },
		OptionNumStreamWorkers:      func(n int64) grpc.ServerOption { return grpc.NumStreamWorkers(uint32(n)) },
	})
}

// build checks opts against names and turns each option set into its grpc-go option,
// in the order of names (so the result does not depend on map order).
func build[O any](proto string, opts map[string]string, names []string, mk map[string]func(int64) O) ([]O, error) {
	if err := protocol.CheckOptions(proto, opts, names...); err != nil {
		return nil, err
	}
	var out []O
	for _, name := range names {
		v, ok := opts[name]
		if !ok {
			continue
		}
		n, err := parseOption(proto, name, v)
		if err != nil {
			return nil, err
		}
		out = append(out, mk[name](n))
	}
	return out, nil
}

// parseOption reads the value of one option and checks its bounds.
func parseOption(proto, name, v string) (int64, error) {
	if name == OptionNumStreamWorkers {
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil || n > maxWorkers {
			return 0, fmt.Errorf("%s: option %s: want a number of goroutines from 0 (off) to %d, got %q", proto, name, maxWorkers, v)
		}
		return int64(n), nil
	}
	sz, err := units.ParseSize(v)
	if err != nil {
		return 0, fmt.Errorf("%s: option %s: %w", proto, name, err)
	}
	n := int64(sz)
	switch name {
	case OptionInitialWindowSize, OptionInitialConnWindowSize:
		if n < minWindow || n > math.MaxInt32 {
			return 0, fmt.Errorf("%s: option %s: want a size from 64KiB to 2GiB-1, %s, got %q", proto, name, sizeExamples, v)
		}
	default:
		if n > maxBuffer {
			return 0, fmt.Errorf("%s: option %s: want a size from 0 to 1GiB, %s, got %q", proto, name, sizeExamples, v)
		}
	}
	return n, nil
}
