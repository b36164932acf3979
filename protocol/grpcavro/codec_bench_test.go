package grpcavro

// Codec micro-benchmarks: the contract model to an Avro message body (conversion and
// encoding, as the adapter does per call, minus gRPC's 5-byte frame header and
// HTTP/2) and back, through the adapter's gRPC codec, buffers freed as grpc-go frees
// them after the write.

import (
	"testing"

	"google.golang.org/grpc/mem"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

var benchData = protocoltest.CodecData

func benchPerson(tb testing.TB) contract.Person { return protocoltest.CodecPerson(tb) }

// marshal encodes m as grpc-go does through the codec, returns the body's length and
// frees it.
func marshal(tb testing.TB, m avrowire.Message) int {
	data, err := Codec{}.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	n := data.Len()
	data.Free()
	return n
}

// wire returns the body of m as one byte slice.
func wire(tb testing.TB, m avrowire.Message) []byte {
	data, err := Codec{}.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	defer data.Free()
	return data.Materialize()
}

func unmarshal(tb testing.TB, b []byte, m avrowire.Message) {
	if err := (Codec{}).Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, m); err != nil {
		tb.Fatal(err)
	}
}

func TestCodecRoundTrip(t *testing.T) {
	for _, p := range benchData.Persons() {
		var w avrowire.Person
		ToWirePerson(&p, &w)
		var back avrowire.Person
		unmarshal(t, wire(t, &w), &back)
		var got contract.Person
		FromWirePerson(&back, &got)
		if !got.Equal(p) {
			t.Fatalf("person %d: got %+v", p.ID, got)
		}
	}
	var l avrowire.PersonList
	unmarshal(t, wire(t, ToWirePersons(benchData.Persons())), &l)
	if ps := FromWirePersons(&l); len(ps) != benchData.Size() || !ps[3].Equal(benchData.Persons()[3]) {
		t.Fatalf("person list: %d persons", len(ps))
	}
	links, _ := benchData.Links(1)
	var ll avrowire.PersonLinkList
	unmarshal(t, wire(t, ToWireLinks(links)), &ll)
	if got := FromWireLinks(&ll); len(got) != len(links) || !got[0].P1.Equal(links[0].P1) || !got[0].P2.Equal(links[0].P2) {
		t.Fatalf("links: got %+v", got)
	}
	var tr contract.Trade
	for i := range int64(20) {
		want := contract.TradeAt(i)
		var w, back avrowire.Trade
		ToWireTrade(&want, &w)
		unmarshal(t, wire(t, &w), &back)
		if err := FromWireTrade(&back, &tr); err != nil || tr != want {
			t.Fatalf("trade %d: got %+v, %v", i, tr, err)
		}
	}
	// Large messages go through pooled buffers, and a type's size hint follows its
	// latest encoding both ways.
	for _, n := range []int{4 << 20, 11, 100 << 10, 0} {
		payload := contract.Payload(n)
		var back avrowire.EchoMessage
		unmarshal(t, wire(t, &avrowire.EchoMessage{Payload: payload}), &back)
		if back.Payload != payload {
			t.Fatalf("echo of %d bytes: got %d", n, len(back.Payload))
		}
	}
	if _, err := (Codec{}).Marshal("not a message"); err == nil {
		t.Error("Marshal of a string succeeded")
	}
	if err := (Codec{}).Unmarshal(nil, new(int)); err == nil {
		t.Error("Unmarshal into an int succeeded")
	}
}

func BenchmarkEncodePerson(b *testing.B) {
	p := benchPerson(b)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		w := new(avrowire.Person) // as the server's handler makes one per call
		ToWirePerson(&p, w)
		n = marshal(b, w)
	}
	b.ReportMetric(float64(n), "wire-bytes")
}

func BenchmarkDecodePerson(b *testing.B) {
	p := benchPerson(b)
	var w avrowire.Person
	ToWirePerson(&p, &w)
	data := wire(b, &w)
	b.ReportAllocs()
	for b.Loop() {
		var back avrowire.Person
		unmarshal(b, data, &back)
		var got contract.Person
		FromWirePerson(&back, &got)
	}
	b.ReportMetric(float64(len(data)), "wire-bytes")
}

func BenchmarkEncodePersonList(b *testing.B) {
	ps := benchData.Persons()
	var n int
	b.ReportAllocs()
	for b.Loop() {
		n = marshal(b, ToWirePersons(ps))
	}
	b.ReportMetric(float64(n), "wire-bytes")
}

func BenchmarkDecodePersonList(b *testing.B) {
	data := wire(b, ToWirePersons(benchData.Persons()))
	b.ReportAllocs()
	for b.Loop() {
		var back avrowire.PersonList
		unmarshal(b, data, &back)
		_ = FromWirePersons(&back)
	}
	b.ReportMetric(float64(len(data)), "wire-bytes")
}

func BenchmarkEncodeEcho1K(b *testing.B) {
	payload := contract.Payload(1 << 10)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		n = marshal(b, &avrowire.EchoMessage{Payload: payload})
	}
	b.ReportMetric(float64(n), "wire-bytes")
}

func BenchmarkDecodeEcho1K(b *testing.B) {
	data := wire(b, &avrowire.EchoMessage{Payload: contract.Payload(1 << 10)})
	b.ReportAllocs()
	for b.Loop() {
		var back avrowire.EchoMessage
		unmarshal(b, data, &back)
	}
	b.ReportMetric(float64(len(data)), "wire-bytes")
}
