package contract

import (
	"errors"
	"fmt"
)

// Code classifies the errors a Service returns when it refuses a call. Every protocol
// carries the code (HTTP status, gRPC status, Cap'n Proto exception text), and its
// client maps it back, so a workload sees the same Code whatever the protocol.
type Code string

const (
	// NotFound: the id names no person.
	NotFound Code = "not_found"
	// InvalidArgument: the request is malformed (bad JSON, missing field, bad value).
	InvalidArgument Code = "invalid_argument"
	// ResourceExhausted: the request or the response is over the size limit.
	ResourceExhausted Code = "resource_exhausted"
	// Internal: the server failed for a reason of its own.
	Internal Code = "internal"
)

// Codes lists every Code, for maps and tests.
var Codes = []Code{NotFound, InvalidArgument, ResourceExhausted, Internal}

// Valid reports whether c is one of Codes.
func (c Code) Valid() bool {
	for _, k := range Codes {
		if c == k {
			return true
		}
	}
	return false
}

// Error is the error a Service returns when it refuses a call.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Is makes errors.Is(err, &Error{Code: NotFound}) match on the code alone.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && (t.Message == "" || t.Message == e.Message)
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the contract code of err, or "" when err is nil or not a contract
// error (a transport failure, a timeout, a cancellation).
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
