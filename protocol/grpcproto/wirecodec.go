package grpcproto

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/pb"
)

// WireCodec encodes this protocol's requests and decodes its answers as bare message
// bytes (no gRPC framing), for a client that frames gRPC itself (stack/instrument),
// with protobuf-go and this package's conversions, as the grpc-go client does. Its
// zero value is ready; it keeps the request and scalar answer messages it reuses, so a
// WireCodec is owned by one call at a time. The Decode functions of this package
// decode into fresh messages and may be called concurrently.
type WireCodec struct {
	id    pb.PersonId
	num   pb.Number
	count pb.TradesRequest
	echo  pb.EchoMessage
	stats pb.StatsReply
	trade pb.Trade
}

var marshal = proto.MarshalOptions{}

// AppendPersonID appends PersonId{id}.
func (w *WireCodec) AppendPersonID(b []byte, id int64) ([]byte, error) {
	w.id.Id = id
	return marshal.MarshalAppend(b, &w.id)
}

// AppendNumber appends Number{n}.
func (w *WireCodec) AppendNumber(b []byte, n int64) ([]byte, error) {
	w.num.Value = n
	return marshal.MarshalAppend(b, &w.num)
}

// AppendTradesRequest appends TradesRequest{count}.
func (w *WireCodec) AppendTradesRequest(b []byte, count int64) ([]byte, error) {
	w.count.Count = count
	return marshal.MarshalAppend(b, &w.count)
}

// AppendPerson appends the Person p.
func (w *WireCodec) AppendPerson(b []byte, p *contract.Person) ([]byte, error) {
	return marshal.MarshalAppend(b, ToPBPerson(p))
}

// AppendEcho appends EchoMessage{payload}; a payload that is not UTF-8 fails, as a
// proto3 string must be.
func (w *WireCodec) AppendEcho(b []byte, payload string) ([]byte, error) {
	w.echo.Payload = payload
	out, err := marshal.MarshalAppend(b, &w.echo)
	w.echo.Payload = ""
	return out, err
}

// DecodeNumber decodes a Number.
func (w *WireCodec) DecodeNumber(b []byte) (int64, error) {
	if err := proto.Unmarshal(b, &w.num); err != nil {
		return 0, fmt.Errorf("decode Number: %w", err)
	}
	return w.num.GetValue(), nil
}

// DecodeStats decodes a StatsReply.
func (w *WireCodec) DecodeStats(b []byte) (contract.Stats, error) {
	if err := proto.Unmarshal(b, &w.stats); err != nil {
		return contract.Stats{}, fmt.Errorf("decode StatsReply: %w", err)
	}
	return contract.Stats{Calls: w.stats.GetCalls(), LastPayloadLen: w.stats.GetLastPayloadLen()}, nil
}

// DecodeTrade decodes a Trade into t.
func (w *WireCodec) DecodeTrade(b []byte, t *contract.Trade) error {
	if err := proto.Unmarshal(b, &w.trade); err != nil {
		return fmt.Errorf("decode Trade: %w", err)
	}
	return FromPBTrade(&w.trade, t)
}

// DecodePerson decodes a Person.
func DecodePerson(b []byte) (contract.Person, error) {
	var m pb.Person
	if err := proto.Unmarshal(b, &m); err != nil {
		return contract.Person{}, fmt.Errorf("decode Person: %w", err)
	}
	return FromPBPerson(&m), nil
}

// DecodePersons decodes a PersonList.
func DecodePersons(b []byte) ([]contract.Person, error) {
	var m pb.PersonList
	if err := proto.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("decode PersonList: %w", err)
	}
	return FromPBPersons(&m), nil
}

// DecodeLinks decodes a PersonLinkList.
func DecodeLinks(b []byte) ([]contract.PersonLink, error) {
	var m pb.PersonLinkList
	if err := proto.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("decode PersonLinkList: %w", err)
	}
	return FromPBLinks(&m), nil
}

// DecodeEcho decodes an EchoMessage.
func DecodeEcho(b []byte) (string, error) {
	var m pb.EchoMessage
	if err := proto.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("decode EchoMessage: %w", err)
	}
	return m.GetPayload(), nil
}
