package httpjson

// What the clients of every stack share, because it is the protocol's: the names of
// the calls in errors, and how a failed call, a refusal, a body that does not decode
// and a body over the limit are reported.

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/wirebench/wirebench/contract"
)

// ErrClosed is returned by calls on a closed client.
var ErrClosed = errors.New("http-json: client closed")

// The calls, as errors name them.
const (
	OpList      = "GET /persons"
	OpGet       = "GET /persons/{id}"
	OpLinks     = "GET /persons/{id}/links"
	OpCreate    = "POST /persons"
	OpEcho      = "POST /echo"
	OpStats     = "GET /stats"
	OpIncrement = "POST /increment"
	OpTrades    = "GET /trades"
)

// CallError maps the failure of a call, for every client: a contract error (the
// server's refusal, a body over the limit) as it is, else an error matching ctx's when
// ctx ended, ErrClosed when the client was closed, and otherwise the error named by
// the call.
func CallError(ctx context.Context, op string, err error, closed bool) error {
	var ce *contract.Error
	if errors.As(err, &ce) {
		return err
	}
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(err, cerr) {
			return fmt.Errorf("http-json %s: %w", op, err)
		}
		return fmt.Errorf("http-json %s: %w (%v)", op, cerr, err)
	}
	if closed && !errors.Is(err, ErrClosed) {
		return fmt.Errorf("%w (%s: %v)", ErrClosed, op, err)
	}
	return fmt.Errorf("http-json %s: %w", op, err)
}

// StatusError is the error of a non-2xx answer: ce, the contract error its body
// carried (nil: none, as from a server other than ours), else the one its status
// stands for, else a plain error.
func StatusError(status int, body []byte, ce *contract.Error) error {
	if ce != nil {
		return ce
	}
	msg := "HTTP status " + strconv.Itoa(status)
	if len(body) > 0 {
		msg += ": " + string(Clip(body))
	}
	if code := CodeOfStatus(status); code != "" {
		return &contract.Error{Code: code, Message: msg}
	}
	return errors.New("http-json: " + msg)
}

// DecodeFailed is the error of an answer whose body does not decode.
func DecodeFailed(op string, err error) error {
	return fmt.Errorf("http-json %s: bad answer: %w", op, err)
}

// TooLarge is the error of a response body over the client's limit.
func TooLarge(limit int) error {
	return &contract.Error{Code: contract.ResourceExhausted,
		Message: "response body over the client's limit of " + strconv.Itoa(limit) + " bytes"}
}

// Clip shortens what an error quotes of a body or a line to 64 bytes.
func Clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}
