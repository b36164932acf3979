package gonetrpcgob_test

import (
	"net/rpc"
	"testing"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/netrpcgob"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

// The types a net/rpc user would write from docs/protocols.md alone, in a program of
// their own: gob matches fields by name, so they need not be wirebench's.
type (
	userPerson struct {
		ID    int64
		Name  struct{ Title, First, Last string }
		Email string
	}
	userPage struct {
		Stream uint64
		Trades []struct {
			ID     int64
			Symbol string
		}
		Last bool
	}
)

// net/rpc's own client, rpc.Dial with its gob codec, calls the go-netrpc-gob server:
// the server's codec (net/rpc's, with a limit on what it reads) speaks the bytes
// rpc.ServeConn does. Over a Unix socket too (rpc.Dial("unix", path)).
func TestStockClient(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			tg := protocoltest.Start(t, netrpcgob.Name, network, nil, protocol.ServerConfig{})
			c, err := rpc.Dial(tg.Addr.Network, tg.Addr.Address)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			want, _ := tg.Dataset.Person(3)
			var p userPerson
			if err := c.Call("Wirebench.GetPerson", int64(3), &p); err != nil {
				t.Fatal(err)
			}
			if p.ID != 3 || p.Name.First != want.Name.First || p.Email != want.Email {
				t.Errorf("GetPerson(3) = %+v, want %+v", p, want)
			}
			err = c.Call("Wirebench.GetPerson", int64(999), &p)
			if se, ok := err.(rpc.ServerError); !ok || string(se) != "wirebench:not_found: no person with id 999" {
				t.Errorf("GetPerson(999): %#v, want the ServerError \"wirebench:not_found: no person with id 999\"", err)
			}
			var echoed string
			if err := c.Call("Wirebench.Echo", "hello", &echoed); err != nil || echoed != "hello" {
				t.Errorf("Echo(hello) = %q, %v", echoed, err)
			}
			// A stream of 3 trades in pages of 2: two pages, the second the last.
			var first, second userPage
			if err := c.Call("Wirebench.StreamTrades", struct {
				Count    int64
				PageSize int32
			}{3, 2}, &first); err != nil {
				t.Fatal(err)
			}
			if err := c.Call("Wirebench.NextTrades", first.Stream, &second); err != nil {
				t.Fatal(err)
			}
			if len(first.Trades) != 2 || first.Last || len(second.Trades) != 1 || !second.Last || second.Trades[0].ID != 2 {
				t.Errorf("pages %+v then %+v, want trades 0 and 1, then 2 and the end", first, second)
			}
			if err := c.Call("Wirebench.NextTrades", first.Stream, &second); err == nil {
				t.Error("NextTrades after the last page succeeded, want invalid_argument")
			}
		})
	}
}
