package outside

import "fmt"

// StatusError is a call that reached the server and was answered with an error
// status: a gRPC or Connect code, or an HTTP status other than 2xx. Status is what the
// engine counts it by (engine.StatusOf), e.g. "grpc:UNAVAILABLE" or "http:503".
type StatusError struct {
	Status string
	Msg    string
}

func (e *StatusError) Error() string {
	if e.Msg == "" {
		return e.Status
	}
	return e.Status + ": " + e.Msg
}

// StatusCode returns Status (engine.StatusOf reads it).
func (e *StatusError) StatusCode() string { return e.Status }

func statusf(status, format string, args ...any) error {
	return &StatusError{Status: status, Msg: fmt.Sprintf(format, args...)}
}
