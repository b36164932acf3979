package contract

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestDatasetDeterministic(t *testing.T) {
	a, b := MustDataset(7, 50), MustDataset(7, 50)
	for i := range a.Persons() {
		if !a.Persons()[i].Equal(b.Persons()[i]) {
			t.Fatalf("same seed, person %d differs: %+v vs %+v", i+1, a.Persons()[i], b.Persons()[i])
		}
	}
	c := MustDataset(8, 50)
	same := 0
	for i := range a.Persons() {
		if a.Persons()[i].Equal(c.Persons()[i]) {
			same++
		}
	}
	if same == 50 {
		t.Error("seeds 7 and 8 gave the same data set")
	}
}

// The default data set is what every protocol and every worker language must agree on;
// this pins person 1 so a change of the recipe is a deliberate one.
func TestDefaultDatasetPinned(t *testing.T) {
	ds := MustDataset(DefaultSeed, DefaultSize)
	p, ok := ds.Person(1)
	if !ok || p.ID != 1 || p.Picture == nil || !strings.HasSuffix(p.Email, ".1@example.com") {
		t.Fatalf("person 1 = %+v", p)
	}
	t.Logf("person 1 of the default data set: %+v %+v", p, *p.Picture)
	if p4, _ := ds.Person(4); p4.Picture != nil {
		t.Error("person 4 must have no picture (one in four has none)")
	}
}

func TestDatasetBounds(t *testing.T) {
	for _, size := range []int{0, -1, 1_000_001} {
		if _, err := NewDataset(1, size); err == nil {
			t.Errorf("NewDataset(size %d) succeeded", size)
		}
	}
	ds := MustDataset(1, 3)
	for _, id := range []int64{0, 4, -1} {
		if _, ok := ds.Person(id); ok {
			t.Errorf("Person(%d) found in a data set of 3", id)
		}
	}
	// With 3 persons each has 2 links (to the other two), never to itself.
	for id := int64(1); id <= 3; id++ {
		links, _ := ds.Links(id)
		if len(links) != 2 {
			t.Errorf("person %d has %d links, want 2", id, len(links))
		}
		for _, l := range links {
			if l.P1.ID != id || l.P2.ID == id {
				t.Errorf("person %d has link %d→%d", id, l.P1.ID, l.P2.ID)
			}
		}
	}
	if links, _ := MustDataset(1, 1).Links(1); len(links) != 0 {
		t.Errorf("a lone person has %d links, want 0", len(links))
	}
}

func TestTradeAt(t *testing.T) {
	for i := range int64(200000) {
		tr := TradeAt(i)
		// Prices must survive a decimal round trip exactly (JSON), as whole cents.
		if s := strconv.FormatFloat(tr.Price, 'g', -1, 64); len(s) > 7 {
			t.Fatalf("trade %d price %s is not a short decimal", i, s)
		}
		if tr.ID != i || tr.Quantity < 1 || (tr.Side != Buy && tr.Side != Sell) {
			t.Fatalf("trade %d = %+v", i, tr)
		}
	}
}

func TestPayload(t *testing.T) {
	if Payload(11) != "Hello World" {
		t.Errorf("Payload(11) = %q", Payload(11))
	}
	for _, n := range []int{0, 1, 12, 1024, 100 << 10} {
		if got := len(Payload(n)); got != n {
			t.Errorf("len(Payload(%d)) = %d", n, got)
		}
	}
}

func TestReferenceErrors(t *testing.T) {
	ctx := context.Background()
	r := NewReference(MustDataset(1, 5))
	if _, err := r.GetPerson(ctx, 6); CodeOf(err) != NotFound || !errors.Is(err, &Error{Code: NotFound}) {
		t.Errorf("GetPerson(6) = %v", err)
	}
	if _, err := r.CreatePerson(ctx, Person{}); CodeOf(err) != InvalidArgument {
		t.Errorf("CreatePerson(empty) = %v", err)
	}
	if err := r.StreamTrades(ctx, MaxTrades+1, nil); CodeOf(err) != InvalidArgument {
		t.Errorf("StreamTrades(too many) = %v", err)
	}
	if CodeOf(errors.New("x")) != "" || CodeOf(nil) != "" {
		t.Error("CodeOf of a non-contract error must be empty")
	}
	p1, _ := r.CreatePerson(ctx, Person{Name: PersonName{First: "a", Last: "b"}, Email: "a@b"})
	p2, _ := r.CreatePerson(ctx, Person{Name: PersonName{First: "a", Last: "b"}, Email: "a@b"})
	if p1.ID != 6 || p2.ID != 7 {
		t.Errorf("created ids %d, %d; want 6, 7", p1.ID, p2.ID)
	}
}

func TestWorkloadsOnReference(t *testing.T) {
	ds := MustDataset(DefaultSeed, DefaultSize)
	ref := NewReference(ds)
	for _, w := range Workloads() {
		if w.Name == "message" {
			continue // a user's message, echoed by protocol clients only (usermsg.Echoer): protocoltest
		}
		op, err := w.New(w.DefaultParams(), ds)
		if err != nil {
			t.Fatal(err)
		}
		for seq := range uint64(50) {
			if err := op(context.Background(), ref, seq); err != nil {
				t.Fatalf("%s op %d: %v", w.Name, seq, err)
			}
		}
		if w.Calls(w.DefaultParams()) < 1 {
			t.Errorf("%s: Calls < 1", w.Name)
		}
	}
}

// liar answers like the reference, but each operation can be told to cut a corner.
type liar struct {
	*Reference
	cut string
}

func (l liar) ListPersons(ctx context.Context) ([]Person, error) {
	ps, err := l.Reference.ListPersons(ctx)
	if l.cut == "list" {
		return ps[:len(ps)-1], err
	}
	return ps, err
}

func (l liar) GetPerson(ctx context.Context, id int64) (Person, error) {
	p, err := l.Reference.GetPerson(ctx, id)
	if l.cut == "get" {
		p.Picture = nil
		p.Email = ""
	}
	return p, err
}

func (l liar) GetPersonLinks(ctx context.Context, id int64) ([]PersonLink, error) {
	ls, err := l.Reference.GetPersonLinks(ctx, id)
	if l.cut == "links" {
		return ls[:1], err
	}
	return ls, err
}

func (l liar) CreatePerson(ctx context.Context, p Person) (Person, error) {
	if l.cut == "create" {
		return p, nil // no id assigned
	}
	return l.Reference.CreatePerson(ctx, p)
}

func (l liar) Echo(ctx context.Context, payload string) (string, error) {
	if l.cut == "echo" && len(payload) > 0 {
		return payload[:len(payload)-1], nil
	}
	return l.Reference.Echo(ctx, payload)
}

func (l liar) Stats(ctx context.Context) (Stats, error) {
	if l.cut == "stats" {
		return Stats{}, nil
	}
	return l.Reference.Stats(ctx)
}

func (l liar) Increment(ctx context.Context, n int64) (int64, error) {
	if l.cut == "increment" {
		return n, nil
	}
	return n + 1, nil
}

func (l liar) StreamTrades(ctx context.Context, count int64, yield func(*Trade) error) error {
	if l.cut == "stream" {
		count--
	}
	return l.Reference.StreamTrades(ctx, count, yield)
}

func TestWorkloadsCatchWrongAnswers(t *testing.T) {
	ds := MustDataset(DefaultSeed, DefaultSize)
	for _, c := range []struct{ workload, cut string }{
		{"person.list", "list"},
		{"person.get", "get"},
		{"person.links", "links"},
		{"person.create", "create"},
		{"person.compose", "links"},
		{"echo", "echo"},
		{"echo+stats", "stats"},
		{"pingpong", "increment"},
		{"stream", "stream"},
	} {
		w, err := LookupWorkload(c.workload)
		if err != nil {
			t.Fatal(err)
		}
		op, _ := w.New(w.DefaultParams(), ds)
		err = op(context.Background(), liar{NewReference(ds), c.cut}, 1)
		if !errors.Is(err, ErrWrongAnswer) {
			t.Errorf("%s over a service that cuts %q: err = %v, want ErrWrongAnswer", c.workload, c.cut, err)
		}
	}
}

func TestWorkloadCheck(t *testing.T) {
	echo, _ := LookupWorkload("echo")
	if echo.Check(Params{Payload: -1}) == nil || echo.Check(Params{Payload: MaxPayload + 1}) == nil {
		t.Error("echo accepted an out-of-range payload")
	}
	if err := echo.Check(Params{Payload: 1024}); err != nil {
		t.Error(err)
	}
	pp, _ := LookupWorkload("pingpong")
	if pp.Check(Params{Increments: 0}) == nil {
		t.Error("pingpong accepted 0 increments")
	}
	if _, err := LookupWorkload("nope"); err == nil || !strings.Contains(err.Error(), "person.get") {
		t.Errorf("LookupWorkload(nope) = %v, want the known names", err)
	}
}
