// Package conform checks a server of the contract from the outside: it calls every
// operation through a client of the server's protocol, compares every answer with the
// contract's (the seeded data set, TradeAt, the refusals' codes) field by field, and
// returns each difference plainly: which operation, which field, what was expected and
// what came back.
//
// It is the one contract check of the Go side: `wirebench conform` prints its
// differences, protocoltest's conformance suite runs it over every Go stack pair and
// transport, and the interop tests of the other languages' workers (stack/jvm,
// stack/rust) run it with Go clients against those workers' servers. Only a client of
// another language is checked by its own worker (`check`), since Go cannot make that
// client's calls.
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
	"strconv"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/usermsg"
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

// Original says what the check expects of StreamOriginalTrades.
type Original int

const (
	// OriginalUnchecked leaves StreamOriginalTrades out (the caller does not know
	// whether the server carries the original's trade).
	OriginalUnchecked Original = iota
	// OriginalCarried checks every field of every trade streamed, for a client and a
	// server that both carry the REST vs gRPC original's trade.
	OriginalCarried
	// OriginalRefused expects the call to fail before any trade, for a client or a
	// server without the original's trade: it must never deliver the compact one.
	OriginalRefused
)

// Options bound a check.
type Options struct {
	// CallTimeout bounds each call (0: 10 s).
	CallTimeout time.Duration
	// Observe, when set, is told each operation checked and its differences.
	Observe func(operation string, diffs []Difference)
	// Original says what StreamOriginalTrades must do.
	Original Original
	// Workloads also runs three ops of each of the contract's workloads, each answer
	// verified as a benchmark verifies it. Their calls are the operations' own, so a
	// wrong answer there repeats one the operations name: the tests set it, to run
	// every workload over every stack; `wirebench conform` does not.
	Workloads bool
	// Messages, when set, also echoes each of its messages (the message workload,
	// CheckMessages) and runs the message workload with it among the workloads; svc
	// must then be a client made for the schema's type.
	Messages *usermsg.Schema
}

// Payloads echoed, each followed by Stats: empty, the original's "Hello World", text
// that JSON and XML escape or that is several bytes per character, and sizes up to
// 4 MiB (below every stack's default message bound, 16 MiB).
var payloads = []string{"", "Hello World", "héllo wörld ✓ 日本語 🚀 \u00a0\t\n\"quoted\" \\ <tag> &amp;",
	contract.Payload(1 << 10), contract.Payload(100 << 10), contract.Payload(1 << 20), contract.Payload(4 << 20)}

// streamCounts are the trade counts of the streams checked trade by trade.
var streamCounts = []int64{0, 1, 10000}

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
	c.answers("GetPerson(1) after the not_found refusals", func(ctx context.Context) error {
		_, err := svc.GetPerson(ctx, 1)
		return err
	})
	c.createPerson()
	for _, payload := range payloads {
		c.echoAndStats(payload)
	}
	for _, n := range []int64{0, 1, 41, -1, math.MinInt64, math.MaxInt64 - 1} {
		c.increment(n)
	}
	for _, n := range streamCounts {
		c.streamTrades(n)
	}
	for _, n := range []int64{-1, contract.MaxTrades + 1} {
		c.refused(fmt.Sprintf("StreamTrades(%d)", n), contract.InvalidArgument, func(ctx context.Context) error {
			return svc.StreamTrades(ctx, n, func(*contract.Trade) error { return nil })
		})
	}
	stoppedStream(c, "StreamTrades", svc.StreamTrades)
	switch opt.Original {
	case OriginalCarried:
		for _, n := range streamCounts {
			c.streamOriginalTrades(n)
		}
		for _, n := range []int64{-1, contract.MaxTrades + 1} {
			c.refused(fmt.Sprintf("StreamOriginalTrades(%d)", n), contract.InvalidArgument, func(ctx context.Context) error {
				return svc.StreamOriginalTrades(ctx, n, func(*contract.OriginalTrade) error { return nil })
			})
		}
		stoppedStream(c, "StreamOriginalTrades", svc.StreamOriginalTrades)
	case OriginalRefused:
		c.originalRefused()
	}
	if opt.Messages != nil {
		c.messages(opt.Messages)
	}
	if opt.Workloads {
		c.workloads(opt.Messages)
	}
	if err := ctx.Err(); err != nil {
		return c.diffs, err
	}
	return c.diffs, nil
}

// CheckMessages echoes each message of s through svc, a client made for the schema's
// type (usermsg.Echoer), and returns each answer that differs from what was sent,
// naming its first differing field. It fails only when ctx ends.
func CheckMessages(ctx context.Context, svc contract.Service, s *usermsg.Schema, opt Options) ([]Difference, error) {
	c := &checker{ctx: ctx, svc: svc, timeout: opt.CallTimeout, observe: opt.Observe}
	if c.timeout <= 0 {
		c.timeout = 10 * time.Second
	}
	c.messages(s)
	return c.diffs, ctx.Err()
}

func (c *checker) messages(s *usermsg.Schema) {
	e, ok := c.svc.(usermsg.Echoer)
	if !ok {
		c.op("EchoMessage", func(context.Context) []Difference {
			return []Difference{{Field: "client", Expected: "a client that carries a user's message", Got: fmt.Sprintf("%T", c.svc)}}
		})
		return
	}
	for i, m := range s.Messages {
		c.op(fmt.Sprintf("EchoMessage(%s %d of %d, %d bytes in protobuf)", s.Desc.Name(), i+1, len(s.Messages), proto.Size(m)),
			func(ctx context.Context) []Difference {
				got, err := e.EchoMessage(ctx, m)
				if err != nil {
					return failed(err)
				}
				if f, want, have := usermsg.FirstDifference(m, got); f != "" {
					return []Difference{{Field: f, Expected: want, Got: have}}
				}
				return nil
			})
	}
}

// everyPersonUpTo is the largest data set whose every person and links are fetched;
// a larger one is sampled (sampleIDs).
const everyPersonUpTo = 100

// sampleIDs are the ids whose persons and links are fetched: every one up to
// everyPersonUpTo persons; above, the first ones (a person without a picture among
// them: every fourth has none), the last, and one between.
func sampleIDs(size int64) []int64 {
	ids := []int64{}
	if size <= everyPersonUpTo {
		for id := int64(1); id <= size; id++ {
			ids = append(ids, id)
		}
		return ids
	}
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
	c.opOf(name, 1, call)
}

// opOf is op for an operation of calls calls, bounded by that many call timeouts: a
// workload's op may chain many calls (pingpong's 1000 increments), and each call, not
// the chain, is what the timeout bounds. (One call timeout for the chain failed a JVM
// server's first, cold chain on a loaded CI machine.) The check's own context still
// bounds the whole.
func (c *checker) opOf(name string, calls int, call func(ctx context.Context) []Difference) {
	if c.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, time.Duration(max(calls, 1))*c.timeout)
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

// answers checks that a call which must succeed does.
func (c *checker) answers(name string, call func(ctx context.Context) error) {
	c.op(name, func(ctx context.Context) []Difference {
		if err := call(ctx); err != nil {
			return failed(err)
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
	c.created("CreatePerson(person 1 without its id)", p)
	// A person without a picture must come back without one, not with an empty one.
	for _, q := range c.ds.Persons() {
		if q.Picture == nil {
			name := fmt.Sprintf("CreatePerson(person %d, who has no picture, without its id)", q.ID)
			q.ID = 0
			c.created(name, q)
			break
		}
	}
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
	noLast := p
	noLast.Name.Last = ""
	c.refused("CreatePerson(no last name)", contract.InvalidArgument, func(ctx context.Context) error {
		_, err := c.svc.CreatePerson(ctx, noLast)
		return err
	})
}

// created checks that CreatePerson of p, which has no id, answers p with a new id
// above the data set's.
func (c *checker) created(name string, p contract.Person) {
	c.op(name, func(ctx context.Context) []Difference {
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

// stopAfter is the trade after which a receiver stops a long stream.
const stopAfter = 100

// stopWithin bounds the time from a receiver's stop to the call's return: a client
// must cancel the stream, not drain the rest of its contract.MaxTrades trades.
const stopWithin = 5 * time.Second

// stoppedStream: a receiver that stops a long stream of method gets its own error
// back, is not called again, the call returns soon (stopWithin), and the server
// answers the next call.
func stoppedStream[T any](c *checker, method string, stream func(context.Context, int64, func(*T) error) error) {
	stop := errors.New("the receiver stopped")
	c.op(fmt.Sprintf("%s(%d) stopped after %d trades", method, contract.MaxTrades, stopAfter), func(ctx context.Context) []Difference {
		n := 0
		var stopped time.Time
		err := stream(ctx, contract.MaxTrades, func(*T) error {
			if n++; n == stopAfter {
				stopped = time.Now()
				return stop
			}
			return nil
		})
		var d []Difference
		if !errors.Is(err, stop) {
			g := "the stream's end"
			if err != nil {
				g = describe(err)
			}
			d = append(d, Difference{Field: "error", Expected: "the receiver's error", Got: g})
		}
		if n != stopAfter {
			d = append(d, Difference{Field: "count", Expected: fmt.Sprintf("the receiver called %d times, up to its error", stopAfter),
				Got: strconv.Itoa(n)})
		}
		if took := time.Since(stopped); !stopped.IsZero() && took > stopWithin {
			d = append(d, Difference{Field: "return", Expected: fmt.Sprintf("within %v of the receiver's error (the client cancels the stream)", stopWithin),
				Got: fmt.Sprintf("after %v (the stream drained)", took.Round(time.Millisecond))})
		}
		return d
	})
	c.answers(fmt.Sprintf("GetPerson(1) after a stopped %s", method), func(ctx context.Context) error {
		_, err := c.svc.GetPerson(ctx, 1)
		return err
	})
}

// originalRefused: where the client or the server lacks the original's trade,
// StreamOriginalTrades fails before any trade.
func (c *checker) originalRefused() {
	c.op("StreamOriginalTrades(5) where a side lacks the original's trade", func(ctx context.Context) []Difference {
		n := 0
		err := c.svc.StreamOriginalTrades(ctx, 5, func(*contract.OriginalTrade) error {
			n++
			return nil
		})
		var d []Difference
		if n > 0 {
			d = append(d, Difference{Field: "count", Expected: "no trade", Got: strconv.Itoa(n)})
		}
		if err == nil {
			d = append(d, Difference{Field: "error", Expected: "a failed call", Got: "the stream's end"})
		}
		return d
	})
}

// workloads runs three ops of each of the contract's workloads, with its default
// parameters, each answer verified as a benchmark verifies it; the message workload
// runs only with messages.
func (c *checker) workloads(messages *usermsg.Schema) {
	for _, w := range contract.Workloads() {
		params := w.DefaultParams()
		if w.Name == "message" {
			if messages == nil {
				continue // a user's message: only with Options.Messages
			}
			params.Messages = messages
		}
		op, err := w.New(params, c.ds)
		if err != nil {
			c.op("workload "+w.Name, func(context.Context) []Difference {
				return []Difference{{Field: "workload", Expected: "one the data set can serve", Got: err.Error()}}
			})
			continue
		}
		calls := w.Calls(params)
		for seq := range uint64(3) {
			c.opOf(fmt.Sprintf("workload %s, op %d", w.Name, seq), calls, func(ctx context.Context) []Difference {
				if err := op(ctx, c.svc, seq); err != nil {
					return []Difference{{Field: "error", Expected: "an answer the workload verifies", Got: describe(err)}}
				}
				return nil
			})
		}
	}
}
