package record

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
