package thriftrpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/thriftwire"
)

// toWireCode and fromWireCode map the contract's codes to the IDL's ErrorCode and back.
var (
	toWireCode = map[contract.Code]thriftwire.ErrorCode{
		contract.NotFound:          thriftwire.ErrorCode_NOT_FOUND,
		contract.InvalidArgument:   thriftwire.ErrorCode_INVALID_ARGUMENT,
		contract.ResourceExhausted: thriftwire.ErrorCode_RESOURCE_EXHAUSTED,
		contract.Internal:          thriftwire.ErrorCode_INTERNAL,
	}
	fromWireCode = map[thriftwire.ErrorCode]contract.Code{}
)

func init() {
	for c, w := range toWireCode {
		fromWireCode[w] = c
	}
}

// ServerError is what a handler returns for a service's failure: a ServiceError for
// a contract error, ErrAbandonRequest when the call's context ended (the client or
// the server is gone: the generated processor then closes the connection without an
// answer), and an INTERNAL ServiceError otherwise.
func ServerError(ctx context.Context, err error) error {
	var ce *contract.Error
	switch {
	case errors.As(err, &ce):
		code, ok := toWireCode[ce.Code]
		if !ok {
			code = thriftwire.ErrorCode_INTERNAL
		}
		return &thriftwire.ServiceError{Code: code, Message: ce.Message}
	case ctx.Err() != nil:
		return thrift.ErrAbandonRequest
	}
	return &thriftwire.ServiceError{Code: thriftwire.ErrorCode_INTERNAL, Message: err.Error()}
}

// ClientError is the error of a call that failed with err: a *contract.Error for a
// ServiceError of a known code, and resource_exhausted for a request or answer over the
// client's message limit (Thrift's SIZE_LIMIT protocol exception, raised before a
// request is sent; a *frameSizeError for an answer); otherwise err, named by the
// protocol and the operation, and saying so when the server closed the connection:
// a Thrift server does so, unanswered, on a request over its limit.
func ClientError(proto, op string, err error) error {
	var se *thriftwire.ServiceError
	if errors.As(err, &se) {
		if code, ok := fromWireCode[se.Code]; ok {
			return &contract.Error{Code: code, Message: se.Message}
		}
		return fmt.Errorf("%s %s: ServiceError with unknown code %d: %s", proto, op, se.Code, se.Message)
	}
	var pe thrift.TProtocolException
	if errors.As(err, &pe) && pe.TypeId() == thrift.SIZE_LIMIT {
		return contract.Errorf(contract.ResourceExhausted, "%s %s: the request is over the client's limit: %v", proto, op, err)
	}
	var fe *frameSizeError
	if errors.As(err, &fe) {
		return contract.Errorf(contract.ResourceExhausted, "%s %s: the answer is over the client's limit: %v", proto, op, fe)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) {
		return fmt.Errorf("%s %s: the server closed the connection (a Thrift server closes it unanswered "+
			"on a request over its message limit, or one it cannot decode): %w", proto, op, err)
	}
	return fmt.Errorf("%s %s: %w", proto, op, err)
}
