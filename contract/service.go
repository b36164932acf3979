package contract

import "context"

// Service is the benchmark service. Servers of every protocol serve a Service, and the
// client of every protocol implements Service itself, so a workload runs unchanged over
// any protocol, and the in-process call of the reference implementation is the floor.
//
// Implementations must be safe for concurrent use by many goroutines.
//
// Errors: an operation fails with an *Error carrying a contract Code (NotFound for an
// unknown id, InvalidArgument for a bad request, ...) when the service refused the call,
// and with any other error when the call did not complete (transport, timeout,
// cancellation). Clients map their protocol's status back to the same Code, so
// CodeOf(err) is the same on every protocol.
type Service interface {
	// ListPersons returns the whole data set, in id order.
	ListPersons(ctx context.Context) ([]Person, error)
	// GetPerson returns the person with the given id, or an error with Code NotFound.
	GetPerson(ctx context.Context, id int64) (Person, error)
	// GetPersonLinks returns the links that the person with the given id takes part in,
	// or an error with Code NotFound.
	GetPersonLinks(ctx context.Context, id int64) ([]PersonLink, error)
	// CreatePerson stores nothing: it validates p and returns it with the id the server
	// assigned. (The data set stays fixed, so a long benchmark does not grow the server.)
	CreatePerson(ctx context.Context, p Person) (Person, error)
	// Echo returns payload unchanged.
	Echo(ctx context.Context, payload string) (string, error)
	// Stats returns the Echo call count and the length of the latest Echo payload.
	Stats(ctx context.Context) (Stats, error)
	// Increment returns n+1.
	Increment(ctx context.Context, n int64) (int64, error)
	// StreamTrades has the server send count trades, TradeAt(0) ... TradeAt(count-1).
	// Each received trade is decoded and handed to yield, in order, from one goroutine;
	// the *Trade is valid only during that call. When yield returns an error the stream
	// is cancelled and StreamTrades returns that error. StreamTrades returns nil once all
	// count trades were delivered and the server ended the stream.
	StreamTrades(ctx context.Context, count int64, yield func(*Trade) error) error
	// StreamOriginalTrades is StreamTrades for the REST vs gRPC original's trade:
	// OriginalTradeAt(0) ... OriginalTradeAt(count-1), under the same rules. A client
	// whose stack does not carry that shape (protocol.Stack.OriginalTrades) returns an
	// error from NotCarried instead of streaming anything else.
	StreamOriginalTrades(ctx context.Context, count int64, yield func(*OriginalTrade) error) error
}
