// Package conform checks a server of the contract from the outside: it calls every
// operation through a client of the server's protocol, compares every answer with the
// contract's (the seeded data set, TradeAt, the refusals' codes) field by field, and
// returns each difference plainly: which operation, which field, what was expected and
// what came back. `wirebench conform` prints them; the interop tests of the other
// languages' workers run it against their servers.
//
// Unlike a benchmark's contract check (one op of the workload, stop at the first
// wrong answer), Check goes on after a difference, so one run shows everything a new
// server gets wrong.
package conform

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/contract"
)

// Difference is one way a server's answers differ from the contract.
type Difference struct {
	// Operation is the call, with its argument: "GetPerson(3)", "Echo(4 MiB)".
	Operation string
	// Field is the answer's field that differs ("email", "persons[2].location.city"),
	// "error" when the call failed or should have, or "count" for a list's length.
	Field    string
	Expected string
	Got      string
}

func (d Difference) String() string {
	return fmt.Sprintf("%s: %s: expected %s, got %s", d.Operation, d.Field, d.Expected, d.Got)
}

// Options bound a check.
type Options struct {
	// CallTimeout bounds each call (0: 10 s).
	CallTimeout time.Duration
	// Observe, when set, is told each operation checked and its differences.
	Observe func(operation string, diffs []Difference)
	// OriginalTrades also checks StreamOriginalTrades, every field of every trade,
	// for a server that carries the REST vs gRPC original's trade.
	OriginalTrades bool
}

// Check calls every operation of the contract on svc, a client of the server under
// test that serves ds, and returns every difference found (none: the server conforms).
// It fails only when ctx ends; a server that cannot be reached shows as differences.
// The server's Stats must not be moved by other callers during the check.
func Check(ctx context.Context, svc contract.Service, ds *contract.Dataset, opt Options) ([]Difference, error) {
	c := &checker{ctx: ctx, svc: svc, ds: ds, timeout: opt.CallTimeout, observe: opt.Observe}
	if c.timeout <= 0 {
		c.timeout = 10 * time.Second
	}
	c.listPersons()
	size := int64(ds.Size())
	for _, id := range sampleIDs(size) {
		c.getPerson(id)
		c.getPersonLinks(id)
	}
	for _, id := range []int64{0, -1, size + 1, math.MaxInt64} {
		c.refused(fmt.Sprintf("GetPerson(%d)", id), contract.NotFound, func(ctx context.Context) error {
			_, err := svc.GetPerson(ctx, id)
			return err
		})
		c.refused(fmt.Sprintf("GetPersonLinks(%d)", id), contract.NotFound, func(ctx context.Context) error {
			_, err := svc.GetPersonLinks(ctx, id)
			return err
		})
	}
	c.createPerson()
	for _, payload := range []string{"", "Hello World", "héllo wörld ✓ 日本語 🚀 \"quoted\" \\ <tag>\n\t", contract.Payload(1 << 20)} {
		c.echoAndStats(payload)
	}
	for _, n := range []int64{0, 41, -1, math.MinInt64, math.MaxInt64 - 1} {
		c.increment(n)
	}
	for _, n := range []int64{0, 1, 1000} {
		c.streamTrades(n)
	}
	for _, n := range []int64{-1, contract.MaxTrades + 1} {
		c.refused(fmt.Sprintf("StreamTrades(%d)", n), contract.InvalidArgument, func(ctx context.Context) error {
			return svc.StreamTrades(ctx, n, func(*contract.Trade) error { return nil })
		})
	}
	c.stoppedStream()
	if opt.OriginalTrades {
		for _, n := range []int64{0, 1, 1000} {
			c.streamOriginalTrades(n)
		}
		for _, n := range []int64{-1, contract.MaxTrades + 1} {
			c.refused(fmt.Sprintf("StreamOriginalTrades(%d)", n), contract.InvalidArgument, func(ctx context.Context) error {
				return svc.StreamOriginalTrades(ctx, n, func(*contract.OriginalTrade) error { return nil })
			})
		}
	}
	if err := ctx.Err(); err != nil {
		return c.diffs, err
	}
	return c.diffs, nil
}

// sampleIDs are the ids whose persons and links are fetched: the first ones (a person
// without a picture among them: every fourth has none), the last, and one between.
func sampleIDs(size int64) []int64 {
	ids := []int64{}
	for id := int64(1); id <= min(size, 4); id++ {
		ids = append(ids, id)
	}
	if size > 5 {
		ids = append(ids, size/2+1)
	}
	if size > 4 {
		ids = append(ids, size)
	}
	return ids
}

type checker struct {
	ctx     context.Context
	svc     contract.Service
	ds      *contract.Dataset
	timeout time.Duration
	observe func(string, []Difference)
	diffs   []Difference
}

// op runs one checked operation: call gets a context bounded by the call timeout and
// returns the differences it found.
func (c *checker) op(name string, call func(ctx context.Context) []Difference) {
	if c.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, c.timeout)
	diffs := call(ctx)
	cancel()
	for i := range diffs {
		diffs[i].Operation = name
	}
	c.diffs = append(c.diffs, diffs...)
	if c.observe != nil {
		c.observe(name, diffs)
	}
}

// failed is the difference of a call that should have answered.
func failed(err error) []Difference {
	return []Difference{{Field: "error", Expected: "an answer", Got: describe(err)}}
}

func describe(err error) string {
	if code := contract.CodeOf(err); code != "" {
		return fmt.Sprintf("a %s refusal (%v)", code, err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer within the call timeout"
	}
	return fmt.Sprintf("a failed call (%v)", err)
}

func (c *checker) refused(name string, want contract.Code, call func(ctx context.Context) error) {
	c.op(name, func(ctx context.Context) []Difference {
		err := call(ctx)
		if got := contract.CodeOf(err); got != want {
			g := "an answer"
			if err != nil {
				g = describe(err)
			}
			return []Difference{{Field: "error", Expected: "a " + string(want) + " refusal", Got: g}}
		}
		return nil
	})
}

func (c *checker) listPersons() {
	c.op("ListPersons", func(ctx context.Context) []Difference {
		got, err := c.svc.ListPersons(ctx)
		if err != nil {
			return failed(err)
		}
		want := c.ds.Persons()
		var d []Difference
		if len(got) != len(want) {
			d = append(d, Difference{Field: "count", Expected: strconv.Itoa(len(want)) + " persons", Got: strconv.Itoa(len(got))})
		}
		for i := range min(len(got), len(want)) {
			d = append(d, personDiffs(fmt.Sprintf("persons[%d].", i), want[i], got[i])...)
		}
		return d
	})
}

func (c *checker) getPerson(id int64) {
	c.op(fmt.Sprintf("GetPerson(%d)", id), func(ctx context.Context) []Difference {
		got, err := c.svc.GetPerson(ctx, id)
		if err != nil {
			return failed(err)
		}
		want, _ := c.ds.Person(id)
		return personDiffs("", want, got)
	})
}

func (c *checker) getPersonLinks(id int64) {
	c.op(fmt.Sprintf("GetPersonLinks(%d)", id), func(ctx context.Context) []Difference {
		got, err := c.svc.GetPersonLinks(ctx, id)
		if err != nil {
			return failed(err)
		}
		want, _ := c.ds.Links(id)
		var d []Difference
		if len(got) != len(want) {
			d = append(d, Difference{Field: "count", Expected: strconv.Itoa(len(want)) + " links", Got: strconv.Itoa(len(got))})
		}
		for i := range min(len(got), len(want)) {
			d = append(d, personDiffs(fmt.Sprintf("links[%d].p1.", i), want[i].P1, got[i].P1)...)
			d = append(d, personDiffs(fmt.Sprintf("links[%d].p2.", i), want[i].P2, got[i].P2)...)
		}
		return d
	})
}

func (c *checker) createPerson() {
	p, _ := c.ds.Person(1)
	p.ID = 0
	c.op("CreatePerson(person 1 without its id)", func(ctx context.Context) []Difference {
		got, err := c.svc.CreatePerson(ctx, p)
		if err != nil {
			return failed(err)
		}
		var d []Difference
		if got.ID <= int64(c.ds.Size()) {
			d = append(d, Difference{Field: "id", Expected: fmt.Sprintf("an id above the data set's (> %d)", c.ds.Size()), Got: strconv.FormatInt(got.ID, 10)})
		}
		want := p
		want.ID = got.ID
		return append(d, personDiffs("", want, got)...)
	})
	noAt := p
	noAt.Email = "no-at-sign"
	c.refused("CreatePerson(an email without '@')", contract.InvalidArgument, func(ctx context.Context) error {
		_, err := c.svc.CreatePerson(ctx, noAt)
		return err
	})
	noName := p
	noName.Name = contract.PersonName{}
	c.refused("CreatePerson(no name)", contract.InvalidArgument, func(ctx context.Context) error {
		_, err := c.svc.CreatePerson(ctx, noName)
		return err
	})
}

func (c *checker) echoAndStats(payload string) {
	name := fmt.Sprintf("Echo(%d bytes)", len(payload))
	echoed := false
	c.op(name, func(ctx context.Context) []Difference {
		got, err := c.svc.Echo(ctx, payload)
		if err != nil {
			return failed(err)
		}
		echoed = true
		if got != payload {
			i := firstDiff(got, payload)
			return []Difference{{Field: "payload", Expected: fmt.Sprintf("the %d bytes sent", len(payload)),
				Got: fmt.Sprintf("%d bytes, differing from byte %d (%q)", len(got), i, clip(got[i:]))}}
		}
		return nil
	})
	if !echoed {
		return
	}
	c.op(fmt.Sprintf("Stats (after %s)", name), func(ctx context.Context) []Difference {
		st, err := c.svc.Stats(ctx)
		if err != nil {
			return failed(err)
		}
		var d []Difference
		if st.Calls < 1 {
			d = append(d, Difference{Field: "calls", Expected: "at least 1", Got: strconv.FormatInt(st.Calls, 10)})
		}
		if st.LastPayloadLen != int64(len(payload)) {
			d = append(d, Difference{Field: "last_payload_len", Expected: fmt.Sprintf("%d (UTF-8 bytes)", len(payload)),
				Got: strconv.FormatInt(st.LastPayloadLen, 10)})
		}
		return d
	})
}

func (c *checker) increment(n int64) {
	c.op(fmt.Sprintf("Increment(%d)", n), func(ctx context.Context) []Difference {
		got, err := c.svc.Increment(ctx, n)
		if err != nil {
			return failed(err)
		}
		if got != n+1 {
			return []Difference{{Field: "value", Expected: strconv.FormatInt(n+1, 10), Got: strconv.FormatInt(got, 10)}}
		}
		return nil
	})
}

// maxTradeDiffs bounds the differences one stream reports: a server that gets one
// field of every trade wrong says so in a few lines.
const maxTradeDiffs = 5

func (c *checker) streamTrades(n int64) {
	streamOp(c, "StreamTrades", n, c.svc.StreamTrades, func(prefix string, i int64, t *contract.Trade) []Difference {
		return tradeDiffs(prefix, contract.TradeAt(i), *t)
	})
}

func (c *checker) streamOriginalTrades(n int64) {
	streamOp(c, "StreamOriginalTrades", n, c.svc.StreamOriginalTrades, func(prefix string, i int64, t *contract.OriginalTrade) []Difference {
		return originalTradeDiffs(prefix, contract.OriginalTradeAt(i), *t)
	})
}

// streamOp checks the stream call method of n trades: diffs compares trade i with the
// contract's, for the first few differences.
func streamOp[T any](c *checker, method string, n int64, stream func(context.Context, int64, func(*T) error) error,
	diffs func(prefix string, i int64, t *T) []Difference) {
	c.op(fmt.Sprintf("%s(%d)", method, n), func(ctx context.Context) []Difference {
		var d []Difference
		var i int64
		err := stream(ctx, n, func(t *T) error {
			if len(d) < maxTradeDiffs {
				d = append(d, diffs(fmt.Sprintf("trades[%d].", i), i, t)...)
			}
			i++
			return nil
		})
		if err != nil {
			return append(d, failed(err)...)
		}
		if i != n {
			d = append(d, Difference{Field: "count", Expected: fmt.Sprintf("%d trades", n), Got: strconv.FormatInt(i, 10)})
		}
		return d
	})
}

// stoppedStream: a receiver that stops a long stream gets its own error back, and the
// server answers the next call.
func (c *checker) stoppedStream() {
	stop := errors.New("the receiver stopped")
	c.op("StreamTrades(10000000) stopped after 100 trades", func(ctx context.Context) []Difference {
		n := 0
		err := c.svc.StreamTrades(ctx, contract.MaxTrades, func(*contract.Trade) error {
			if n++; n == 100 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			g := "the stream's end"
			if err != nil {
				g = describe(err)
			}
			return []Difference{{Field: "error", Expected: "the receiver's error", Got: g}}
		}
		return nil
	})
	c.op("GetPerson(1) after a stopped stream", func(ctx context.Context) []Difference {
		if _, err := c.svc.GetPerson(ctx, 1); err != nil {
			return failed(err)
		}
		return nil
	})
}

func personDiffs(prefix string, want, got contract.Person) []Difference {
	var d []Difference
	field := func(name string, w, g any) {
		if w != g {
			d = append(d, Difference{Field: prefix + name, Expected: show(w), Got: show(g)})
		}
	}
	field("id", want.ID, got.ID)
	field("name.title", want.Name.Title, got.Name.Title)
	field("name.first", want.Name.First, got.Name.First)
	field("name.last", want.Name.Last, got.Name.Last)
	field("gender", want.Gender, got.Gender)
	field("location.street", want.Location.Street, got.Location.Street)
	field("location.city", want.Location.City, got.Location.City)
	field("location.state", want.Location.State, got.Location.State)
	field("location.post_code", want.Location.PostCode, got.Location.PostCode)
	field("email", want.Email, got.Email)
	switch {
	case want.Picture == nil && got.Picture != nil:
		d = append(d, Difference{Field: prefix + "picture", Expected: "absent", Got: fmt.Sprintf("%+v", *got.Picture)})
	case want.Picture != nil && got.Picture == nil:
		d = append(d, Difference{Field: prefix + "picture", Expected: fmt.Sprintf("%+v", *want.Picture), Got: "absent"})
	case want.Picture != nil:
		field("picture.large", want.Picture.Large, got.Picture.Large)
		field("picture.medium", want.Picture.Medium, got.Picture.Medium)
		field("picture.thumbnail", want.Picture.Thumbnail, got.Picture.Thumbnail)
	}
	return d
}

func tradeDiffs(prefix string, want, got contract.Trade) []Difference {
	var d []Difference
	field := func(name string, w, g any) {
		if w != g {
			d = append(d, Difference{Field: prefix + name, Expected: show(w), Got: show(g)})
		}
	}
	field("id", want.ID, got.ID)
	field("symbol", want.Symbol, got.Symbol)
	field("price", want.Price, got.Price)
	field("quantity", want.Quantity, got.Quantity)
	field("timestamp_nanos", want.TimestampNanos, got.TimestampNanos)
	field("side", want.Side, got.Side)
	return d
}

// originalTradeDiffs compares every field of two of the original's trades, named as
// its JSON names them.
func originalTradeDiffs(prefix string, want, got contract.OriginalTrade) []Difference {
	var d []Difference
	w, g := reflect.ValueOf(want), reflect.ValueOf(got)
	for i := range w.NumField() {
		if wf, gf := w.Field(i).Interface(), g.Field(i).Interface(); wf != gf {
			name := w.Type().Field(i).Tag.Get("json")
			d = append(d, Difference{Field: prefix + name, Expected: show(wf), Got: show(gf)})
		}
	}
	return d
}

// show writes a value as it would be typed: strings quoted.
func show(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return strings.Clone(s)
}
