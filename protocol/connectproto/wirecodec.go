package connectproto

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/pb"
	"github.com/wirebench/wirebench/protocol/grpcproto"
)

// JSONWireCodec encodes connect-json's requests and decodes its answers as bare
// message bodies, for a client that frames the Connect protocol itself
// (stack/instrument): protojson with connect-go's settings (its JSON codec marshals
// with protojson's defaults and unmarshals discarding unknown fields) and grpcproto's
// conversions, as connect-go's client with WithProtoJSON does. connect-proto's bodies
// are grpcproto.WireCodec's. Its zero value is ready; it keeps the messages it
// reuses, so a JSONWireCodec is owned by one call at a time. The DecodeJSON
// functions decode into fresh messages and may be called concurrently.
type JSONWireCodec struct {
	id    pb.PersonId
	num   pb.Number
	count pb.TradesRequest
	echo  pb.EchoMessage
	stats pb.StatsReply
	trade pb.Trade
}

var (
	jsonMarshal   = protojson.MarshalOptions{}
	jsonUnmarshal = protojson.UnmarshalOptions{DiscardUnknown: true}
)

// AppendPersonID appends PersonId{id}.
func (w *JSONWireCodec) AppendPersonID(b []byte, id int64) ([]byte, error) {
	w.id.Id = id
	return jsonMarshal.MarshalAppend(b, &w.id)
}

// AppendNumber appends Number{n}.
func (w *JSONWireCodec) AppendNumber(b []byte, n int64) ([]byte, error) {
	w.num.Value = n
	return jsonMarshal.MarshalAppend(b, &w.num)
}

// AppendTradesRequest appends TradesRequest{count}.
func (w *JSONWireCodec) AppendTradesRequest(b []byte, count int64) ([]byte, error) {
	w.count.Count = count
	return jsonMarshal.MarshalAppend(b, &w.count)
}

// AppendPerson appends the Person p.
func (w *JSONWireCodec) AppendPerson(b []byte, p *contract.Person) ([]byte, error) {
	return jsonMarshal.MarshalAppend(b, grpcproto.ToPBPerson(p))
}

// AppendEcho appends EchoMessage{payload}; a payload that is not UTF-8 fails.
func (w *JSONWireCodec) AppendEcho(b []byte, payload string) ([]byte, error) {
	w.echo.Payload = payload
	out, err := jsonMarshal.MarshalAppend(b, &w.echo)
	w.echo.Payload = ""
	return out, err
}

// DecodeNumber decodes a Number.
func (w *JSONWireCodec) DecodeNumber(b []byte) (int64, error) {
	if err := unmarshalJSON(b, &w.num, "Number"); err != nil {
		return 0, err
	}
	return w.num.GetValue(), nil
}

// DecodeStats decodes a StatsReply.
func (w *JSONWireCodec) DecodeStats(b []byte) (contract.Stats, error) {
	if err := unmarshalJSON(b, &w.stats, "StatsReply"); err != nil {
		return contract.Stats{}, err
	}
	return contract.Stats{Calls: w.stats.GetCalls(), LastPayloadLen: w.stats.GetLastPayloadLen()}, nil
}

// DecodeTrade decodes a Trade into t.
func (w *JSONWireCodec) DecodeTrade(b []byte, t *contract.Trade) error {
	if err := unmarshalJSON(b, &w.trade, "Trade"); err != nil {
		return err
	}
	return grpcproto.FromPBTrade(&w.trade, t)
}

// DecodeJSONPerson decodes a Person.
func DecodeJSONPerson(b []byte) (contract.Person, error) {
	var m pb.Person
	if err := unmarshalJSON(b, &m, "Person"); err != nil {
		return contract.Person{}, err
	}
	return grpcproto.FromPBPerson(&m), nil
}

// DecodeJSONPersons decodes a PersonList.
func DecodeJSONPersons(b []byte) ([]contract.Person, error) {
	var m pb.PersonList
	if err := unmarshalJSON(b, &m, "PersonList"); err != nil {
		return nil, err
	}
	return grpcproto.FromPBPersons(&m), nil
}

// DecodeJSONLinks decodes a PersonLinkList.
func DecodeJSONLinks(b []byte) ([]contract.PersonLink, error) {
	var m pb.PersonLinkList
	if err := unmarshalJSON(b, &m, "PersonLinkList"); err != nil {
		return nil, err
	}
	return grpcproto.FromPBLinks(&m), nil
}

// DecodeJSONEcho decodes an EchoMessage.
func DecodeJSONEcho(b []byte) (string, error) {
	var m pb.EchoMessage
	if err := unmarshalJSON(b, &m, "EchoMessage"); err != nil {
		return "", err
	}
	return m.GetPayload(), nil
}

func unmarshalJSON(b []byte, m proto.Message, what string) error {
	if err := jsonUnmarshal.Unmarshal(b, m); err != nil {
		return fmt.Errorf("decode %s: %w", what, err)
	}
	return nil
}
