package contract

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// The strings of trades 0, 1 and 9999 were computed by an independent Python
// reimplementation of the recipe (Go's PCG-DXSM and Lemire's IntN written from the
// algorithm, seeded 0x5452414445, 0x9e3779b97f4a7c15, drawing 120 characters of
// [a-zA-Z0-9_] per trade), not by OriginalTradeAt. The JVM and Rust workers check
// the same values.
func TestOriginalTradeAtGolden(t *testing.T) {
	for _, c := range []struct {
		i    int64
		strs [12]string
	}{
		{0, [12]string{"DqGTbqvGrM", "NXhhF6rq2c", "TGzzYG0eAq", "VMQJAQMrDY", "XKqwRRsVHN", "CuULHp2tJZ",
			"74FTa68RDw", "WcdWW7PTAp", "b0ikj0a6RF", "5o3Rq6UjTA", "5Zs_u6ufT5", "ksc08aqSh7"}},
		{1, [12]string{"sLe2P1AnKa", "l5dRvg7fit", "pPMzAVrVML", "au2NwoFClH", "PkJgJzln2J", "luD0ueVH08",
			"P2BEec2W7Z", "EfoTUEdkum", "5Zc_v5cUME", "i5Epjl3Sge", "kkq2oosSQc", "KmJUDx7oA2"}},
		{9999, [12]string{"fP7tE0_mgz", "Y07nVwIHsE", "zvx5JyT7U2", "5kWf5Ez8BM", "ZvdtTGRXfM", "Fxf0gJc044",
			"lC8V5LPyyW", "ABP_z0UpsQ", "udHgc4pct4", "IUAvWcrYbE", "qP8Ls_0JUE", "uuTPR38qHH"}},
	} {
		got := OriginalTradeAt(c.i)
		s := c.strs
		want := OriginalTrade{
			ID: strconv.FormatInt(c.i, 10), ExternalID: s[0], Info: s[1],
			Str1: s[2], Str2: s[3], Str3: s[4], Str4: s[5], Str5: s[6],
			Str6: s[7], Str7: s[8], Str8: s[9], Str9: s[10], Str10: s[11],
		}
		// long k of trade i: 259200000000000 + (10i + k - 1) * 250.
		base := int64(259_200_000_000_000) + c.i*2500
		want.Long1, want.Long2, want.Long3, want.Long4, want.Long5 = base, base+250, base+500, base+750, base+1000
		want.Long6, want.Long7, want.Long8, want.Long9, want.Long10 = base+1250, base+1500, base+1750, base+2000, base+2250
		if got != want {
			t.Errorf("OriginalTradeAt(%d) =\n%+v, want\n%+v", c.i, got, want)
		}
	}
	// Past the pool, the strings repeat and the id and longs go on.
	a, b := OriginalTradeAt(3), OriginalTradeAt(3+OriginalTradePool)
	if a.Str7 != b.Str7 || a.ID == b.ID || a.Long1 == b.Long1 {
		t.Errorf("trade 3 and trade %d: %+v and %+v", 3+OriginalTradePool, a, b)
	}
}

// The original's stream of 10000 trades has no two alike, and every string is Podam's
// default: 10 characters of [a-zA-Z0-9_].
func TestOriginalTradesDistinct(t *testing.T) {
	seen := map[string]int64{}
	for i := int64(0); i < OriginalTradePool; i++ {
		tr := OriginalTradeAt(i)
		for _, s := range []string{tr.ExternalID, tr.Info, tr.Str1, tr.Str2, tr.Str3, tr.Str4, tr.Str5,
			tr.Str6, tr.Str7, tr.Str8, tr.Str9, tr.Str10} {
			if len(s) != 10 || strings.Trim(s, OriginalTradeAlphabet) != "" {
				t.Fatalf("trade %d: string %q is not 10 characters of Podam's alphabet", i, s)
			}
		}
		if j, ok := seen[tr.ExternalID+tr.Info]; ok {
			t.Fatalf("trades %d and %d have the same strings", j, i)
		}
		seen[tr.ExternalID+tr.Info] = i
	}
}

// oneFieldWrong streams the original's trades with one field wrong, as a server that
// lost a field would: the stream workload with trade: original must fail on it.
type oneFieldWrong struct{ *Reference }

func (s oneFieldWrong) StreamOriginalTrades(ctx context.Context, count int64, yield func(*OriginalTrade) error) error {
	return s.Reference.StreamOriginalTrades(ctx, count, func(t *OriginalTrade) error {
		u := *t
		u.Long10 = 0
		return yield(&u)
	})
}

func TestStreamWorkloadOriginalShape(t *testing.T) {
	w, err := LookupWorkload("stream")
	if err != nil {
		t.Fatal(err)
	}
	ds := MustDataset(DefaultSeed, DefaultSize)
	p := Params{Trades: 50, Trade: TradeOriginal}
	if err := w.Check(p); err != nil {
		t.Fatal(err)
	}
	op, err := w.New(p, ds)
	if err != nil {
		t.Fatal(err)
	}
	ref := NewReference(ds)
	if err := op(context.Background(), ref, 0); err != nil {
		t.Errorf("original shape over the reference: %v", err)
	}
	if err := op(context.Background(), oneFieldWrong{ref}, 0); !errors.Is(err, ErrWrongAnswer) {
		t.Errorf("original shape with long10 lost: %v, want a wrong answer", err)
	}
	if err := w.Check(Params{Trades: 5, Trade: "wide"}); err == nil || !strings.Contains(err.Error(), `"wide"`) {
		t.Errorf("Check of trade: wide = %v, want an error naming it", err)
	}
}
