package protocoltest

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
)

// An outside client of any capnp server (Go's, the Rust worker's): Python's pycapnp
// (the C++ Cap'n Proto library) loads contract/schema/wirebench.capnp from the
// repository as it is and calls the server, so the schema and the wire format are
// those of Cap'n Proto, not of one implementation alone. The client is
// protocol/capnprpc/testdata/pycapnp_client.py.

// pyPerson is a Person as pycapnp's to_dict prints it: the schema's field names.
type pyPerson struct {
	ID       int64
	Name     contract.PersonName
	Gender   string
	Location struct {
		Street, City, State, PostCode string
	}
	Email   string
	Picture *contract.Picture
}

func (p pyPerson) person() contract.Person {
	l := p.Location
	return contract.Person{ID: p.ID, Name: p.Name, Gender: p.Gender, Email: p.Email, Picture: p.Picture,
		Location: contract.Location{Street: l.Street, City: l.City, State: l.State, PostCode: l.PostCode}}
}

type pyTrade struct {
	ID             int64
	Symbol         string
	Price          float64
	Quantity       int64
	TimestampNanos int64
	Side           string // the enumerant's name
}

// Pycapnp runs the pycapnp client against the capnp server at hostPort (a TCP
// host:port) serving ds, and checks its answers: getPerson, echo, increment, an
// unknown id refused with the contract's exception reason, and a stream of more than
// two pushes. root is the repository's root, relative to the test's directory. Skips
// when python3 or pycapnp is missing (fails in CI).
func Pycapnp(t *testing.T, root, hostPort string, ds *contract.Dataset) {
	t.Helper()
	py := Python(t, "capnp", "pycapnp==2.2.4")
	schema, err := filepath.Abs(filepath.Join(root, "contract", "schema", "wirebench.capnp"))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "protocol", "capnprpc", "testdata", "pycapnp_client.py")

	const trades = 600 // more than two pushes of a batch of 256 (the Go and Rust servers')
	payload := strings.Repeat("héllo, wirebench ", 64)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, script, schema, hostPort, payload, strconv.Itoa(trades))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pycapnp client: %v\nstdout: %.2000s\nstderr: %s", err, out, stderr.String())
	}
	var got struct {
		Person    pyPerson
		Echo      string
		Increment int64
		Unknown   string
		Done      int64
		Trades    []pyTrade
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("pycapnp client output %.2000q: %v", out, err)
	}

	want, _ := ds.Person(1)
	if p := got.Person.person(); !p.Equal(want) {
		t.Errorf("getPerson(1) = %+v, want %+v", p, want)
	}
	if got.Echo != payload {
		t.Errorf("echo returned %d bytes %.40q..., want the %d sent", len(got.Echo), got.Echo, len(payload))
	}
	if got.Increment != 42 {
		t.Errorf("increment(41) = %d, want 42", got.Increment)
	}
	if !strings.Contains(got.Unknown, "wirebench:not_found: ") {
		t.Errorf("getPerson(-5): %q, want an exception whose reason starts wirebench:not_found", got.Unknown)
	}
	if got.Done != trades || len(got.Trades) != trades {
		t.Fatalf("streamTrades(%d): %d trades pushed, done(%d)", trades, len(got.Trades), got.Done)
	}
	for i, tr := range got.Trades {
		w := contract.TradeAt(int64(i))
		side := map[contract.Side]string{contract.Buy: "buy", contract.Sell: "sell"}[w.Side]
		if tr.ID != w.ID || tr.Symbol != w.Symbol || tr.Price != w.Price || tr.Quantity != w.Quantity ||
			tr.TimestampNanos != w.TimestampNanos || tr.Side != side {
			t.Fatalf("trade %d = %+v, want %+v", i, tr, w)
		}
	}
}
