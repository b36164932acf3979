package grpcx

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
)

func TestServerError(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   error
		code codes.Code
		msg  string
	}{
		// Each contract code has its gRPC code, and the message travels as it is.
		{"not found", contract.Errorf(contract.NotFound, "no person with id 7"), codes.NotFound, "no person with id 7"},
		{"invalid", contract.Errorf(contract.InvalidArgument, "bad email"), codes.InvalidArgument, "bad email"},
		{"exhausted", contract.Errorf(contract.ResourceExhausted, "too big"), codes.ResourceExhausted, "too big"},
		{"internal", contract.Errorf(contract.Internal, "disk"), codes.Internal, "disk"},
		// A wrapped contract error is still the service's refusal.
		{"wrapped", fmt.Errorf("layer: %w", contract.Errorf(contract.NotFound, "x")), codes.NotFound, "x"},
		// A code the mapping does not know is the server failing: Internal.
		{"unknown contract code", &contract.Error{Code: "bogus", Message: "m"}, codes.Internal, "m"},
		// The caller went away or ran out of time: the matching status.
		{"canceled", context.Canceled, codes.Canceled, context.Canceled.Error()},
		{"deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), codes.DeadlineExceeded, "x: " + context.DeadlineExceeded.Error()},
		// A failed Send already has the status the client should see.
		{"status", status.Error(codes.Unavailable, "gone"), codes.Unavailable, "gone"},
		// Anything else: the server failed on its own.
		{"plain", errors.New("disk on fire"), codes.Internal, "disk on fire"},
	} {
		got := status.Convert(ServerError(tc.in))
		if got.Code() != tc.code || got.Message() != tc.msg {
			t.Errorf("%s: ServerError(%v) = %v %q, want %v %q", tc.name, tc.in, got.Code(), got.Message(), tc.code, tc.msg)
		}
	}
	if ServerError(nil) != nil {
		t.Error("ServerError(nil) != nil")
	}
}

func TestClientError(t *testing.T) {
	live := context.Background()
	canceled, cancel := context.WithCancel(live)
	cancel()
	expired, cancel2 := context.WithTimeout(live, -1)
	defer cancel2()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		in   error
		code contract.Code // "" for a non-contract error
		is   error         // an error the result must match, or nil
	}{
		// The four contract codes come back as *contract.Error, ctx or not.
		{"not found", live, status.Error(codes.NotFound, "m"), contract.NotFound, &contract.Error{Code: contract.NotFound, Message: "m"}},
		{"invalid", live, status.Error(codes.InvalidArgument, "m"), contract.InvalidArgument, nil},
		{"exhausted", live, status.Error(codes.ResourceExhausted, "m"), contract.ResourceExhausted, nil},
		{"internal", live, status.Error(codes.Internal, "m"), contract.Internal, nil},
		{"answered before ctx ended", canceled, status.Error(codes.NotFound, "m"), contract.NotFound, nil},
		// A call cut short by its context matches the context's error.
		{"canceled", canceled, status.Error(codes.Canceled, "context canceled"), "", context.Canceled},
		{"deadline", expired, status.Error(codes.DeadlineExceeded, "deadline"), "", context.DeadlineExceeded},
		{"unavailable after ctx ended", canceled, status.Error(codes.Unavailable, "x"), "", context.Canceled},
		// Transport failures stay non-contract errors, keeping the status.
		{"unavailable", live, status.Error(codes.Unavailable, "conn refused"), "", nil},
		{"unknown", live, status.Error(codes.Unknown, "?"), "", nil},
		{"canceled by server", live, status.Error(codes.Canceled, "x"), "", nil},
		{"not a status", live, errors.New("boom"), "", nil},
	} {
		got := ClientError(tc.ctx, "grpc-x", "Op", tc.in)
		if c := contract.CodeOf(got); c != tc.code {
			t.Errorf("%s: ClientError(%v) = %v, code %q, want %q", tc.name, tc.in, got, c, tc.code)
		}
		if tc.is != nil && !errors.Is(got, tc.is) {
			t.Errorf("%s: ClientError(%v) = %v, want errors.Is(%v)", tc.name, tc.in, got, tc.is)
		}
		if tc.code == "" {
			if st, ok := status.FromError(tc.in); ok && status.Code(got) != st.Code() {
				t.Errorf("%s: ClientError(%v) = %v lost the status code %v", tc.name, tc.in, got, st.Code())
			}
		}
	}
	if ClientError(live, "p", "op", nil) != nil {
		t.Error("ClientError(nil) != nil")
	}
}

// TestErrorRoundTrip: what the server sends for a contract error is what the client
// gives back.
func TestErrorRoundTrip(t *testing.T) {
	for _, code := range contract.Codes {
		in := &contract.Error{Code: code, Message: "it: failed: badly"}
		got := ClientError(context.Background(), "p", "op", ServerError(in))
		var ce *contract.Error
		if !errors.As(got, &ce) || *ce != *in {
			t.Errorf("%s: round trip gave %v", code, got)
		}
	}
}

// TestClientErrorDeadlineRace: grpc-go may report DEADLINE_EXCEEDED an instant before
// ctx's timer marks ctx done; the error must still match ctx.Err().
func TestClientErrorDeadlineRace(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := ClientError(ctx, "grpc-x", "Op", status.Error(codes.DeadlineExceeded, "stream terminated by RST_STREAM"))
	if !errors.Is(err, context.DeadlineExceeded) || contract.CodeOf(err) != "" {
		t.Errorf("DEADLINE_EXCEEDED just before the deadline: %v, want errors.Is(err, context.DeadlineExceeded)", err)
	}
	// Far from its deadline, a DEADLINE_EXCEEDED status (the server's own deadline)
	// does not wait and stays a status: waiting is a select on ctx.Done(), which a
	// context that counts its Done calls shows without a clock.
	far, cancel2 := context.WithTimeout(context.Background(), time.Hour)
	defer cancel2()
	watched := &doneCounter{Context: far}
	err = ClientError(watched, "grpc-x", "Op", status.Error(codes.DeadlineExceeded, "x"))
	if errors.Is(err, context.DeadlineExceeded) || status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("DEADLINE_EXCEEDED an hour before the deadline: %v, want the status", err)
	}
	if n := watched.calls.Load(); n != 0 {
		t.Errorf("DEADLINE_EXCEEDED an hour before the deadline: ctx.Done() asked %d times, want no wait", n)
	}
	// The counter does see a wait: near its deadline the same status waits for ctx.
	// (A deadline already reached that never ends the context: no clock decides.)
	watched = &doneCounter{Context: context.Background(), deadline: time.Now()}
	ClientError(watched, "grpc-x", "Op", status.Error(codes.DeadlineExceeded, "x"))
	if watched.calls.Load() == 0 {
		t.Error("DEADLINE_EXCEEDED just before the deadline: ctx.Done() never asked, want a wait for ctx")
	}
}

// doneCounter is a context that counts the calls of its Done method, with another
// deadline when deadline is set.
type doneCounter struct {
	context.Context
	deadline time.Time
	calls    atomic.Int32
}

func (c *doneCounter) Deadline() (time.Time, bool) {
	if !c.deadline.IsZero() {
		return c.deadline, true
	}
	return c.Context.Deadline()
}

func (c *doneCounter) Done() <-chan struct{} {
	c.calls.Add(1)
	return c.Context.Done()
}
