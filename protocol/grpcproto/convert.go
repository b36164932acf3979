package grpcproto

import (
	"fmt"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/pb"
)

// Conversions between the contract's model types and the generated protobuf types, as
// an application with its own domain model writes them. They are part of what a
// benchmark measures, so they stay plain: one pass, no reflection, strings shared (Go
// strings are immutable, so the wire types may point at the model's).
//
// Picture is optional on both sides: a nil *contract.Picture is an absent message
// field and back. Nested messages that are absent on the wire (a peer may leave any
// message field out) read as their zero value, as proto3 defines.

// ToPBPerson converts a person to its protobuf message (connectproto uses these too).
func ToPBPerson(p *contract.Person) *pb.Person {
	out := &pb.Person{
		Id: p.ID,
		Name: &pb.PersonName{
			Title: p.Name.Title,
			First: p.Name.First,
			Last:  p.Name.Last,
		},
		Gender: p.Gender,
		Location: &pb.Location{
			Street:   p.Location.Street,
			City:     p.Location.City,
			State:    p.Location.State,
			PostCode: p.Location.PostCode,
		},
		Email: p.Email,
	}
	if p.Picture != nil {
		out.Picture = &pb.Picture{
			Large:     p.Picture.Large,
			Medium:    p.Picture.Medium,
			Thumbnail: p.Picture.Thumbnail,
		}
	}
	return out
}

// FromPBPerson converts a protobuf person to the model.
func FromPBPerson(w *pb.Person) contract.Person {
	p := contract.Person{
		ID: w.GetId(),
		Name: contract.PersonName{
			Title: w.GetName().GetTitle(),
			First: w.GetName().GetFirst(),
			Last:  w.GetName().GetLast(),
		},
		Gender: w.GetGender(),
		Location: contract.Location{
			Street:   w.GetLocation().GetStreet(),
			City:     w.GetLocation().GetCity(),
			State:    w.GetLocation().GetState(),
			PostCode: w.GetLocation().GetPostCode(),
		},
		Email: w.GetEmail(),
	}
	if pic := w.GetPicture(); pic != nil {
		p.Picture = &contract.Picture{
			Large:     pic.GetLarge(),
			Medium:    pic.GetMedium(),
			Thumbnail: pic.GetThumbnail(),
		}
	}
	return p
}

// ToPBPersons converts a list of persons to its protobuf message.
func ToPBPersons(ps []contract.Person) *pb.PersonList {
	out := &pb.PersonList{Persons: make([]*pb.Person, len(ps))}
	for i := range ps {
		out.Persons[i] = ToPBPerson(&ps[i])
	}
	return out
}

// FromPBPersons converts a protobuf person list to the model.
func FromPBPersons(w *pb.PersonList) []contract.Person {
	ps := make([]contract.Person, len(w.GetPersons()))
	for i, p := range w.GetPersons() {
		ps[i] = FromPBPerson(p)
	}
	return ps
}

// ToPBLinks converts person links to their protobuf message.
func ToPBLinks(links []contract.PersonLink) *pb.PersonLinkList {
	out := &pb.PersonLinkList{Links: make([]*pb.PersonLink, len(links))}
	for i := range links {
		out.Links[i] = &pb.PersonLink{P1: ToPBPerson(&links[i].P1), P2: ToPBPerson(&links[i].P2)}
	}
	return out
}

// FromPBLinks converts a protobuf link list to the model.
func FromPBLinks(w *pb.PersonLinkList) []contract.PersonLink {
	links := make([]contract.PersonLink, len(w.GetLinks()))
	for i, l := range w.GetLinks() {
		links[i] = contract.PersonLink{P1: FromPBPerson(l.GetP1()), P2: FromPBPerson(l.GetP2())}
	}
	return links
}

// ToPBTrade fills w from t. grpc-proto's server gives it a fresh message per Send
// (grpc-go may hold on to a sent message); connect-go marshals in Send, so the
// Connect server reuses one.
func ToPBTrade(t *contract.Trade, w *pb.Trade) {
	w.Id = t.ID
	w.Symbol = t.Symbol
	w.Price = t.Price
	w.Quantity = t.Quantity
	w.TimestampNanos = t.TimestampNanos
	w.Side = pb.Side_BUY
	if t.Side == contract.Sell {
		w.Side = pb.Side_SELL
	}
}

// FromPBTrade decodes w into t, refusing a side the contract does not know (proto3
// enums are open: any number may arrive).
func FromPBTrade(w *pb.Trade, t *contract.Trade) error {
	switch w.GetSide() {
	case pb.Side_BUY:
		t.Side = contract.Buy
	case pb.Side_SELL:
		t.Side = contract.Sell
	default:
		return fmt.Errorf("trade %d: unknown side %d", w.GetId(), w.GetSide())
	}
	t.ID = w.GetId()
	t.Symbol = w.GetSymbol()
	t.Price = w.GetPrice()
	t.Quantity = w.GetQuantity()
	t.TimestampNanos = w.GetTimestampNanos()
	return nil
}

// ToPBOriginalTrade fills w from t, field by field (the original's ProtoTrade).
func ToPBOriginalTrade(t *contract.OriginalTrade, w *pb.OriginalTrade) {
	w.Id, w.ExternalId, w.Info = t.ID, t.ExternalID, t.Info
	w.Str1, w.Str2, w.Str3, w.Str4, w.Str5 = t.Str1, t.Str2, t.Str3, t.Str4, t.Str5
	w.Str6, w.Str7, w.Str8, w.Str9, w.Str10 = t.Str6, t.Str7, t.Str8, t.Str9, t.Str10
	w.Long1, w.Long2, w.Long3, w.Long4, w.Long5 = t.Long1, t.Long2, t.Long3, t.Long4, t.Long5
	w.Long6, w.Long7, w.Long8, w.Long9, w.Long10 = t.Long6, t.Long7, t.Long8, t.Long9, t.Long10
}

// FromPBOriginalTrade decodes w into t; every value is valid.
func FromPBOriginalTrade(w *pb.OriginalTrade, t *contract.OriginalTrade) error {
	t.ID, t.ExternalID, t.Info = w.GetId(), w.GetExternalId(), w.GetInfo()
	t.Str1, t.Str2, t.Str3, t.Str4, t.Str5 = w.GetStr1(), w.GetStr2(), w.GetStr3(), w.GetStr4(), w.GetStr5()
	t.Str6, t.Str7, t.Str8, t.Str9, t.Str10 = w.GetStr6(), w.GetStr7(), w.GetStr8(), w.GetStr9(), w.GetStr10()
	t.Long1, t.Long2, t.Long3, t.Long4, t.Long5 = w.GetLong1(), w.GetLong2(), w.GetLong3(), w.GetLong4(), w.GetLong5()
	t.Long6, t.Long7, t.Long8, t.Long9, t.Long10 = w.GetLong6(), w.GetLong7(), w.GetLong8(), w.GetLong9(), w.GetLong10()
	return nil
}
