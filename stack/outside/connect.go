package outside

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/stack/connectgo"
)

// newConnectClient calls r's method with connect-go (the Connect protocol with its
// binary or JSON codec, or gRPC-Web) over one HTTP/2 connection (h2c, or h2 over
// TLS). connect-go takes dynamic messages: WithSchema gives it the method and
// WithResponseInitializer makes each reply a dynamicpb message of its output type.
func newConnectClient(ctx context.Context, proto string, r *rpc, call *spec.Call, cfg protocol.ClientConfig) (*Client, error) {
	if cfg.Dial == nil {
		return nil, fmt.Errorf("%s: ClientConfig.Dial is nil", proto)
	}
	tr, base, err := connectgo.H2Transport(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", proto, err)
	}
	tr.MaxConnsPerHost = 1 // one connection, as a gRPC client's; HTTP/2 multiplexes the calls
	opts := []connect.ClientOption{
		connect.WithSchema(r.md),
		connect.WithReadMaxBytes(cfg.MessageLimit()),
		connect.WithResponseInitializer(func(_ connect.Spec, msg any) error {
			m, ok := msg.(*dynamicpb.Message)
			if !ok {
				return fmt.Errorf("reply of type %T, want a dynamic message", msg)
			}
			*m = *dynamicpb.NewMessage(r.md.Output())
			return nil
		}),
	}
	switch proto {
	case "connect-json":
		opts = append(opts, connect.WithProtoJSON())
	case "grpc-web":
		opts = append(opts, connect.WithGRPCWeb())
	}
	cl := connect.NewClient[dynamicpb.Message, dynamicpb.Message](&http.Client{Transport: tr}, base+"/"+call.Method, opts...)
	c := &Client{close: func() error { tr.CloseIdleConnections(); return nil }}
	header := func(h http.Header) {
		for k, v := range call.Metadata {
			h.Set(k, v)
		}
	}
	fail := func(ctx context.Context, err error) error { return connectStatus(ctx, proto, err) }
	switch {
	case !r.md.IsStreamingClient() && !r.md.IsStreamingServer():
		c.call = func(ctx context.Context, seq uint64) error {
			req := connect.NewRequest(r.request(seq))
			header(req.Header())
			res, err := cl.CallUnary(ctx, req)
			if err != nil {
				return fail(ctx, err)
			}
			return r.checkReply(res.Msg)
		}
	case !r.md.IsStreamingClient():
		c.call = func(ctx context.Context, seq uint64) error {
			req := connect.NewRequest(r.request(seq))
			header(req.Header())
			st, err := cl.CallServerStream(ctx, req)
			if err != nil {
				return fail(ctx, err)
			}
			defer st.Close()
			n := 0
			for st.Receive() {
				n++
				if err := r.checkReply(st.Msg()); err != nil {
					return err
				}
			}
			if err := st.Err(); err != nil {
				return fail(ctx, err)
			}
			return r.streamEnd(n)
		}
	case !r.md.IsStreamingServer():
		c.call = func(ctx context.Context, _ uint64) error {
			st := cl.CallClientStream(ctx)
			header(st.RequestHeader())
			for _, m := range r.reqs {
				if err := st.Send(m); err != nil {
					break // the call's status comes with the reply
				}
			}
			res, err := st.CloseAndReceive()
			if err != nil {
				return fail(ctx, err)
			}
			return r.checkReply(res.Msg)
		}
	default:
		c.call = func(ctx context.Context, _ uint64) error {
			st := cl.CallBidiStream(ctx)
			header(st.RequestHeader())
			for _, m := range r.reqs {
				if err := st.Send(m); err != nil {
					break
				}
			}
			if err := st.CloseRequest(); err != nil && !errors.Is(err, context.Canceled) {
				return fail(ctx, err)
			}
			n := 0
			for {
				m, err := st.Receive()
				if err != nil {
					if isEOF(err) {
						st.CloseResponse()
						return r.streamEnd(n)
					}
					st.CloseResponse()
					return fail(ctx, err)
				}
				n++
				if err := r.checkReply(m); err != nil {
					st.CloseResponse()
					return err
				}
			}
		}
	}
	return c, nil
}

// hostOf is the authority of cfg's target: its address, or localhost for a Unix
// socket (which has no host name).
func hostOf(cfg protocol.ClientConfig) string {
	if cfg.Address.Network != "tcp" || cfg.Address.Address == "" {
		return "localhost"
	}
	return cfg.Address.Address
}

// connectStatus returns a call's error as its status ("connect:unavailable" over the
// Connect protocol, "grpc-web:unavailable" over gRPC-Web), or the context's error
// when the call was cut by it.
func connectStatus(ctx context.Context, proto string, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	var ce *connect.Error
	if errors.As(err, &ce) && ce.Code() != 0 {
		scheme := "connect"
		if proto == "grpc-web" {
			scheme = "grpc-web"
		}
		return &StatusError{Status: scheme + ":" + ce.Code().String(), Msg: ce.Message()}
	}
	return err
}

func isEOF(err error) bool { return errors.Is(err, io.EOF) }
