package protocoltest

import (
	"testing"

	"github.com/wirebench/wirebench/contract"
)

// CodecData is the data set of the codec benchmarks and round-trip tests of every
// adapter: the default one, so their figures compare.
var CodecData = contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)

// CodecPerson returns the first person of CodecData with a picture (the larger kind),
// the message every adapter's person benchmarks encode.
func CodecPerson(tb testing.TB) contract.Person {
	tb.Helper()
	for _, p := range CodecData.Persons() {
		if p.Picture != nil {
			return p
		}
	}
	tb.Fatal("no person with a picture in the data set")
	return contract.Person{}
}
