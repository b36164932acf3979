package protocol_test

// The bytes of one stream of 10,000 trades in each wire format, compact and the
// original's shape: encoding only, no transport (docs/codecs.md, "A stream of 10,000
// trades"). Each format is encoded as its Go server writes it: http-json's NDJSON body
// (encoding/json lines and the end line, without HTTP/1.1's chunk framing of 10 to 12
// bytes per 256-trade chunk); grpc-proto's and grpc-avro's messages, each with its
// 5-byte gRPC frame header (without HTTP/2's 9-byte DATA frame headers); capnp's pushes
// of capnpgo.StreamBatch trades, each a framed message of the push's parameters
// (without the RPC call's envelope); thrift's pages of thriftgo.DefaultPageSize trades,
// each page struct as the binary or compact protocol writes it (without the message
// header and the frame length).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"capnproto.org/go/capnp/v3"
	"github.com/apache/thrift/lib/go/thrift"
	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
	"github.com/wirebench/wirebench/contract/capnpwire"
	"github.com/wirebench/wirebench/contract/pb"
	"github.com/wirebench/wirebench/contract/thriftwire"
	"github.com/wirebench/wirebench/protocol/capnprpc"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
	"github.com/wirebench/wirebench/stack/capnpgo"
	"github.com/wirebench/wirebench/stack/thriftgo"
)

// streamTrades is the stream length of the REST vs gRPC original.
const streamTrades = 10_000

// grpcFrame is the gRPC length-prefixed message header: a flag byte and 4 length bytes.
const grpcFrame = 5

type streamCodec struct {
	format string
	shape  string
	bytes  func(count int64) (int, error)
}

func streamCodecs() []streamCodec {
	codecs := []streamCodec{
		{"http-json", contract.TradeCompact, func(n int64) (int, error) {
			return ndjson(n, func(i int64) any { t := contract.TradeAt(i); return httpjson.ToWireTrade(&t) })
		}},
		{"http-json", contract.TradeOriginal, func(n int64) (int, error) {
			return ndjson(n, func(i int64) any { t := contract.OriginalTradeAt(i); return &t })
		}},
		{"grpc-proto", contract.TradeCompact, func(n int64) (int, error) {
			return framed(n, func(i int64) ([]byte, error) {
				t, w := contract.TradeAt(i), new(pb.Trade)
				grpcproto.ToPBTrade(&t, w)
				return proto.Marshal(w)
			})
		}},
		{"grpc-proto", contract.TradeOriginal, func(n int64) (int, error) {
			return framed(n, func(i int64) ([]byte, error) {
				t, w := contract.OriginalTradeAt(i), new(pb.OriginalTrade)
				grpcproto.ToPBOriginalTrade(&t, w)
				return proto.Marshal(w)
			})
		}},
		{"grpc-avro", contract.TradeCompact, func(n int64) (int, error) {
			return framed(n, func(i int64) ([]byte, error) {
				t, w := contract.TradeAt(i), new(avrowire.Trade)
				grpcavro.ToWireTrade(&t, w)
				return avrowire.Append(nil, w)
			})
		}},
		{"grpc-avro", contract.TradeOriginal, func(n int64) (int, error) {
			return framed(n, func(i int64) ([]byte, error) {
				t, w := contract.OriginalTradeAt(i), new(avrowire.OriginalTrade)
				grpcavro.ToWireOriginalTrade(&t, w)
				return avrowire.Append(nil, w)
			})
		}},
		{"capnp", contract.TradeCompact, func(n int64) (int, error) {
			return pushes(n, func(seg *capnp.Segment, from, to int64) error {
				p, err := capnpwire.NewRootTradeSink_push_Params(seg)
				if err != nil {
					return err
				}
				l, err := p.NewTrades(int32(to - from))
				if err != nil {
					return err
				}
				for i := from; i < to; i++ {
					t := contract.TradeAt(i)
					if err := capnprpc.WriteTrade(l.At(int(i-from)), &t); err != nil {
						return err
					}
				}
				return nil
			})
		}},
		{"capnp", contract.TradeOriginal, func(n int64) (int, error) {
			return pushes(n, func(seg *capnp.Segment, from, to int64) error {
				p, err := capnpwire.NewRootOriginalTradeSink_push_Params(seg)
				if err != nil {
					return err
				}
				l, err := p.NewTrades(int32(to - from))
				if err != nil {
					return err
				}
				for i := from; i < to; i++ {
					t := contract.OriginalTradeAt(i)
					if err := capnprpc.WriteOriginalTrade(l.At(int(i-from)), &t); err != nil {
						return err
					}
				}
				return nil
			})
		}},
	}
	for _, enc := range []struct {
		name    string
		factory thrift.TProtocolFactory
	}{
		{"thrift-binary", thrift.NewTBinaryProtocolFactoryConf(&thrift.TConfiguration{})},
		{"thrift-compact", thrift.NewTCompactProtocolFactoryConf(&thrift.TConfiguration{})},
	} {
		codecs = append(codecs, streamCodec{enc.name, contract.TradeCompact, func(n int64) (int, error) {
			return pages(enc.factory, n, func(from, to int64) thrift.TStruct {
				p := &thriftwire.TradePage{Last: to == n}
				for i := from; i < to; i++ {
					t, w := contract.TradeAt(i), new(thriftwire.Trade)
					thriftrpc.ToWireTrade(&t, w)
					p.Trades = append(p.Trades, w)
				}
				return p
			})
		}}, streamCodec{enc.name, contract.TradeOriginal, func(n int64) (int, error) {
			return pages(enc.factory, n, func(from, to int64) thrift.TStruct {
				p := &thriftwire.OriginalTradePage{Last: to == n}
				for i := from; i < to; i++ {
					t, w := contract.OriginalTradeAt(i), new(thriftwire.OriginalTrade)
					thriftrpc.ToWireOriginalTrade(&t, w)
					p.Trades = append(p.Trades, w)
				}
				return p
			})
		}})
	}
	return codecs
}

// pages is the length of the pages of n trades of thriftgo.DefaultPageSize, each
// written by a protocol of factory.
func pages(factory thrift.TProtocolFactory, n int64, page func(from, to int64) thrift.TStruct) (int, error) {
	total := 0
	for from := int64(0); from < n; from += thriftgo.DefaultPageSize {
		buf := thrift.NewTMemoryBuffer()
		prot := factory.GetProtocol(buf)
		if err := page(from, min(from+thriftgo.DefaultPageSize, n)).Write(context.Background(), prot); err != nil {
			return 0, err
		}
		if err := prot.Flush(context.Background()); err != nil {
			return 0, err
		}
		total += buf.Len()
	}
	return total, nil
}

// ndjson is the length of the NDJSON body of n trades as encoding/json writes it.
func ndjson(n int64, line func(int64) any) (int, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range n {
		if err := enc.Encode(line(i)); err != nil {
			return 0, err
		}
	}
	err := enc.Encode(httpjson.EndLine{End: httpjson.StreamEnd{Count: n}})
	return buf.Len(), err
}

// framed is the length of n gRPC messages, each with its frame header.
func framed(n int64, msg func(int64) ([]byte, error)) (int, error) {
	total := 0
	for i := range n {
		b, err := msg(i)
		if err != nil {
			return 0, err
		}
		total += grpcFrame + len(b)
	}
	return total, nil
}

// pushes is the length of the framed messages of n trades in batches of StreamBatch.
func pushes(n int64, build func(seg *capnp.Segment, from, to int64) error) (int, error) {
	total := 0
	for from := int64(0); from < n; from += capnpgo.StreamBatch {
		msg, seg := capnp.NewMultiSegmentMessage(nil)
		err := build(seg, from, min(from+capnpgo.StreamBatch, n))
		var b []byte
		if err == nil {
			b, err = msg.Marshal()
		}
		msg.Release()
		if err != nil {
			return 0, err
		}
		total += len(b)
	}
	return total, nil
}

// TestStreamBytes: every format's stream of the original's trades is several times
// its compact one (13 strings of 10 characters and 10 longs against one short string
// and five numbers), and the original's JSON line carries its 23 names.
func TestStreamBytes(t *testing.T) {
	got := map[string]int{}
	for _, c := range streamCodecs() {
		n, err := c.bytes(streamTrades)
		if err != nil {
			t.Fatalf("%s, %s: %v", c.format, c.shape, err)
		}
		got[c.format+"/"+c.shape] = n
		t.Logf("%s, %s trade: %d bytes per stream of %d trades", c.format, c.shape, n, streamTrades)
	}
	for _, f := range []string{"http-json", "grpc-proto", "grpc-avro", "capnp", "thrift-binary", "thrift-compact"} {
		compact, original := got[f+"/"+contract.TradeCompact], got[f+"/"+contract.TradeOriginal]
		// Each original trade holds at least 12 × 10 string bytes and 10 longs.
		if original < streamTrades*(12*10+10) || original < 3*compact {
			t.Errorf("%s: %d bytes for the original's stream, %d for the compact one; want over %d and 3 × compact",
				f, original, compact, streamTrades*(12*10+10))
		}
	}
	line, err := json.Marshal(contract.OriginalTradeAt(0))
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(line, &fields); err != nil || len(fields) != 23 || fields["externalId"] == nil || fields["long10"] == nil {
		t.Errorf("the original's JSON line %s: %d fields, %v; want its 23 names", line, len(fields), err)
	}
}

// BenchmarkStreamBytes reports the bytes of one stream of 10,000 trades per format and
// shape (wire-B/op), and what encoding it costs.
func BenchmarkStreamBytes(b *testing.B) {
	for _, c := range streamCodecs() {
		b.Run(fmt.Sprintf("format=%s/trade=%s", c.format, c.shape), func(b *testing.B) {
			var n int
			for b.Loop() {
				var err error
				if n, err = c.bytes(streamTrades); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "wire-B/op")
		})
	}
}
