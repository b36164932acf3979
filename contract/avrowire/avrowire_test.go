package avrowire

import (
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/contract/schema"
)

// TestEveryFileParsed: each .avsc file is in the parse list, and each record has its
// struct.
func TestEveryFileParsed(t *testing.T) {
	entries, err := fs.Glob(schema.Avro, "avro/*.avsc")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) || len(Types()) != len(files) {
		t.Errorf("%d .avsc files, %d in the parse list", len(entries), len(files))
	}
	for _, e := range entries {
		name := strings.TrimSuffix(strings.TrimPrefix(e, "avro/"), ".avsc")
		if types[name] == nil {
			t.Errorf("%s is not parsed", e)
		}
	}
	seen := map[*Type]bool{}
	for _, m := range allMessages() {
		seen[m.AvroType()] = true
	}
	if len(seen) != len(files) {
		t.Errorf("%d records have a struct, want %d", len(seen), len(files))
	}
}

// allMessages returns a value of every wire struct with every field set.
func allMessages() []Message {
	p := Person{
		ID: 7, Name: PersonName{"mr", "A", "B"}, Gender: "male",
		Location: Location{"1 Street", "City", "State", "123"}, Email: "a@b",
		Picture: &Picture{"l", "m", "t"},
	}
	q := p
	q.Picture = nil
	return []Message{
		&p.Name, &p.Location, p.Picture, &p, &q,
		&PersonLink{P1: p, P2: q},
		&PersonList{Persons: []Person{p, q}},
		&PersonLinkList{Links: []PersonLink{{P1: p, P2: q}}},
		&ListPersonsRequest{}, &PersonID{ID: -3}, &EchoMessage{Payload: "héllo"},
		&StatsRequest{}, &StatsReply{Calls: 2, LastPayloadLen: 11}, &Number{Value: 1 << 62},
		&Trade{ID: 1, Symbol: "ACME", Price: 1.5, Quantity: 3, TimestampNanos: 99, Side: SideSell},
		&TradesRequest{Count: 10},
		&OriginalTrade{ID: "0", ExternalID: "DqGTbqvGrM", Info: "NXhhF6rq2c", Str1: "a", Str2: "b", Str3: "c",
			Str4: "d", Str5: "e", Str6: "f", Str7: "g", Str8: "h", Str9: "i", Str10: "_",
			Long1: 1, Long2: -2, Long3: 3, Long4: 4, Long5: 5, Long6: 6, Long7: 7, Long8: 8, Long9: 9, Long10: 1 << 62},
	}
}

// TestRoundTrip: every struct matches its record field for field.
func TestRoundTrip(t *testing.T) {
	for _, m := range allMessages() {
		b, err := Append(nil, m)
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		back := reflect.New(reflect.TypeOf(m).Elem()).Interface().(Message)
		if err := Unmarshal(b, back); err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		if !reflect.DeepEqual(back, m) {
			t.Errorf("%T: got %+v, want %+v", m, back, m)
		}
	}
}

func TestUnmarshalRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		m    Message
	}{
		{"trailing byte", []byte{0x02, 0x00}, &Number{}},
		{"huge string length", []byte{0xfe, 0xff, 0xff, 0xff, 0x0f}, &EchoMessage{}},
		{"huge array count", []byte{0xfe, 0xff, 0xff, 0xff, 0x0f, 0x00}, &PersonList{}},
		{"truncated", []byte{0x0a, 'a', 'b'}, &EchoMessage{}},
		{"unknown side", []byte{0x02, 0x02, 'X', 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x04}, &Trade{}},
		{"bad union branch", badPictureBranch(t), &Person{}},
		{"unterminated varint", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, &Number{}},
	} {
		if err := Unmarshal(tc.in, tc.m); err == nil {
			t.Errorf("%s: decoded %+v", tc.name, tc.m)
		} else if tc.name == "trailing byte" && !errors.Is(err, ErrTrailingBytes) {
			t.Errorf("%s: %v, want ErrTrailingBytes", tc.name, err)
		}
	}
}

// badPictureBranch returns a person whose picture union names branch 2, which the
// union ["null", Picture] does not have.
func badPictureBranch(t *testing.T) []byte {
	b, err := Append(nil, &Person{})
	if err != nil {
		t.Fatal(err)
	}
	// An empty person ends with its picture's branch index: 0 (null).
	b[len(b)-1] = 0x04 // zig-zag 2
	return b
}
