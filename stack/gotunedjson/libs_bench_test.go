package gotunedjson

// The hand-written codec against the JSON libraries that do its job, on the contract's
// real messages (the values of codec_bench_test.go): encoding/json (the production
// stack's), goccy/go-json, bytedance/sonic, and easyjson's generated code
// (protocol/httpjson/stdjson_easyjson.go). The libraries work on the mapping's body
// types (protocol/httpjson/stdjson.go), the tuned codec on the contract's model types,
// as each stack does.
//
// Each library is called as its users call it for a body held in memory: Marshal,
// which returns a new slice, and Unmarshal into a new value (one allocation the tuned
// decoder, writing into the caller's value, does not make). The tuned encoder writes
// into a pooled buffer, as its server does. Decoders copy every string out of the
// input, which a client that reuses its read buffer needs: sonic is configured so
// (CopyString), the others do it by default.
//
// Run alone, on a quiet machine, and compare with benchstat by codec:
//
//	go test -run '^$' -bench '^BenchmarkCodecs$' -benchmem -count 10 ./stack/gotunedjson/ > codecs.txt
//	benchstat -col /codec codecs.txt

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/bytedance/sonic"
	gojson "github.com/goccy/go-json"
	"github.com/mailru/easyjson"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// jsonLib is a JSON library as its users call it: v is a pointer to a body.
type jsonLib struct {
	name      string
	marshal   func(v any) ([]byte, error)
	unmarshal func(data []byte, v any) error
}

// sonicAPI is sonic with its defaults (no HTML escaping, keys unsorted, as the tuned
// codec writes) but for CopyString: without it decoded strings point into the input.
var sonicAPI = sonic.Config{CopyString: true}.Froze()

var jsonLibs = []jsonLib{
	{"encoding-json", json.Marshal, json.Unmarshal},
	{"goccy-go-json", gojson.Marshal, gojson.Unmarshal},
	{"sonic", sonicAPI.Marshal, sonicAPI.Unmarshal},
	{"easyjson",
		func(v any) ([]byte, error) { return easyjson.Marshal(v.(easyjson.Marshaler)) },
		func(data []byte, v any) error { return easyjson.Unmarshal(data, v.(easyjson.Unmarshaler)) }},
}

// codecMessage is one body of the mapping, as each codec sees it.
type codecMessage struct {
	name string
	// body points to the value the libraries encode; want points to what they must
	// decode from any encoding of it, and target returns a new value to decode into.
	body, want any
	target     func() any
	// encode and decode are the tuned codec's; verify decodes with it too and says
	// whether it read the body's value.
	encode func(e *encoder) error
	decode func(data []byte) error
	verify func(data []byte) error
}

func codecMessages(tb testing.TB) []codecMessage {
	p := benchPerson(tb)
	ps := benchData.Persons()
	payload := contract.Payload(1 << 10)
	pb := httpjson.PersonBody(p)
	return []codecMessage{
		{
			name: "Person", body: &pb, want: &pb,
			target: func() any { return new(httpjson.PersonBody) },
			encode: func(e *encoder) error { return encodePerson(e, &p) },
			decode: func(data []byte) error {
				var got contract.Person
				return decodePerson(data, &got)
			},
			verify: func(data []byte) error {
				var got contract.Person
				if err := decodePerson(data, &got); err != nil {
					return err
				}
				if !got.Equal(p) {
					return errNotSame
				}
				return nil
			},
		},
		{
			name: "PersonList", body: &httpjson.PersonList{Persons: ps}, want: &httpjson.PersonList{Persons: ps},
			target: func() any { return new(httpjson.PersonList) },
			encode: func(e *encoder) error { return encodePersonList(e, ps) },
			decode: func(data []byte) error {
				_, err := decodePersonList(data)
				return err
			},
			verify: func(data []byte) error {
				got, err := decodePersonList(data)
				if err != nil {
					return err
				}
				if len(got) != len(ps) {
					return errNotSame
				}
				for i := range got {
					if !got[i].Equal(ps[i]) {
						return errNotSame
					}
				}
				return nil
			},
		},
		{
			name: "Echo1K", body: &httpjson.EchoBody{Payload: payload}, want: &httpjson.EchoRead{Payload: &payload},
			target: func() any { return new(httpjson.EchoRead) },
			encode: func(e *encoder) error { return encodeEcho(e, payload) },
			decode: func(data []byte) error {
				_, err := decodeEcho(data)
				return err
			},
			verify: func(data []byte) error {
				got, err := decodeEcho(data)
				if err != nil {
					return err
				}
				if got != payload {
					return errNotSame
				}
				return nil
			},
		},
	}
}

var errNotSame = errors.New("decoded a value other than the one encoded")

// TestLibrariesAgree checks that the benchmarks compare codecs doing the same work:
// what each library writes, the tuned decoder reads back as the original value, and
// what the tuned encoder writes, each library reads back as the original value.
func TestLibrariesAgree(t *testing.T) {
	for _, m := range codecMessages(t) {
		tuned := encoded(t, m.encode)
		for _, lib := range jsonLibs {
			wire, err := lib.marshal(m.body)
			if err != nil {
				t.Fatalf("%s: %s encoding: %v", m.name, lib.name, err)
			}
			if err := m.verify(wire); err != nil {
				t.Errorf("%s: the tuned decoder on %s's encoding: %v", m.name, lib.name, err)
			}
			got := m.target()
			if err := lib.unmarshal(tuned, got); err != nil {
				t.Fatalf("%s: %s decoding the tuned encoding: %v", m.name, lib.name, err)
			}
			if !reflect.DeepEqual(got, m.want) {
				t.Errorf("%s: %s decoded the tuned encoding into a value other than the one encoded", m.name, lib.name)
			}
		}
	}
}

// BenchmarkCodecs runs every codec over every message, both ways, named
// codec=…/msg=…/op=… for benchstat's -col /codec.
func BenchmarkCodecs(b *testing.B) {
	for _, m := range codecMessages(b) {
		b.Run("codec=tuned/msg="+m.name+"/op=encode", func(b *testing.B) {
			var wireLen int
			b.ReportAllocs()
			for b.Loop() {
				e := getEncoder()
				if err := m.encode(e); err != nil {
					b.Fatal(err)
				}
				wireLen = len(e.Bytes())
				putEncoder(e)
			}
			b.ReportMetric(float64(wireLen), "wire-bytes")
		})
		wire := encoded(b, m.encode)
		b.Run("codec=tuned/msg="+m.name+"/op=decode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := m.verify(wire); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(wire)), "wire-bytes")
		})
		for _, lib := range jsonLibs {
			b.Run("codec="+lib.name+"/msg="+m.name+"/op=encode", func(b *testing.B) {
				// A first call outside the timed loop (b.Loop starts the timer), where
				// sonic compiles its encoder and the others fill their caches.
				if _, err := lib.marshal(m.body); err != nil {
					b.Fatal(err)
				}
				var wireLen int
				b.ReportAllocs()
				for b.Loop() {
					out, err := lib.marshal(m.body)
					if err != nil {
						b.Fatal(err)
					}
					wireLen = len(out)
				}
				b.ReportMetric(float64(wireLen), "wire-bytes")
			})
			b.Run("codec="+lib.name+"/msg="+m.name+"/op=decode", func(b *testing.B) {
				if err := lib.unmarshal(wire, m.target()); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := lib.unmarshal(wire, m.target()); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(wire)), "wire-bytes")
			})
		}
	}
}
