package grpcavro

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/mem"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
)

// Fuzz tests of the codec's Unmarshal, one per message type: arbitrary bytes give an
// error or a value, never a panic (or an allocation out of proportion: the fuzzer's
// memory limit catches that), the same answer whether the bytes come in one buffer or
// two, and a decoded value re-encodes to bytes that decode to a value encoding to the
// same bytes (decoding is liberal: non-minimal varints, so the input's own bytes may
// differ).

// fuzzUnmarshal runs the fuzz test for messages of type T, seeded with seeds and with
// hostile shapes: nothing, a huge length or count, an unterminated varint.
func fuzzUnmarshal[T any, PT interface {
	*T
	avrowire.Message
}](f *testing.F, seeds ...PT) {
	for _, s := range seeds {
		b, err := avrowire.Append(nil, s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		if len(b) > 1 {
			f.Add(b[:len(b)-1])                      // truncated
			f.Add(append(append([]byte{}, b...), 0)) // a trailing byte
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0xfe, 0xff, 0xff, 0xff, 0x0f})                                     // length/count 2^31-1
	f.Add([]byte{0x01, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}) // negative count, huge block size
	f.Add(bytes.Repeat([]byte{0xff}, 12))                                           // a varint that never ends

	f.Fuzz(func(t *testing.T, data []byte) {
		var c Codec
		var v PT = new(T)
		err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(data)}, v)
		if len(data) > 1 { // the same bytes in two buffers
			var v2 PT = new(T)
			half := len(data) / 2
			err2 := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(data[:half]), mem.SliceBuffer(data[half:])}, v2)
			if (err == nil) != (err2 == nil) {
				t.Fatalf("one buffer: %v; two buffers: %v", err, err2)
			}
		}
		if err != nil {
			return
		}
		b1 := encode(t, v)
		var back PT = new(T)
		if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(b1)}, back); err != nil {
			t.Fatalf("re-encoded value %x does not decode: %v", b1, err)
		}
		if b2 := encode(t, back); !bytes.Equal(b1, b2) {
			t.Fatalf("round trip unstable: %x then %x", b1, b2)
		}
	})
}

func encode(t *testing.T, m avrowire.Message) []byte {
	data, err := Codec{}.Marshal(m)
	if err != nil {
		t.Fatalf("decoded value %+v does not encode: %v", m, err)
	}
	defer data.Free()
	return data.Materialize()
}

func seedPersons() []*avrowire.Person {
	var out []*avrowire.Person
	for _, p := range benchData.Persons()[:4] {
		w := new(avrowire.Person)
		ToWirePerson(&p, w)
		out = append(out, w)
	}
	return out
}

func FuzzUnmarshalPerson(f *testing.F) { fuzzUnmarshal(f, seedPersons()...) }

func FuzzUnmarshalPersonList(f *testing.F) {
	fuzzUnmarshal(f, ToWirePersons(benchData.Persons()[:3]), &avrowire.PersonList{})
}

func FuzzUnmarshalPersonLinkList(f *testing.F) {
	links, _ := benchData.Links(1)
	fuzzUnmarshal(f, ToWireLinks(links), &avrowire.PersonLinkList{})
}

func FuzzUnmarshalPersonName(f *testing.F) {
	fuzzUnmarshal(f, &avrowire.PersonName{Title: "mr", First: "A", Last: "B"})
}

func FuzzUnmarshalLocation(f *testing.F) {
	fuzzUnmarshal(f, &seedPersons()[0].Location)
}

func FuzzUnmarshalPicture(f *testing.F) {
	fuzzUnmarshal(f, &avrowire.Picture{Large: "l", Medium: "m", Thumbnail: "t"})
}

func FuzzUnmarshalPersonLink(f *testing.F) {
	ps := seedPersons()
	fuzzUnmarshal(f, &avrowire.PersonLink{P1: *ps[0], P2: *ps[1]})
}

func FuzzUnmarshalListPersonsRequest(f *testing.F) {
	fuzzUnmarshal(f, &avrowire.ListPersonsRequest{})
}

func FuzzUnmarshalPersonID(f *testing.F) {
	fuzzUnmarshal(f, &avrowire.PersonID{ID: 1}, &avrowire.PersonID{ID: -1 << 63})
}

func FuzzUnmarshalEchoMessage(f *testing.F) {
	fuzzUnmarshal(f, &avrowire.EchoMessage{Payload: contract.Payload(100)}, &avrowire.EchoMessage{Payload: "héllo ✓"})
}

func FuzzUnmarshalStatsRequest(f *testing.F) { fuzzUnmarshal(f, &avrowire.StatsRequest{}) }

func FuzzUnmarshalStatsReply(f *testing.F) {
	fuzzUnmarshal(f, &avrowire.StatsReply{Calls: 3, LastPayloadLen: 11})
}

func FuzzUnmarshalNumber(f *testing.F) { fuzzUnmarshal(f, &avrowire.Number{Value: 41}) }

func FuzzUnmarshalTrade(f *testing.F) {
	var seeds []*avrowire.Trade
	for i := range int64(3) {
		t := contract.TradeAt(i)
		w := new(avrowire.Trade)
		ToWireTrade(&t, w)
		seeds = append(seeds, w)
	}
	fuzzUnmarshal(f, seeds...)
}

func FuzzUnmarshalTradesRequest(f *testing.F) {
	fuzzUnmarshal(f, &avrowire.TradesRequest{Count: 10000})
}
