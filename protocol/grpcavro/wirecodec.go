package grpcavro

import (
	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
)

// WireCodec encodes this protocol's requests and decodes its answers as bare Avro
// records (no gRPC framing), for a client that frames gRPC itself
// (stack/instrument), with contract/avrowire and this package's conversions, as
// the grpc-go client's codec does. Its zero value is ready; it keeps the request and
// scalar answer records it reuses, so a WireCodec is owned by one call at a time. The
// Decode functions of this package decode into fresh records and may be called
// concurrently.
type WireCodec struct {
	id     avrowire.PersonID
	num    avrowire.Number
	count  avrowire.TradesRequest
	echo   avrowire.EchoMessage
	stats  avrowire.StatsReply
	trade  avrowire.Trade
	person avrowire.Person
}

// AppendPersonID appends PersonId{id}.
func (w *WireCodec) AppendPersonID(b []byte, id int64) ([]byte, error) {
	w.id.ID = id
	return avrowire.Append(b, &w.id)
}

// AppendNumber appends Number{n}.
func (w *WireCodec) AppendNumber(b []byte, n int64) ([]byte, error) {
	w.num.Value = n
	return avrowire.Append(b, &w.num)
}

// AppendTradesRequest appends TradesRequest{count}.
func (w *WireCodec) AppendTradesRequest(b []byte, count int64) ([]byte, error) {
	w.count.Count = count
	return avrowire.Append(b, &w.count)
}

// AppendPerson appends the Person p.
func (w *WireCodec) AppendPerson(b []byte, p *contract.Person) ([]byte, error) {
	ToWirePerson(p, &w.person)
	return avrowire.Append(b, &w.person)
}

// AppendEcho appends EchoMessage{payload}.
func (w *WireCodec) AppendEcho(b []byte, payload string) ([]byte, error) {
	w.echo.Payload = payload
	out, err := avrowire.Append(b, &w.echo)
	w.echo.Payload = ""
	return out, err
}

// DecodeNumber decodes a Number.
func (w *WireCodec) DecodeNumber(b []byte) (int64, error) {
	err := avrowire.Unmarshal(b, &w.num)
	return w.num.Value, err
}

// DecodeStats decodes a StatsReply.
func (w *WireCodec) DecodeStats(b []byte) (contract.Stats, error) {
	if err := avrowire.Unmarshal(b, &w.stats); err != nil {
		return contract.Stats{}, err
	}
	return contract.Stats{Calls: w.stats.Calls, LastPayloadLen: w.stats.LastPayloadLen}, nil
}

// DecodeTrade decodes a Trade into t.
func (w *WireCodec) DecodeTrade(b []byte, t *contract.Trade) error {
	if err := avrowire.Unmarshal(b, &w.trade); err != nil {
		return err
	}
	return FromWireTrade(&w.trade, t)
}

// DecodePerson decodes a Person.
func DecodePerson(b []byte) (contract.Person, error) {
	var w avrowire.Person
	var p contract.Person
	if err := avrowire.Unmarshal(b, &w); err != nil {
		return p, err
	}
	FromWirePerson(&w, &p)
	return p, nil
}

// DecodePersons decodes a PersonList.
func DecodePersons(b []byte) ([]contract.Person, error) {
	var w avrowire.PersonList
	if err := avrowire.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	return FromWirePersons(&w), nil
}

// DecodeLinks decodes a PersonLinkList.
func DecodeLinks(b []byte) ([]contract.PersonLink, error) {
	var w avrowire.PersonLinkList
	if err := avrowire.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	return FromWireLinks(&w), nil
}

// DecodeEcho decodes an EchoMessage.
func DecodeEcho(b []byte) (string, error) {
	var w avrowire.EchoMessage
	err := avrowire.Unmarshal(b, &w)
	return w.Payload, err
}
