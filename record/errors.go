package record

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/wirebench/wirebench/contract"
)

// ErrorKind classifies a failed call for reports: the contract's codes, a wrong answer,
// and the ways a call fails in transit.
type ErrorKind string

const (
	// WrongAnswer: the call returned, but not what the contract requires.
	WrongAnswer ErrorKind = "wrong_answer"
	// Timeout: the call's own deadline passed.
	Timeout ErrorKind = "timeout"
	// Canceled: the run was stopped while the call was in flight.
	Canceled ErrorKind = "canceled"
	// Refused: the server did not accept a connection.
	Refused ErrorKind = "refused"
	// Reset: the connection was reset or closed under the call.
	Reset ErrorKind = "reset"
	// Other: anything else; the first such error's text is kept by the engine.
	Other ErrorKind = "other"
)

// Classify returns the kind of err (non-nil). Contract refusals keep their code
// ("not_found", ...), so a report tells a server that refused from one that broke.
func Classify(err error) ErrorKind {
	if c := contract.CodeOf(err); c != "" {
		return ErrorKind(c)
	}
	switch {
	case errors.Is(err, contract.ErrWrongAnswer):
		return WrongAnswer
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return Timeout
	case errors.Is(err, context.Canceled):
		return Canceled
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT):
		return Refused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return Reset
	}
	return Other
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
