// Package capnprpc is the Cap'n Proto RPC wire mapping ("capnp"): the contract's
// Wirebench interface (contract/schema/wirebench.capnp, generated into
// contract/capnpwire) served as the bootstrap capability of each connection, over the
// two-party protocol with unpacked framing on a TCP or Unix stream. Its Go stack,
// capnp-go (capnproto.org/go/capnp/v3), lives in stack/capnpgo.
//
// The mapping:
//
//   - Errors: the service's refusals travel as exceptions whose reason reads
//     "wirebench:<code>: <message>" (EncodeError) and come back as *contract.Error
//     (DecodeError).
//   - StreamTrades: the client passes a TradeSink capability; the server pushes trades
//     to it with `-> stream` calls, then calls done(count).
//   - Conversions between the contract model and the Cap'n Proto wire types
//     (convert.go) run on every call, as in an application with its own domain model.
package capnprpc

import (
	"errors"
	"strings"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
)

// Name is the registry name of this protocol.
const Name = "capnp"

// DefaultStack is the stack of both sides when a benchmark names none: capnp-go,
// registered by stack/capnpgo.
const DefaultStack = "capnp-go"

func init() {
	protocol.Register(&protocol.Protocol{
		Name:          Name,
		Summary:       "Cap'n Proto RPC, streaming through a sink capability",
		DefaultServer: DefaultStack, DefaultClient: DefaultStack,
		NoMessages: "Cap'n Proto's Go library reads only the types of schemas compiled ahead into Go code (capnpc-go); it has no dynamic message to decode a type known at run time into, and a .proto is not a Cap'n Proto schema",
	})
}

// EncodeError turns a service error into the error a server method returns: contract
// errors become "wirebench:<code>: <message>" exception reasons, context errors pass
// as they are, and any other failure of the service is reported as internal
// (protocol.ErrorReason).
func EncodeError(err error) error { return protocol.ErrorReason(err) }

// DecodeError returns the contract error carried by a call's exception, or nil when
// the exception is not one. The exception's reason is the innermost error of the
// chain: the rpc package wraps it in the method's name.
func DecodeError(err error) *contract.Error {
	for ; err != nil; err = errors.Unwrap(err) {
		if ce := protocol.ReasonError(err.Error()); ce != nil {
			return ce
		}
		if strings.HasPrefix(err.Error(), "wirebench:") {
			return nil // a reason with a code the contract does not have
		}
	}
	return nil
}
