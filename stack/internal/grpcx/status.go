package grpcx

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
)

// toGRPC maps contract codes to gRPC codes; fromGRPC is its inverse. A gRPC code not in
// fromGRPC (Unavailable, Unknown, ...) is no refusal of the service but a failure of
// the call, and stays a non-contract error on the client.
var (
	toGRPC = map[contract.Code]codes.Code{
		contract.NotFound:          codes.NotFound,
		contract.InvalidArgument:   codes.InvalidArgument,
		contract.ResourceExhausted: codes.ResourceExhausted,
		contract.Internal:          codes.Internal,
	}
	fromGRPC = map[codes.Code]contract.Code{
		codes.NotFound:          contract.NotFound,
		codes.InvalidArgument:   contract.InvalidArgument,
		codes.ResourceExhausted: contract.ResourceExhausted,
		codes.Internal:          contract.Internal,
	}
)

// ServerError turns an error of the service (or of sending its answer) into the error
// a gRPC handler returns:
//   - a *contract.Error becomes the status of its code, with its message;
//   - a context error becomes Canceled or DeadlineExceeded;
//   - an error that already carries a gRPC status (a failed Send) keeps it;
//   - anything else is the server failing on its own: Internal, with the error's text.
func ServerError(err error) error {
	if err == nil {
		return nil
	}
	var ce *contract.Error
	if errors.As(err, &ce) {
		c, ok := toGRPC[ce.Code]
		if !ok {
			c = codes.Internal
		}
		return status.Error(c, ce.Message)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return status.FromContextError(err).Err()
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.Error(codes.Internal, err.Error())
}

// ErrClosed is wrapped by the errors of calls on a closed client.
var ErrClosed = errors.New("client closed")

// ClientError maps the failure err of the call op of a client of protocol proto, made
// with ctx:
//   - the statuses of the contract's codes become a *contract.Error with the status
//     message (the server's refusal, or the client's own limit on an answer's size);
//   - when ctx has ended (or, for DeadlineExceeded and Canceled, ends within
//     deadlineSlack: see ctxErr), the error wraps ctx.Err() and the status, so that
//     errors.Is(err, ctx.Err()) holds for a call cut short by its context;
//   - any other status (Unavailable, Unknown, ...) stays a non-contract error, naming
//     the protocol and the operation, that still wraps the status.
//
// A contract status wins over an ended ctx: the server answered.
func ClientError(ctx context.Context, proto, op string, err error) error {
	if err == nil {
		return nil
	}
	st, isStatus := status.FromError(err)
	if isStatus {
		if code, ok := fromGRPC[st.Code()]; ok {
			return &contract.Error{Code: code, Message: st.Message()}
		}
	} else {
		st = nil // FromError's Unknown status for a plain error
	}
	if cerr := ctxErr(ctx, st); cerr != nil {
		return fmt.Errorf("%s %s: %w (%w)", proto, op, cerr, err)
	}
	return fmt.Errorf("%s %s: %w", proto, op, err)
}

// deadlineSlack is how long before its deadline a context counts as expired for a
// call that failed with DEADLINE_EXCEEDED or CANCELLED.
const deadlineSlack = 50 * time.Millisecond

// ctxErr returns ctx's error once the call failed with status st. grpc-go reports a
// deadline as passed (by the clock, or by the server's timer, started from the
// grpc-timeout header) an instant before ctx's own timer marks ctx done: for those
// codes, with the deadline at most deadlineSlack away, it waits for ctx to be done,
// so that the error matches ctx.Err() as the caller will see it.
func ctxErr(ctx context.Context, st *status.Status) error {
	if err := ctx.Err(); err != nil || st == nil {
		return err
	}
	c := st.Code()
	return AwaitExpiry(ctx, c == codes.DeadlineExceeded || c == codes.Canceled)
}

// AwaitExpiry returns ctx's error for a call that failed as a timeout or a
// cancellation (timedOut) when ctx's deadline is at most deadlineSlack away: it waits
// for ctx to be done, as the caller will see it, since the server's timer (from the
// grpc-timeout or Connect-Timeout-Ms header) can end the call an instant before ctx's
// own timer. It returns nil otherwise. The Connect client (connectproto) shares it.
func AwaitExpiry(ctx context.Context, timedOut bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !timedOut {
		return nil
	}
	d, ok := ctx.Deadline()
	if !ok || time.Until(d) > deadlineSlack {
		return nil
	}
	t := time.NewTimer(deadlineSlack)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
