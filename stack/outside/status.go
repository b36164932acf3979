package outside

// StatusError is a call that reached the server and was answered with an error
// status: a gRPC or Connect code, or an HTTP status other than 2xx. Status is what the
// engine counts it by (its classify, record.StatusKind), e.g. "grpc:Unavailable" or "http:503".
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

// StatusCode returns Status, which the engine counts the call by.
func (e *StatusError) StatusCode() string { return e.Status }
