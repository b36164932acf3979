package conform_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/conform"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	_ "github.com/wirebench/wirebench/stack/all"
)

// faulty is the reference service with one fault: GetPerson answers person 3 with
// another email. Served by a real server of each protocol, it is a server that answers
// one operation wrongly.
type faulty struct{ *contract.Reference }

const wrongEmail = "someone.else@example.com"

func (f faulty) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	p, err := f.Reference.GetPerson(ctx, id)
	if id == 3 {
		p.Email = wrongEmail
	}
	return p, err
}

func check(t *testing.T, proto string, svc contract.Service) []conform.Difference {
	t.Helper()
	tg := protocoltest.Start(t, proto, "tcp", svc, protocolServerConfig())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The default stacks of these protocols carry the original's trade.
	diffs, err := conform.Check(ctx, tg.Client(t, nil), tg.Dataset, conform.Options{Original: conform.OriginalCarried})
	if err != nil {
		t.Fatal(err)
	}
	return diffs
}

func TestReferenceServersConform(t *testing.T) {
	for _, proto := range []string{"http-json", "grpc-proto", "grpc-avro", "capnp"} {
		t.Run(proto, func(t *testing.T) {
			if diffs := check(t, proto, nil); len(diffs) != 0 {
				t.Errorf("the reference server of %s differs from the contract: %v", proto, diffs)
			}
		})
	}
}

func TestOneWrongAnswerIsNamed(t *testing.T) {
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	want, _ := ds.Person(3)
	for _, proto := range []string{"http-json", "grpc-proto"} {
		t.Run(proto, func(t *testing.T) {
			diffs := check(t, proto, faulty{contract.NewReference(ds)})
			exp := conform.Difference{Operation: "GetPerson(3)", Field: "email",
				Expected: strconv.Quote(want.Email), Got: strconv.Quote(wrongEmail)}
			if len(diffs) != 1 || diffs[0] != exp {
				t.Fatalf("differences %v, want exactly %v", diffs, exp)
			}
			if got := diffs[0].String(); got != `GetPerson(3): email: expected "`+want.Email+`", got "`+wrongEmail+`"` {
				t.Errorf("String() = %s", got)
			}
		})
	}
}

// A server that is not there: every operation is a difference, none is skipped.
// wrongInfo is the reference service whose original trade 7 has another info, and
// whose stream of original trades stops one short of 10000.
type wrongInfo struct{ *contract.Reference }

func (w wrongInfo) StreamOriginalTrades(ctx context.Context, count int64, yield func(*contract.OriginalTrade) error) error {
	var i int64
	return w.Reference.StreamOriginalTrades(ctx, min(count, 9999), func(t *contract.OriginalTrade) error {
		if i++; i == 8 {
			u := *t
			u.Info = "not-podam"
			return yield(&u)
		}
		return yield(t)
	})
}

// Every field of the original's trade is compared, each difference named by the
// original's JSON name.
func TestOriginalTradeFieldNamed(t *testing.T) {
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, proto := range []string{"grpc-proto", "capnp"} {
		t.Run(proto, func(t *testing.T) {
			diffs := check(t, proto, wrongInfo{contract.NewReference(ds)})
			want := []conform.Difference{
				{Operation: "StreamOriginalTrades(10000)", Field: "trades[7].info",
					Expected: strconv.Quote(contract.OriginalTradeAt(7).Info), Got: `"not-podam"`},
			}
			var got []conform.Difference
			for _, d := range diffs {
				if d.Operation == "StreamOriginalTrades(10000)" && d.Field != "error" {
					got = append(got, d)
				}
			}
			if len(got) != 1 || got[0] != want[0] {
				t.Errorf("differences of StreamOriginalTrades(10000): %v, want %v and nothing else", got, want)
			}
		})
	}
}

func TestUnreachableServer(t *testing.T) {
	tg := protocoltest.Start(t, "grpc-proto", "tcp", nil, protocolServerConfig())
	cl := tg.Client(t, nil)
	tg.Server.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	diffs, err := conform.Check(ctx, cl, tg.Dataset, conform.Options{CallTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) < 10 || diffs[0].Operation != "ListPersons" || diffs[0].Field != "error" {
		t.Errorf("%d differences, first %v; want one per operation, from ListPersons", len(diffs), diffs)
	}
}

func protocolServerConfig() protocol.ServerConfig { return protocol.ServerConfig{} }

// pictureless is the reference service whose CreatePerson gives a person without a
// picture an empty one.
type pictureless struct{ *contract.Reference }

func (p pictureless) CreatePerson(ctx context.Context, q contract.Person) (contract.Person, error) {
	got, err := p.Reference.CreatePerson(ctx, q)
	if err == nil && got.Picture == nil {
		got.Picture = &contract.Picture{}
	}
	return got, err
}

// Where the check expects StreamOriginalTrades refused, a server that streams them is
// a difference; so is a person created without a picture that comes back with one.
func TestNewChecksNameTheirDifferences(t *testing.T) {
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	tg := protocoltest.Start(t, "grpc-proto", "tcp", pictureless{contract.NewReference(ds)}, protocolServerConfig())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	diffs, err := conform.Check(ctx, tg.Client(t, nil), tg.Dataset, conform.Options{Original: conform.OriginalRefused})
	if err != nil {
		t.Fatal(err)
	}
	// Person 4 is the data set's first without a picture (every fourth has none).
	want := []conform.Difference{
		{Operation: "CreatePerson(person 4, who has no picture, without its id)", Field: "picture", Expected: "absent", Got: "{Large: Medium: Thumbnail:}"},
		{Operation: "StreamOriginalTrades(5) where a side lacks the original's trade", Field: "count", Expected: "no trade", Got: "5"},
		{Operation: "StreamOriginalTrades(5) where a side lacks the original's trade", Field: "error", Expected: "a failed call", Got: "the stream's end"},
	}
	if len(diffs) != len(want) {
		t.Fatalf("differences %v, want %v", diffs, want)
	}
	for i := range want {
		if diffs[i] != want[i] {
			t.Errorf("difference %d: %v, want %v", i, diffs[i], want[i])
		}
	}
}

// drainer is a client (the reference service called in process) that goes on calling
// the receiver of a stream of contract.MaxTrades after it failed, up to 1000 trades,
// then returns its error.
type drainer struct{ *contract.Reference }

func (d drainer) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	if count != contract.MaxTrades {
		return d.Reference.StreamTrades(ctx, count, yield)
	}
	var first error
	err := d.Reference.StreamTrades(ctx, 1000, func(t *contract.Trade) error {
		if e := yield(t); e != nil && first == nil {
			first = e
		}
		return nil
	})
	if first != nil {
		return first
	}
	return err
}

func TestReceiverCalledAfterItsError(t *testing.T) {
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	diffs, err := conform.Check(context.Background(), drainer{contract.NewReference(ds)}, ds, conform.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := conform.Difference{Operation: "StreamTrades(10000000) stopped after 100 trades", Field: "count",
		Expected: "the receiver called 100 times, up to its error", Got: "1000"}
	if len(diffs) != 1 || diffs[0] != want {
		t.Errorf("differences %v, want exactly %v", diffs, want)
	}
}

// slowIncrement is the reference service whose every Increment takes at least 50 µs,
// as a server's does on a busy machine (pingpong's chain of 1000 takes at least 50 ms),
// and gives up when its context ends, as a client's call does.
type slowIncrement struct{ *contract.Reference }

func (s slowIncrement) Increment(ctx context.Context, n int64) (int64, error) {
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-time.After(50 * time.Microsecond):
	}
	return s.Reference.Increment(ctx, n)
}

// The call timeout bounds each call of a workload's op, not the op: pingpong's 1000
// increments of at least 50 µs each (50 ms a chain) pass under a 10 ms call timeout.
// Only the pingpong ops are asserted on: the check's other calls are not what this
// test is about.
func TestCallTimeoutBoundsEachCallOfAWorkload(t *testing.T) {
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	seen := 0
	opt := conform.Options{CallTimeout: 10 * time.Millisecond, Workloads: true, Observe: func(op string, diffs []conform.Difference) {
		if !strings.HasPrefix(op, "workload pingpong, op ") {
			return
		}
		seen++
		if len(diffs) > 0 {
			t.Errorf("%s: %v", op, diffs)
		}
	}}
	if _, err := conform.Check(context.Background(), slowIncrement{contract.NewReference(ds)}, ds, opt); err != nil {
		t.Fatal(err)
	}
	if seen != 3 {
		t.Errorf("%d pingpong ops checked, want 3", seen)
	}
}
