package contract

import (
	"context"
	"errors"
	"fmt"
	"github.com/wirebench/wirebench/internal/suggest"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/contract/usermsg"
)

// ErrWrongAnswer is wrapped by the error of an op whose answer differs from what the
// contract requires: a protocol that returns less, or something else, fails instead of
// winning the benchmark.
var ErrWrongAnswer = errors.New("wrong answer")

func wrong(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrWrongAnswer, fmt.Sprintf(format, args...))
}

// Params are the workload parameters users set; each workload reads the ones it lists
// in Workload.Uses.
type Params struct {
	// Payload is the echo payload size in bytes (echo, echo+stats).
	Payload int `json:"payload,omitempty"`
	// Increments is the number of sequential Increment calls per op (pingpong).
	Increments int `json:"increments,omitempty"`
	// Trades is the number of trades streamed per op (stream).
	Trades int64 `json:"trades,omitempty"`
	// Trade is the shape of the streamed trade (stream): TradeCompact (also "") or
	// TradeOriginal.
	Trade string `json:"trade,omitempty"`
	// Messages is the user's message type and the messages sent (message); the
	// benchmark's settings say where they came from (spec.Spec's Message fields).
	Messages *usermsg.Schema `json:"-"`
}

// Op performs one operation of a workload on s and verifies the answers. seq is the
// op's sequence number; it picks the ids an op uses, so runs are repeatable. An Op is
// safe for concurrent use.
type Op func(ctx context.Context, s Service, seq uint64) error

// Workload is a named operation over a Service.
type Workload struct {
	// Name is what users type: "person.get", "echo", ...
	Name string
	// Summary is one line for `wirebench list`.
	Summary string
	// Uses names the Params fields the workload reads: "payload", "increments",
	// "trades", "trade".
	Uses []string
	// Defaults are the parameters used when a user sets none.
	Defaults Params
	// Calls returns the number of Service calls one op makes with p.
	Calls func(p Params) int
	// New returns the op for p over data set ds (the one the server answers from).
	New func(p Params, ds *Dataset) (Op, error)
	// NewConnection says that each op must run on a client made for it alone (a new
	// connection: dial, TLS handshake, the protocol's own setup) and closed after it,
	// so that the op measures what a short-lived client pays. The load generator
	// provides such a Service (protocol.PerCall); the op itself is an ordinary one.
	NewConnection bool
	// Streams says that an op is one server-streaming call: a server and client that
	// have run only unary calls have not yet run (nor, in a JVM, compiled) its code.
	Streams bool
}

// DefaultParams returns a copy of the workload's defaults.
func (w *Workload) DefaultParams() Params { return w.Defaults }

// Limits on workload parameters: enough for any benchmark, small enough that a typo
// cannot ask a server for terabytes.
const (
	MaxPayload    = 64 << 20
	MaxIncrements = 1_000_000
)

// Takes returns an error when w does not read the parameter use ("payload",
// "increments", "trades"), naming the ones it reads: a suite's workload entry and
// bench's flags give the same message.
// NeedsMessages reports whether the workload runs only on a user's own messages (the
// message workload: --proto and --message), so that nothing of the contract alone can
// run it: a demo or a check of every workload passes it over.
func (w *Workload) NeedsMessages() bool { return slices.Contains(w.Uses, "message") }

func (w *Workload) Takes(use string) error {
	if slices.Contains(w.Uses, use) {
		return nil
	}
	takes := "it has no parameters"
	if len(w.Uses) > 0 {
		takes = "its parameters: " + strings.Join(w.Uses, ", ")
	}
	return fmt.Errorf("%s takes no %s (%s)", w.Name, use, takes)
}

// Check returns an error when p is out of range for the parameters w uses.
func (w *Workload) Check(p Params) error {
	for _, u := range w.Uses {
		switch {
		case u == "payload" && (p.Payload < 0 || p.Payload > MaxPayload):
			return fmt.Errorf("%s: payload %d out of range [0, %d]", w.Name, p.Payload, MaxPayload)
		case u == "increments" && (p.Increments < 1 || p.Increments > MaxIncrements):
			return fmt.Errorf("%s: increments %d out of range [1, %d]", w.Name, p.Increments, MaxIncrements)
		case u == "trades" && (p.Trades < 0 || p.Trades > MaxTrades):
			return fmt.Errorf("%s: trades %d out of range [0, %d]", w.Name, p.Trades, MaxTrades)
		case u == "trade":
			if err := CheckTradeShape(p.Trade); err != nil {
				return fmt.Errorf("%s: %v", w.Name, err)
			}
		}
	}
	return nil
}

func one(Params) int { return 1 }

var workloads = []*Workload{
	{
		Name: "person.list", Summary: "ListPersons: the whole data set",
		Calls: one,
		New: func(_ Params, ds *Dataset) (Op, error) {
			return func(ctx context.Context, s Service, _ uint64) error {
				return checkList(ctx, s, ds)
			}, nil
		},
	},
	{
		Name: "person.get", Summary: "GetPerson of one id (ids taken in turn)",
		Calls: one,
		New: func(_ Params, ds *Dataset) (Op, error) {
			return func(ctx context.Context, s Service, seq uint64) error {
				return checkGet(ctx, s, ds, pickID(ds, seq))
			}, nil
		},
	},
	{
		Name: "person.links", Summary: "GetPersonLinks of one id (ids taken in turn)",
		Calls: one,
		New: func(_ Params, ds *Dataset) (Op, error) {
			return func(ctx context.Context, s Service, seq uint64) error {
				return checkLinks(ctx, s, ds, pickID(ds, seq))
			}, nil
		},
	},
	{
		Name: "person.create", Summary: "CreatePerson of a copy of a data set person",
		Calls: one,
		New: func(_ Params, ds *Dataset) (Op, error) {
			return func(ctx context.Context, s Service, seq uint64) error {
				return checkCreate(ctx, s, ds, pickID(ds, seq))
			}, nil
		},
	},
	{
		Name:    "person.compose",
		Summary: "a program of six calls: list, get and links of two ids, create",
		Calls:   func(Params) int { return 6 },
		New: func(_ Params, ds *Dataset) (Op, error) {
			return func(ctx context.Context, s Service, seq uint64) error {
				a, b := pickID(ds, 2*seq), pickID(ds, 2*seq+1)
				if err := checkList(ctx, s, ds); err != nil {
					return err
				}
				for _, id := range []int64{a, b} {
					if err := checkGet(ctx, s, ds, id); err != nil {
						return err
					}
					if err := checkLinks(ctx, s, ds, id); err != nil {
						return err
					}
				}
				return checkCreate(ctx, s, ds, a)
			}, nil
		},
	},
	{
		// The metrifier original's programComposition (bench/*Benchmark.scala): one
		// list, a get of each of four persons, the links of the first and the third,
		// one create. person.compose is wirebench's own, shorter program.
		Name:    "person.program",
		Summary: "metrifier's 8-call program: list, get ×4, links ×2, create",
		Calls:   func(Params) int { return 8 },
		New: func(_ Params, ds *Dataset) (Op, error) {
			return func(ctx context.Context, s Service, seq uint64) error {
				var ids [4]int64
				for i := range ids {
					ids[i] = pickID(ds, 4*seq+uint64(i))
				}
				if err := checkList(ctx, s, ds); err != nil {
					return err
				}
				for _, id := range ids {
					if err := checkGet(ctx, s, ds, id); err != nil {
						return err
					}
				}
				for _, id := range []int64{ids[0], ids[2]} {
					if err := checkLinks(ctx, s, ds, id); err != nil {
						return err
					}
				}
				return checkCreate(ctx, s, ds, ids[0])
			}, nil
		},
	},
	{
		Name:    "connect",
		Summary: "GetPerson on a new connection per op (TLS handshake, setup, close)",
		Calls:   one, NewConnection: true,
		New: func(_ Params, ds *Dataset) (Op, error) {
			return func(ctx context.Context, s Service, seq uint64) error {
				return checkGet(ctx, s, ds, pickID(ds, seq))
			}, nil
		},
	},
	{
		Name: "echo", Summary: "Echo of a payload of the given size",
		Uses: []string{"payload"}, Defaults: Params{Payload: 11},
		Calls: one,
		New: func(p Params, _ *Dataset) (Op, error) {
			payload := Payload(p.Payload)
			return func(ctx context.Context, s Service, _ uint64) error {
				return checkEcho(ctx, s, payload)
			}, nil
		},
	},
	{
		Name: "echo+stats", Summary: "Echo of a payload, then Stats (two calls per op)",
		Uses: []string{"payload"}, Defaults: Params{Payload: 11},
		Calls: func(Params) int { return 2 },
		New: func(p Params, _ *Dataset) (Op, error) {
			payload := Payload(p.Payload)
			return func(ctx context.Context, s Service, _ uint64) error {
				if err := checkEcho(ctx, s, payload); err != nil {
					return err
				}
				st, err := s.Stats(ctx)
				if err != nil {
					return err
				}
				// Concurrent ops of one benchmark all send payloads of this size, so
				// the latest Echo's length is known even under load.
				if st.Calls < 1 || st.LastPayloadLen != int64(len(payload)) {
					return wrong("Stats = %+v after Echo of %d bytes", st, len(payload))
				}
				return nil
			}, nil
		},
	},
	{
		Name: "pingpong", Summary: "a chain of Increment calls, each taking the previous answer",
		Uses: []string{"increments"}, Defaults: Params{Increments: 1000},
		Calls: func(p Params) int { return p.Increments },
		New: func(p Params, _ *Dataset) (Op, error) {
			n := p.Increments
			return func(ctx context.Context, s Service, seq uint64) error {
				x := int64(seq)
				for i := 0; i < n; i++ {
					y, err := s.Increment(ctx, x)
					if err != nil {
						return err
					}
					if y != x+1 {
						return wrong("Increment(%d) = %d", x, y)
					}
					x = y
				}
				return nil
			}, nil
		},
	},
	{
		Name: "stream", Summary: "receive and decode a stream of trades (trade: compact or original)",
		Uses: []string{"trades", "trade"}, Defaults: Params{Trades: 10000},
		Calls: one, Streams: true,
		New: func(p Params, _ *Dataset) (Op, error) {
			count := p.Trades
			if p.Trade == TradeOriginal {
				return func(ctx context.Context, s Service, _ uint64) error {
					var i int64
					err := s.StreamOriginalTrades(ctx, count, func(t *OriginalTrade) error {
						if want := OriginalTradeAt(i); *t != want {
							return wrong("original trade %d = %+v, want %+v", i, *t, want)
						}
						i++
						return nil
					})
					return checkDelivered(err, i, count)
				}, nil
			}
			return func(ctx context.Context, s Service, _ uint64) error {
				var i int64
				err := s.StreamTrades(ctx, count, func(t *Trade) error {
					if *t != TradeAt(i) {
						return wrong("trade %d = %+v, want %+v", i, *t, TradeAt(i))
					}
					i++
					return nil
				})
				return checkDelivered(err, i, count)
			}, nil
		},
	},
	{
		Name: "message", Summary: "echo of your own proto3 message (--proto, --message)",
		Uses:  []string{"message"},
		Calls: one,
		New: func(p Params, _ *Dataset) (Op, error) {
			if p.Messages == nil || len(p.Messages.Messages) == 0 {
				return nil, errors.New("message: no message loaded (give --proto FILE and --message package.Message)")
			}
			msgs := p.Messages.Messages
			return func(ctx context.Context, s Service, seq uint64) error {
				e, ok := s.(usermsg.Echoer)
				if !ok {
					return fmt.Errorf("message: this client (%T) does not carry a user's message", s)
				}
				sent := msgs[seq%uint64(len(msgs))]
				got, err := e.EchoMessage(ctx, sent)
				if err != nil {
					return err
				}
				if !proto.Equal(got, sent) {
					return wrong("the echo of message %d differs from what was sent", seq%uint64(len(msgs)))
				}
				return nil
			}, nil
		},
	},
}

// Workloads returns every workload, in a stable order.
func Workloads() []*Workload { return workloads }

// WorkloadNames returns the workload names, in the order of Workloads.
func WorkloadNames() []string {
	names := make([]string, len(workloads))
	for i, w := range workloads {
		names[i] = w.Name
	}
	return names
}

// LookupWorkload returns the workload with the given name.
func LookupWorkload(name string) (*Workload, error) {
	if name == CallWorkload.Name {
		return CallWorkload, nil
	}
	for _, w := range workloads {
		if w.Name == name {
			return w, nil
		}
	}
	return nil, fmt.Errorf("unknown workload %q%s (known: %s)", name, suggest.Hint(name, WorkloadNames()), strings.Join(WorkloadNames(), ", "))
}

// checkDelivered is the end of a stream op: the stream's error, or a wrong answer when
// it delivered i trades of count.
func checkDelivered(err error, i, count int64) error {
	if err != nil {
		return err
	}
	if i != count {
		return wrong("stream delivered %d of %d trades", i, count)
	}
	return nil
}

func pickID(ds *Dataset, seq uint64) int64 { return int64(seq%uint64(ds.Size())) + 1 }

func checkList(ctx context.Context, s Service, ds *Dataset) error {
	got, err := s.ListPersons(ctx)
	if err != nil {
		return err
	}
	want := ds.Persons()
	if len(got) != len(want) {
		return wrong("ListPersons returned %d persons, want %d", len(got), len(want))
	}
	for i := range got {
		if !got[i].Equal(want[i]) {
			return wrong("ListPersons[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	return nil
}

func checkGet(ctx context.Context, s Service, ds *Dataset, id int64) error {
	got, err := s.GetPerson(ctx, id)
	if err != nil {
		return err
	}
	if want, _ := ds.Person(id); !got.Equal(want) {
		return wrong("GetPerson(%d) = %+v, want %+v", id, got, want)
	}
	return nil
}

func checkLinks(ctx context.Context, s Service, ds *Dataset, id int64) error {
	got, err := s.GetPersonLinks(ctx, id)
	if err != nil {
		return err
	}
	want, _ := ds.Links(id)
	if len(got) != len(want) {
		return wrong("GetPersonLinks(%d) returned %d links, want %d", id, len(got), len(want))
	}
	for i := range got {
		if !got[i].P1.Equal(want[i].P1) || !got[i].P2.Equal(want[i].P2) {
			return wrong("GetPersonLinks(%d)[%d] = %+v, want %+v", id, i, got[i], want[i])
		}
	}
	return nil
}

func checkCreate(ctx context.Context, s Service, ds *Dataset, id int64) error {
	p, _ := ds.Person(id)
	p.ID = 0
	got, err := s.CreatePerson(ctx, p)
	if err != nil {
		return err
	}
	if got.ID <= int64(ds.Size()) {
		return wrong("CreatePerson assigned id %d, inside the data set's ids", got.ID)
	}
	p.ID = got.ID
	if !got.Equal(p) {
		return wrong("CreatePerson = %+v, want %+v", got, p)
	}
	return nil
}

func checkEcho(ctx context.Context, s Service, payload string) error {
	got, err := s.Echo(ctx, payload)
	if err != nil {
		return err
	}
	if got != payload {
		return wrong("Echo returned %d bytes, want the %d sent", len(got), len(payload))
	}
	return nil
}
