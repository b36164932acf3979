package netrpcgob

import "github.com/wirebench/wirebench/contract"

// The arguments and replies that are not a contract model type or a Go basic type
// (GetPerson takes an int64 and answers a contract.Person; Echo takes and answers a
// string; Increment an int64). net/rpc needs every method to take one argument and
// one reply, so the operations without either take Empty.

// Empty is the argument of ListPersons and Stats and the reply of CancelTrades.
type Empty struct{}

// Persons is the reply of ListPersons.
type Persons struct{ Persons []contract.Person }

// Links is the reply of GetPersonLinks.
type Links struct{ Links []contract.PersonLink }

// StreamArgs is the argument of StreamTrades: the trades to stream and the most
// trades a page may hold (0: the server's default).
type StreamArgs struct {
	Count    int64
	PageSize int32
}

// TradePage is the reply of StreamTrades and NextTrades: the stream's id on its
// connection (the argument of NextTrades and CancelTrades), the page's trades, and
// whether it is the stream's last page. Only an empty stream has an empty page.
type TradePage struct {
	Stream uint64
	Trades []contract.Trade
	Last   bool
}

// Pages of a stream: a client asks for a page size, 0 meaning DefaultPageSize, and the
// server caps it at MaxPageSize and at what fits in a message of its limit at
// MaxTradeBytes a trade.
const (
	DefaultPageSize = 1000
	MaxPageSize     = 10000
	// MaxTradeBytes bounds a gob-encoded Trade with the contract's short symbols: five
	// numbers of at most 9 bytes, the symbol and the field deltas come to about 60.
	MaxTradeBytes = 128
)

// PageTrades returns how many trades a page of a stream of count holds: asked
// (DefaultPageSize for 0 or less), at most MaxPageSize and what fits in limit bytes,
// at most count and at least 1.
func PageTrades(asked int32, count int64, limit int) int {
	n := int64(asked)
	if n <= 0 {
		n = DefaultPageSize
	}
	n = min(n, MaxPageSize, int64(limit/MaxTradeBytes), count)
	return int(max(n, 1))
}
