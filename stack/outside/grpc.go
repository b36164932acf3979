package outside

import (
	"context"
	"errors"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/stack/internal/grpcx"
)

// newGRPCClient calls r's method with grpc-go over one connection. grpc-go's proto
// codec marshals any proto.Message, dynamicpb's included, so the messages need no
// codec of their own.
func newGRPCClient(ctx context.Context, r *rpc, call *spec.Call, cfg protocol.ClientConfig) (*Client, error) {
	conn, err := grpcx.Dial(ctx, "grpc-proto", cfg)
	if err != nil {
		return nil, err
	}
	path := "/" + call.Method
	md := metadata.New(call.Metadata)
	desc := &grpc.StreamDesc{StreamName: string(r.md.Name()),
		ServerStreams: r.md.IsStreamingServer(), ClientStreams: r.md.IsStreamingClient()}
	unary := !desc.ServerStreams && !desc.ClientStreams
	c := &Client{close: conn.Close}
	c.call = func(ctx context.Context, seq uint64) error {
		if len(md) > 0 {
			ctx = metadata.NewOutgoingContext(ctx, md)
		}
		if unary {
			out := dynamicpb.NewMessage(r.md.Output())
			if err := conn.Invoke(ctx, path, r.request(seq), out); err != nil {
				return grpcStatus(ctx, err)
			}
			return r.checkReply(out)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel() // ends the stream if a reply fails its check
		st, err := conn.NewStream(ctx, desc, path)
		if err != nil {
			return grpcStatus(ctx, err)
		}
		if desc.ClientStreams {
			for _, m := range r.reqs {
				if err := st.SendMsg(m); err != nil {
					break // the stream's status comes with the first receive
				}
			}
		} else if err := st.SendMsg(r.request(seq)); err != nil && !errors.Is(err, io.EOF) {
			return grpcStatus(ctx, err)
		}
		if err := st.CloseSend(); err != nil {
			return grpcStatus(ctx, err)
		}
		n := 0
		for {
			out := dynamicpb.NewMessage(r.md.Output())
			err := st.RecvMsg(out)
			if errors.Is(err, io.EOF) {
				if !desc.ServerStreams && n == 0 {
					return grpcStatus(ctx, errNoReply)
				}
				return r.streamEnd(n)
			}
			if err != nil {
				return grpcStatus(ctx, err)
			}
			n++
			if err := r.checkReply(out); err != nil {
				return err
			}
		}
	}
	return c, nil
}

// grpcStatus returns a call's error as its status (a StatusError "grpc:CODE"), or err
// itself when it has none (the engine then tells a timeout, a reset, ...).
// A call cut by its context (its timeout, or the run's end) is the context's error.
func grpcStatus(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if s, ok := status.FromError(err); ok && s.Code() != 0 {
		return &StatusError{Status: "grpc:" + s.Code().String(), Msg: s.Message()}
	}
	return err
}
