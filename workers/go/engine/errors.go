package engine

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/results/record"
)

// classify returns the kind of err (non-nil). Contract refusals keep their code
// ("not_found", ...), so a report tells a server that refused from one that broke.
func classify(err error) record.ErrorKind {
	if c := contract.CodeOf(err); c != "" {
		return record.ErrorKind(c)
	}
	switch {
	case errors.Is(err, contract.ErrWrongAnswer):
		return record.WrongAnswer
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return record.Timeout
	case errors.Is(err, context.Canceled):
		return record.Canceled
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT):
		return record.Refused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return record.Reset
	}
	return record.Other
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
