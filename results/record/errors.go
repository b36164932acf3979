package record

import "strings"

// ErrorKind classifies a failed call for reports: the contract's codes, a wrong answer,
// and the ways a call fails in transit. The engine decides a call's kind (it knows the
// contract); record only counts them, so that it, and the results model above it,
// import no other wirebench package.
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

// StatusKind is the kind of a call answered with an error status by an outside server
// (a user's own method or endpoint): the protocol's scheme and its code, e.g.
// "grpc:Unavailable", "connect:not_found", "http:503". The contract's own refusals keep
// the kinds above.
func StatusKind(status string) ErrorKind { return ErrorKind(status) }

// IsStatus reports whether k is a status kind (StatusKind): it has a scheme.
func (k ErrorKind) IsStatus() bool { return strings.Contains(string(k), ":") }
