package thriftrpc

// Codec micro-benchmarks: the contract model to a Thrift struct's bytes (conversion
// and writing, as the adapter does per call, minus the message header and the 4-byte
// frame length) and back, in each encoding, through a memory buffer reused as the
// framed transport reuses its pooled buffers.

import (
	"context"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/thriftwire"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

var benchData = contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)

// codec writes and reads structs in one encoding through one reused buffer.
type codec struct {
	buf  *thrift.TMemoryBuffer
	prot thrift.TProtocol
}

func newCodec(v variant) *codec {
	buf := thrift.NewTMemoryBufferLen(16 << 10)
	return &codec{buf: buf, prot: v.factory(&thrift.TConfiguration{}).GetProtocol(buf)}
}

// encode writes s and returns its length.
func (c *codec) encode(tb testing.TB, s thrift.TStruct) int {
	c.buf.Reset()
	if err := s.Write(context.Background(), c.prot); err != nil {
		tb.Fatal(err)
	}
	c.prot.Flush(context.Background())
	return c.buf.Len()
}

// wire returns the bytes of s.
func (c *codec) wire(tb testing.TB, s thrift.TStruct) []byte {
	c.encode(tb, s)
	return append([]byte(nil), c.buf.Bytes()...)
}

// decode reads s from data.
func (c *codec) decode(tb testing.TB, data []byte, s thrift.TStruct) {
	c.buf.Reset()
	c.buf.Write(data)
	if err := s.Read(context.Background(), c.prot); err != nil {
		tb.Fatal(err)
	}
}

func TestCodecRoundTrip(t *testing.T) {
	for _, v := range variants {
		c := newCodec(v)
		for _, p := range benchData.Persons() {
			var w thriftwire.Person
			c.decode(t, c.wire(t, ToWirePerson(&p)), &w)
			if got := FromWirePerson(&w); !got.Equal(p) {
				t.Fatalf("%s: person %d: got %+v", v.name, p.ID, got)
			}
		}
		links, _ := benchData.Links(1)
		var lr thriftwire.WirebenchGetPersonLinksResult
		c.decode(t, c.wire(t, &thriftwire.WirebenchGetPersonLinksResult{Success: ToWireLinks(links)}), &lr)
		got, err := FromWireLinks(lr.Success)
		if err != nil || len(got) != len(links) || !got[0].P1.Equal(links[0].P1) || !got[0].P2.Equal(links[0].P2) {
			t.Fatalf("%s: links: got %+v, %v", v.name, got, err)
		}
		var tr contract.Trade
		for i := range int64(20) {
			want := contract.TradeAt(i)
			var w, back thriftwire.Trade
			ToWireTrade(&want, &w)
			c.decode(t, c.wire(t, &w), &back)
			if err := FromWireTrade(&back, &tr); err != nil || tr != want {
				t.Fatalf("%s: trade %d: got %+v, %v", v.name, i, tr, err)
			}
		}
	}
	var tr contract.Trade
	if err := FromWireTrade(&thriftwire.Trade{Side: 7}, &tr); err == nil {
		t.Error("a trade with side 7 decoded")
	}
	if _, err := FromWireLinks([]*thriftwire.PersonLink{{P1: &thriftwire.Person{}}}); err == nil {
		t.Error("a link without its second person decoded")
	}
}

// benchEncode and benchDecode run one benchmark per encoding.
func benchEncode(b *testing.B, make func() thrift.TStruct) {
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			c := newCodec(v)
			var n int
			b.ReportAllocs()
			for b.Loop() {
				n = c.encode(b, make())
			}
			b.ReportMetric(float64(n), "wire-bytes")
		})
	}
}

func benchDecode(b *testing.B, s thrift.TStruct, read func(*codec, []byte)) {
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			c := newCodec(v)
			data := c.wire(b, s)
			b.ReportAllocs()
			for b.Loop() {
				read(c, data)
			}
			b.ReportMetric(float64(len(data)), "wire-bytes")
		})
	}
}

func BenchmarkEncodePerson(b *testing.B) {
	p := protocoltest.CodecPerson(b)
	benchEncode(b, func() thrift.TStruct { return ToWirePerson(&p) })
}

func BenchmarkDecodePerson(b *testing.B) {
	p := protocoltest.CodecPerson(b)
	benchDecode(b, ToWirePerson(&p), func(c *codec, data []byte) {
		var w thriftwire.Person // a fresh struct per call, as the generated client makes
		c.decode(b, data, &w)
		_ = FromWirePerson(&w)
	})
}

func BenchmarkEncodePersonList(b *testing.B) {
	ps := benchData.Persons()
	benchEncode(b, func() thrift.TStruct { return &thriftwire.WirebenchListPersonsResult{Success: ToWirePersons(ps)} })
}

func BenchmarkDecodePersonList(b *testing.B) {
	benchDecode(b, &thriftwire.WirebenchListPersonsResult{Success: ToWirePersons(benchData.Persons())}, func(c *codec, data []byte) {
		var w thriftwire.WirebenchListPersonsResult
		c.decode(b, data, &w)
		if _, err := FromWirePersons(w.Success); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkEncodeEcho1K(b *testing.B) {
	payload := contract.Payload(1 << 10)
	benchEncode(b, func() thrift.TStruct { return &thriftwire.WirebenchEchoArgs{Payload: payload} })
}

func BenchmarkDecodeEcho1K(b *testing.B) {
	benchDecode(b, &thriftwire.WirebenchEchoArgs{Payload: contract.Payload(1 << 10)}, func(c *codec, data []byte) {
		var w thriftwire.WirebenchEchoArgs
		c.decode(b, data, &w)
		_ = w.Payload
	})
}
