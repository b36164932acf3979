package capnprpc

// Codec micro-benchmarks: the contract model to a framed Cap'n Proto message
// (conversion and marshalling, as the adapter does per call, minus the RPC envelope)
// and back. Encoding builds a fresh message each time, with the pooled multi-segment
// arena the RPC transport uses, and frames it into a reused buffer; decoding reads the
// frame in place (Cap'n Proto needs no parse step) and converts to the model.

import (
	"bytes"
	"testing"

	"capnproto.org/go/capnp/v3"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/capnpwire"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

var benchData = protocoltest.CodecData

func benchPerson(tb testing.TB) contract.Person { return protocoltest.CodecPerson(tb) }

// framer frames messages into a reused buffer with a reused encoder, as a
// connection's codec does.
type framer struct {
	buf bytes.Buffer
	enc *capnp.Encoder
}

func (f *framer) Bytes() []byte { return f.buf.Bytes() }
func (f *framer) Len() int      { return f.buf.Len() }

// frame builds a message with build and frames it into out.
func frame(out *framer, build func(seg *capnp.Segment) error) error {
	msg, seg := capnp.NewMultiSegmentMessage(nil)
	defer msg.Release()
	if err := build(seg); err != nil {
		return err
	}
	if out.enc == nil {
		out.enc = capnp.NewEncoder(&out.buf)
	}
	out.buf.Reset()
	return out.enc.Encode(msg)
}

func encodePerson(out *framer, p *contract.Person) error {
	return frame(out, func(seg *capnp.Segment) error {
		w, err := capnpwire.NewRootPerson(seg)
		if err != nil {
			return err
		}
		return WritePerson(w, p)
	})
}

func decodePerson(wire []byte, p *contract.Person) error {
	msg, err := capnp.Unmarshal(wire)
	if err != nil {
		return err
	}
	w, err := capnpwire.ReadRootPerson(msg)
	if err != nil {
		return err
	}
	return ReadPerson(w, p)
}

func encodePersonList(out *framer, ps []contract.Person) error {
	return frame(out, func(seg *capnp.Segment) error {
		w, err := capnpwire.NewRootWirebench_listPersons_Results(seg)
		if err != nil {
			return err
		}
		l, err := w.NewPersons(int32(len(ps)))
		if err != nil {
			return err
		}
		return WritePersons(l, ps)
	})
}

func decodePersonList(wire []byte) ([]contract.Person, error) {
	msg, err := capnp.Unmarshal(wire)
	if err != nil {
		return nil, err
	}
	w, err := capnpwire.ReadRootWirebench_listPersons_Results(msg)
	if err != nil {
		return nil, err
	}
	l, err := w.Persons()
	if err != nil {
		return nil, err
	}
	return ReadPersons(l)
}

func encodeEcho(out *framer, payload string) error {
	return frame(out, func(seg *capnp.Segment) error {
		w, err := capnpwire.NewRootWirebench_echo_Params(seg)
		if err != nil {
			return err
		}
		return w.SetPayload(payload)
	})
}

func decodeEcho(wire []byte) (string, error) {
	msg, err := capnp.Unmarshal(wire)
	if err != nil {
		return "", err
	}
	w, err := capnpwire.ReadRootWirebench_echo_Params(msg)
	if err != nil {
		return "", err
	}
	return w.Payload()
}

func TestCodecRoundTrip(t *testing.T) {
	var buf framer
	for _, p := range benchData.Persons() {
		if err := encodePerson(&buf, &p); err != nil {
			t.Fatal(err)
		}
		var got contract.Person
		if err := decodePerson(buf.Bytes(), &got); err != nil || !got.Equal(p) {
			t.Fatalf("person %d: got %+v, %v", p.ID, got, err)
		}
	}
	if err := encodePersonList(&buf, benchData.Persons()); err != nil {
		t.Fatal(err)
	}
	ps, err := decodePersonList(buf.Bytes())
	if err != nil || len(ps) != benchData.Size() {
		t.Fatalf("person list: %d persons, %v", len(ps), err)
	}
	payload := contract.Payload(1 << 10)
	if err := encodeEcho(&buf, payload); err != nil {
		t.Fatal(err)
	}
	if got, err := decodeEcho(buf.Bytes()); err != nil || got != payload {
		t.Fatalf("echo: %d bytes, %v", len(got), err)
	}
	var tr contract.Trade
	for i := range int64(20) {
		want := contract.TradeAt(i)
		_, seg := capnp.NewMultiSegmentMessage(nil)
		w, _ := capnpwire.NewRootTrade(seg)
		if err := WriteTrade(w, &want); err != nil {
			t.Fatal(err)
		}
		if err := ReadTrade(w, &tr); err != nil || tr != want {
			t.Fatalf("trade %d: got %+v, %v", i, tr, err)
		}
	}
}

func BenchmarkEncodePerson(b *testing.B) {
	p := benchPerson(b)
	var buf framer
	b.ReportAllocs()
	for b.Loop() {
		if err := encodePerson(&buf, &p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "wire-bytes")
}

func BenchmarkDecodePerson(b *testing.B) {
	p := benchPerson(b)
	var buf framer
	if err := encodePerson(&buf, &p); err != nil {
		b.Fatal(err)
	}
	wire := buf.Bytes()
	var got contract.Person
	b.ReportAllocs()
	for b.Loop() {
		if err := decodePerson(wire, &got); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(wire)), "wire-bytes")
}

func BenchmarkEncodePersonList(b *testing.B) {
	ps := benchData.Persons()
	var buf framer
	b.ReportAllocs()
	for b.Loop() {
		if err := encodePersonList(&buf, ps); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "wire-bytes")
}

func BenchmarkDecodePersonList(b *testing.B) {
	var buf framer
	if err := encodePersonList(&buf, benchData.Persons()); err != nil {
		b.Fatal(err)
	}
	wire := buf.Bytes()
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
	var buf framer
	b.ReportAllocs()
	for b.Loop() {
		if err := encodeEcho(&buf, payload); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "wire-bytes")
}

func BenchmarkDecodeEcho1K(b *testing.B) {
	var buf framer
	if err := encodeEcho(&buf, contract.Payload(1<<10)); err != nil {
		b.Fatal(err)
	}
	wire := buf.Bytes()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeEcho(wire); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(wire)), "wire-bytes")
}
