package contract

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
)

// Trade shapes: what a stream workload streams (Params.Trade).
const (
	// TradeCompact is wirebench's own 6-field Trade (StreamTrades).
	TradeCompact = "compact"
	// TradeOriginal is the REST vs gRPC original's 23-field Trade (StreamOriginalTrades).
	TradeOriginal = "original"
)

// TradeShapes are the values of Params.Trade, the default first.
var TradeShapes = []string{TradeCompact, TradeOriginal}

// The recipe of OriginalTradeAt. The original filled each Trade with Podam 7.2.3
// (PodamFactoryImpl.manufacturePojoWithFullData) and then set its id to the trade's
// index: Podam's default String is PodamConstants.STR_DEFAULT_LENGTH = 10 characters
// drawn from PodamUtils.NICE_ASCII_CHARACTERS ([a-zA-Z0-9_]), and its default Long is a
// System.nanoTime() reading. Here the 12 random strings of each trade come from a PCG
// seeded with OriginalTradeSeed (Go's math/rand/v2, which the JVM and Rust workers
// reproduce bit for bit), and the longs are readings of a clock that ticks
// OriginalTradeNanoStep per field from OriginalTradeNanoBase (the magnitude of a
// nanoTime reading three days after boot), as Podam's successive nanoTime calls are.
const (
	// OriginalTradeStringLen is Podam's default string length.
	OriginalTradeStringLen = 10
	// OriginalTradePool is the number of distinct sets of random strings: trade i
	// takes set i % OriginalTradePool, so a stream of up to 10000 trades, the
	// original's, has no two alike.
	OriginalTradePool = 10_000
	// OriginalTradeSeed seeds the PCG of the strings: rand.NewPCG(OriginalTradeSeed, 0x9e3779b97f4a7c15).
	OriginalTradeSeed     = 0x5452414445 // "TRADE"
	OriginalTradeNanoBase = 259_200_000_000_000
	OriginalTradeNanoStep = 250
	// originalTradeStrings is the number of random strings per trade: externalId,
	// info, str1 ... str10.
	originalTradeStrings = 12
)

// OriginalTradeAlphabet is Podam's NICE_ASCII_CHARACTERS.
const OriginalTradeAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

// originalStrings is the pool of random strings, set after set, drawn once per
// process: drawing 120 characters per trade while streaming would add a cost the
// original did not have (it built its trades before the benchmark).
var originalStrings = sync.OnceValue(func() string {
	r := rand.New(rand.NewPCG(OriginalTradeSeed, 0x9e3779b97f4a7c15))
	b := make([]byte, OriginalTradePool*originalTradeStrings*OriginalTradeStringLen)
	for i := range b {
		b[i] = OriginalTradeAlphabet[r.IntN(len(OriginalTradeAlphabet))]
	}
	return string(b)
})

// OriginalTradeAt returns trade i of a StreamOriginalTrades stream. Like TradeAt, every
// field depends on i only: id is i in decimal (the original's trade.setId), externalId,
// info and str1 ... str10 are set i % OriginalTradePool of the random strings, and
// long k is OriginalTradeNanoBase + (10*i + k - 1) * OriginalTradeNanoStep.
func OriginalTradeAt(i int64) OriginalTrade {
	const set = originalTradeStrings * OriginalTradeStringLen
	pool := originalStrings()
	off := int(i%OriginalTradePool) * set
	s := func(k int) string {
		return pool[off+k*OriginalTradeStringLen : off+(k+1)*OriginalTradeStringLen]
	}
	l := func(k int64) int64 { return OriginalTradeNanoBase + (10*i+k-1)*OriginalTradeNanoStep }
	return OriginalTrade{
		ID: strconv.FormatInt(i, 10), ExternalID: s(0), Info: s(1),
		Str1: s(2), Str2: s(3), Str3: s(4), Str4: s(5), Str5: s(6),
		Str6: s(7), Str7: s(8), Str8: s(9), Str9: s(10), Str10: s(11),
		Long1: l(1), Long2: l(2), Long3: l(3), Long4: l(4), Long5: l(5),
		Long6: l(6), Long7: l(7), Long8: l(8), Long9: l(9), Long10: l(10),
	}
}

// CheckTradeShape returns an error for a Params.Trade that is no shape ("" is compact).
func CheckTradeShape(shape string) error {
	switch shape {
	case "", TradeCompact, TradeOriginal:
		return nil
	}
	return fmt.Errorf("trade shape %q: want %s or %s", shape, TradeCompact, TradeOriginal)
}

// ErrNotCarried is wrapped by the error of a client whose stack does not carry the
// original trade shape.
var ErrNotCarried = errors.New("does not carry the original trade shape")

// NotCarried is the error StreamOriginalTrades returns on a stack without the original
// trade shape: the run is refused rather than streaming the compact one.
func NotCarried(stack string) error {
	return fmt.Errorf("stack %s %w (trade: %s); use trade: %s, or a stack that carries it", stack, ErrNotCarried, TradeOriginal, TradeCompact)
}
