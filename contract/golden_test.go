package contract

// Golden files of the data set recipe, shared with the workers in other languages
// (workers/java reads them in its tests): a worker that builds persons, links, trades
// or payloads differently from this package fails its own tests before it can fail a
// benchmark's contract check. `go test ./contract -run Golden -update` rewrites them;
// a diff in them is a change of the contract.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/wirebench/wirebench/internal/golden"
)

// goldenDatasets are the (seed, size) pairs pinned: the default, a single person (no
// links), a larger set, and a seed above 2⁶³ (languages without unsigned integers
// must carry it exactly).
var goldenDatasets = []struct {
	seed uint64
	size int
}{{1, 20}, {7, 1}, {42, 100}, {18446744073709551615, 5}}

// goldenDataset is the JSON of one data set. Seeds are strings: a JSON reader that
// reads numbers as float64 would round a seed above 2⁵³. Links are given by id (the
// persons are pinned above them); raw generator outputs help a port find where it
// first differs.
type goldenDataset struct {
	Seed    string       `json:"seed"`
	Size    int          `json:"size"`
	Uint64  []string     `json:"pcg_uint64"` // the first outputs of the PCG source, hex
	IntN    []goldIntN   `json:"intn"`
	Persons []Person     `json:"persons"`
	Links   [][][2]int64 `json:"links"` // links[i]: [p1 id, p2 id] of person i+1's links
}

type goldIntN struct {
	N      int   `json:"n"`
	Values []int `json:"values"`
}

type goldenTrades struct {
	Trades   []Trade           `json:"trades"`
	Payloads map[string]string `json:"payloads"` // by size, decimal
}

// tradeIndexes cover every symbol, both sides, the price's wrap at 90000 and large ids.
var tradeIndexes = []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255, 256, 499, 500, 89999, 90000, 90001,
	123456789, MaxTrades - 1, 1 << 40}

var payloadSizes = []int{0, 1, 11, 12, 13, 100, 1000}

func TestGoldenDatasets(t *testing.T) {
	for _, g := range goldenDatasets {
		ds := MustDataset(g.seed, g.size)
		src := rand.NewPCG(g.seed, 0x9e3779b97f4a7c15)
		out := goldenDataset{Seed: strconv.FormatUint(g.seed, 10), Size: g.size, Persons: ds.Persons()}
		for range 8 {
			out.Uint64 = append(out.Uint64, fmt.Sprintf("%016x", src.Uint64()))
		}
		// IntN over bounds that take each path of Go's uint64n: powers of two (a mask),
		// small and large others (multiply, and the rejection test).
		r := rand.New(rand.NewPCG(g.seed, 0x9e3779b97f4a7c15))
		for _, n := range []int{1, 2, 5, 16, 100, 99999, 1 << 40, 1<<62 + 1} {
			gi := goldIntN{N: n}
			for range 6 {
				gi.Values = append(gi.Values, r.IntN(n))
			}
			out.IntN = append(out.IntN, gi)
		}
		for id := int64(1); id <= int64(g.size); id++ {
			links, _ := ds.Links(id)
			ids := [][2]int64{}
			for _, l := range links {
				ids = append(ids, [2]int64{l.P1.ID, l.P2.ID})
			}
			out.Links = append(out.Links, ids)
		}
		checkGolden(t, fmt.Sprintf("dataset-%d-%d.json", g.seed, g.size), out)
	}
}

func TestGoldenTrades(t *testing.T) {
	out := goldenTrades{Payloads: map[string]string{}}
	for _, i := range tradeIndexes {
		out.Trades = append(out.Trades, TradeAt(i))
	}
	for _, n := range payloadSizes {
		out.Payloads[strconv.Itoa(n)] = Payload(n)
	}
	checkGolden(t, "trades.json", out)
}

// checkGolden compares v's indented JSON with testdata/name, or writes it with
// -update (internal/golden). A difference means the data set recipe changed: if on
// purpose, rerun with -update and update every worker in another language.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, name, append(got, '\n'))
}
