package protocol

import (
	"context"
	"errors"
	"strings"

	"github.com/wirebench/wirebench/contract"
)

// reasonPrefix starts an error text that carries a contract error, for the wire
// mappings whose errors are text alone (Cap'n Proto's exception reasons, net/rpc's
// error strings).
const reasonPrefix = "wirebench:"

// ErrorReason turns a service error into the error a server of such a mapping
// returns: a contract error becomes the text "wirebench:<code>: <message>", a context
// error passes as it is, and any other failure of the service is reported as
// internal.
func ErrorReason(err error) error {
	if err == nil {
		return nil
	}
	var ce *contract.Error
	switch {
	case errors.As(err, &ce):
		return errors.New(reasonPrefix + string(ce.Code) + ": " + ce.Message)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	default:
		return errors.New(reasonPrefix + string(contract.Internal) + ": " + err.Error())
	}
}

// ReasonError returns the contract error that an error text made by ErrorReason
// carries, or nil when the text is not one (another prefix, or a code the contract
// does not have).
func ReasonError(text string) *contract.Error {
	rest, ok := strings.CutPrefix(text, reasonPrefix)
	if !ok {
		return nil
	}
	code, msg, ok := strings.Cut(rest, ": ")
	if !ok || !contract.Code(code).Valid() {
		return nil
	}
	return &contract.Error{Code: contract.Code(code), Message: msg}
}
