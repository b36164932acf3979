package contract

import (
	"context"
	"strings"
	"sync/atomic"
)

// Reference is the in-memory implementation of Service that every wirebench server
// serves. It is safe for concurrent use; its hot paths take no lock.
type Reference struct {
	data    *Dataset
	nextID  atomic.Int64
	calls   atomic.Int64
	lastLen atomic.Int64
}

var _ Service = (*Reference)(nil)

// NewReference returns a Service over the data set.
func NewReference(d *Dataset) *Reference {
	r := &Reference{data: d}
	r.nextID.Store(int64(d.Size()))
	return r
}

// Dataset returns the data set the service answers from.
func (r *Reference) Dataset() *Dataset { return r.data }

// ListPersons returns the whole data set. The slice is shared by every caller: a
// caller must not modify it (adapters only encode it).
func (r *Reference) ListPersons(ctx context.Context) ([]Person, error) {
	return r.data.Persons(), nil
}

func (r *Reference) GetPerson(ctx context.Context, id int64) (Person, error) {
	p, ok := r.data.Person(id)
	if !ok {
		return Person{}, Errorf(NotFound, "no person with id %d", id)
	}
	return p, nil
}

func (r *Reference) GetPersonLinks(ctx context.Context, id int64) ([]PersonLink, error) {
	l, ok := r.data.Links(id)
	if !ok {
		return nil, Errorf(NotFound, "no person with id %d", id)
	}
	return l, nil
}

// CreatePerson validates p (a first and last name, and an email with an '@') and
// returns it with a fresh id above the data set's ids.
func (r *Reference) CreatePerson(ctx context.Context, p Person) (Person, error) {
	if err := ValidateNewPerson(p); err != nil {
		return Person{}, err
	}
	p.ID = r.nextID.Add(1)
	return p, nil
}

// ValidateNewPerson is the check CreatePerson applies; servers that validate before
// calling the service use it too, so every protocol refuses the same persons.
func ValidateNewPerson(p Person) error {
	switch {
	case p.Name.First == "" || p.Name.Last == "":
		return Errorf(InvalidArgument, "person needs a first and a last name")
	case !strings.Contains(p.Email, "@"):
		return Errorf(InvalidArgument, "person email %q has no '@'", p.Email)
	}
	return nil
}

func (r *Reference) Echo(ctx context.Context, payload string) (string, error) {
	r.calls.Add(1)
	r.lastLen.Store(int64(len(payload)))
	return payload, nil
}

func (r *Reference) Stats(ctx context.Context) (Stats, error) {
	return Stats{Calls: r.calls.Load(), LastPayloadLen: r.lastLen.Load()}, nil
}

func (r *Reference) Increment(ctx context.Context, n int64) (int64, error) {
	return n + 1, nil
}

// MaxTrades bounds one StreamTrades call, so a request cannot make a server stream
// for ever.
const MaxTrades = 10_000_000

func (r *Reference) StreamTrades(ctx context.Context, count int64, yield func(*Trade) error) error {
	return streamAt(ctx, count, TradeAt, yield)
}

func (r *Reference) StreamOriginalTrades(ctx context.Context, count int64, yield func(*OriginalTrade) error) error {
	return streamAt(ctx, count, OriginalTradeAt, yield)
}

// streamAt yields at(0) ... at(count-1), after checking count.
func streamAt[T any](ctx context.Context, count int64, at func(int64) T, yield func(*T) error) error {
	if count < 0 || count > MaxTrades {
		return Errorf(InvalidArgument, "trade count %d out of range [0, %d]", count, MaxTrades)
	}
	var t T
	for i := int64(0); i < count; i++ {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		t = at(i)
		if err := yield(&t); err != nil {
			return err
		}
	}
	return nil
}
