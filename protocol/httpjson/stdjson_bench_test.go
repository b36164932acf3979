package httpjson

// Codec micro-benchmarks of the production stack: encoding/json on the contract's
// real messages, encoding as the production server writes an answer and decoding as
// its client reads one. stack/gotunedjson's codec_bench_test.go runs the same values
// through the tuned codec and the JSON libraries.

import (
	"encoding/json"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

var benchData = protocoltest.CodecData

func benchPerson(tb testing.TB) contract.Person { return protocoltest.CodecPerson(tb) }

// Encoding is EncodeJSON (json.Encoder into a new buffer), decoding json.Unmarshal
// into the body's type.

// benchEncodeJSON measures EncodeJSON(v()); v builds the value as a handler does, so
// that its boxing into an interface is counted.
func benchEncodeJSON(b *testing.B, v func() any) {
	var wireLen int
	b.ReportAllocs()
	for b.Loop() {
		body, err := EncodeJSON(v())
		if err != nil {
			b.Fatal(err)
		}
		wireLen = len(body)
	}
	b.ReportMetric(float64(wireLen), "wire-bytes")
}

// benchDecodeJSON measures json.Unmarshal of the body v encodes into a new value of
// T's type.
func benchDecodeJSON[T any](b *testing.B, v any) {
	wire, err := EncodeJSON(v)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var out T
		if err := json.Unmarshal(wire, &out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(wire)), "wire-bytes")
}

func BenchmarkEncodingJSONEncodePerson(b *testing.B) {
	p := benchPerson(b)
	benchEncodeJSON(b, func() any { return p })
}

func BenchmarkEncodingJSONDecodePerson(b *testing.B) {
	benchDecodeJSON[contract.Person](b, benchPerson(b))
}

func BenchmarkEncodingJSONEncodePersonList(b *testing.B) {
	benchEncodeJSON(b, func() any { return PersonList{Persons: benchData.Persons()} })
}

func BenchmarkEncodingJSONDecodePersonList(b *testing.B) {
	benchDecodeJSON[PersonList](b, PersonList{Persons: benchData.Persons()})
}

func BenchmarkEncodingJSONEncodeEcho1K(b *testing.B) {
	payload := contract.Payload(1 << 10)
	benchEncodeJSON(b, func() any { return EchoBody{Payload: payload} })
}

func BenchmarkEncodingJSONDecodeEcho1K(b *testing.B) {
	benchDecodeJSON[EchoRead](b, EchoBody{Payload: contract.Payload(1 << 10)})
}
