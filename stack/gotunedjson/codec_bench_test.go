package gotunedjson

// Codec micro-benchmarks: the contract model to a JSON body and back, as the adapter
// does per call. Encoding takes a pooled encoder and writes into its buffer (as the
// server does for an answer and the client for a request); decoding reads a body into
// the model, copying every string, as the client does with an answer.

import (
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

var benchData = protocoltest.CodecData

func benchPerson(tb testing.TB) contract.Person { return protocoltest.CodecPerson(tb) }

// encoded returns the body encode writes.
func encoded(tb testing.TB, encode func(e *encoder) error) []byte {
	e := getEncoder()
	defer putEncoder(e)
	if err := encode(e); err != nil {
		tb.Fatal(err)
	}
	return append([]byte(nil), e.Bytes()...)
}

func TestCodecRoundTrip(t *testing.T) {
	for _, p := range benchData.Persons() {
		var got contract.Person
		if err := decodePerson(encoded(t, func(e *encoder) error { return encodePerson(e, &p) }), &got); err != nil || !got.Equal(p) {
			t.Fatalf("person %d: got %+v, %v", p.ID, got, err)
		}
	}
	ps, err := decodePersonList(encoded(t, func(e *encoder) error { return encodePersonList(e, benchData.Persons()) }))
	if err != nil || len(ps) != benchData.Size() {
		t.Fatalf("person list: %d persons, %v", len(ps), err)
	}
	payload := contract.Payload(1 << 10)
	if got, err := decodeEcho(encoded(t, func(e *encoder) error { return encodeEcho(e, payload) })); err != nil || got != payload {
		t.Fatalf("echo: %d bytes, %v", len(got), err)
	}
}

func BenchmarkEncodePerson(b *testing.B) {
	p := benchPerson(b)
	var wireLen int
	b.ReportAllocs()
	for b.Loop() {
		e := getEncoder()
		if err := encodePerson(e, &p); err != nil {
			b.Fatal(err)
		}
		wireLen = len(e.Bytes())
		putEncoder(e)
	}
	b.ReportMetric(float64(wireLen), "wire-bytes")
}

func BenchmarkDecodePerson(b *testing.B) {
	p := benchPerson(b)
	wire := encoded(b, func(e *encoder) error { return encodePerson(e, &p) })
	b.ReportAllocs()
	for b.Loop() {
		var got contract.Person
		if err := decodePerson(wire, &got); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(wire)), "wire-bytes")
}

func BenchmarkEncodePersonList(b *testing.B) {
	ps := benchData.Persons()
	var wireLen int
	b.ReportAllocs()
	for b.Loop() {
		e := getEncoder()
		if err := encodePersonList(e, ps); err != nil {
			b.Fatal(err)
		}
		wireLen = len(e.Bytes())
		putEncoder(e)
	}
	b.ReportMetric(float64(wireLen), "wire-bytes")
}

func BenchmarkDecodePersonList(b *testing.B) {
	wire := encoded(b, func(e *encoder) error { return encodePersonList(e, benchData.Persons()) })
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodePersonList(wire); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(wire)), "wire-bytes")
}

func BenchmarkEncodeEcho1K(b *testing.B) {
	payload := contract.Payload(1 << 10)
	var wireLen int
	b.ReportAllocs()
	for b.Loop() {
		e := getEncoder()
		if err := encodeEcho(e, payload); err != nil {
			b.Fatal(err)
		}
		wireLen = len(e.Bytes())
		putEncoder(e)
	}
	b.ReportMetric(float64(wireLen), "wire-bytes")
}

func BenchmarkDecodeEcho1K(b *testing.B) {
	wire := encoded(b, func(e *encoder) error { return encodeEcho(e, contract.Payload(1<<10)) })
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeEcho(wire); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(wire)), "wire-bytes")
}
