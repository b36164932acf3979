package grpcproto

// Codec micro-benchmarks: the contract model to a protobuf message body (conversion
// and marshalling, as the adapter does per call, minus gRPC's 5-byte frame header and
// HTTP/2) and back, through the codec grpc-go itself uses for content-subtype "proto"
// (encoding/proto: pooled buffers, freed here as grpc-go frees them after the write).

import (
	"testing"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"

	// The codec registers itself with encoding; grpc does that import too.
	_ "google.golang.org/grpc/encoding/proto"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/pb"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

var (
	benchData = contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	codec     = encoding.GetCodecV2("proto")
)

func benchPerson(tb testing.TB) contract.Person { return protocoltest.CodecPerson(tb) }

// encode marshals m as grpc-go does, returns the body's length and frees it.
func encode(tb testing.TB, m any) int {
	data, err := codec.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	n := data.Len()
	data.Free()
	return n
}

// wire returns the body of m as one byte slice.
func wire(tb testing.TB, m any) []byte {
	data, err := codec.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	defer data.Free()
	return data.Materialize()
}

func decode(tb testing.TB, b []byte, m any) {
	if err := codec.Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, m); err != nil {
		tb.Fatal(err)
	}
}

func TestCodecRoundTrip(t *testing.T) {
	for _, p := range benchData.Persons() {
		var w pb.Person
		decode(t, wire(t, ToPBPerson(&p)), &w)
		if got := FromPBPerson(&w); !got.Equal(p) {
			t.Fatalf("person %d: got %+v", p.ID, got)
		}
	}
	var l pb.PersonList
	decode(t, wire(t, ToPBPersons(benchData.Persons())), &l)
	if ps := FromPBPersons(&l); len(ps) != benchData.Size() {
		t.Fatalf("person list: %d persons", len(ps))
	}
	links, _ := benchData.Links(1)
	var ll pb.PersonLinkList
	decode(t, wire(t, ToPBLinks(links)), &ll)
	if got := FromPBLinks(&ll); len(got) != len(links) || !got[0].P1.Equal(links[0].P1) || !got[0].P2.Equal(links[0].P2) {
		t.Fatalf("links: got %+v", got)
	}
	var tr contract.Trade
	for i := range int64(20) {
		want := contract.TradeAt(i)
		var w, back pb.Trade
		ToPBTrade(&want, &w)
		decode(t, wire(t, &w), &back)
		if err := FromPBTrade(&back, &tr); err != nil || tr != want {
			t.Fatalf("trade %d: got %+v, %v", i, tr, err)
		}
	}
	if err := FromPBTrade(&pb.Trade{Side: 7}, &tr); err == nil {
		t.Error("a trade with side 7 decoded")
	}
}

func BenchmarkEncodePerson(b *testing.B) {
	p := benchPerson(b)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		n = encode(b, ToPBPerson(&p))
	}
	b.ReportMetric(float64(n), "wire-bytes")
}

func BenchmarkDecodePerson(b *testing.B) {
	p := benchPerson(b)
	data := wire(b, ToPBPerson(&p))
	b.ReportAllocs()
	for b.Loop() {
		var w pb.Person // a fresh message per call, as the generated stubs make
		decode(b, data, &w)
		_ = FromPBPerson(&w)
	}
	b.ReportMetric(float64(len(data)), "wire-bytes")
}

func BenchmarkEncodePersonList(b *testing.B) {
	ps := benchData.Persons()
	var n int
	b.ReportAllocs()
	for b.Loop() {
		n = encode(b, ToPBPersons(ps))
	}
	b.ReportMetric(float64(n), "wire-bytes")
}

func BenchmarkDecodePersonList(b *testing.B) {
	data := wire(b, ToPBPersons(benchData.Persons()))
	b.ReportAllocs()
	for b.Loop() {
		var w pb.PersonList
		decode(b, data, &w)
		_ = FromPBPersons(&w)
	}
	b.ReportMetric(float64(len(data)), "wire-bytes")
}

func BenchmarkEncodeEcho1K(b *testing.B) {
	payload := contract.Payload(1 << 10)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		n = encode(b, &pb.EchoMessage{Payload: payload})
	}
	b.ReportMetric(float64(n), "wire-bytes")
}

func BenchmarkDecodeEcho1K(b *testing.B) {
	data := wire(b, &pb.EchoMessage{Payload: contract.Payload(1 << 10)})
	b.ReportAllocs()
	for b.Loop() {
		var w pb.EchoMessage
		decode(b, data, &w)
		_ = w.GetPayload()
	}
	b.ReportMetric(float64(len(data)), "wire-bytes")
}
