package grpcavro

import (
	"fmt"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
)

// Conversions between the contract's model types and the Avro wire structs, as an
// application with its own domain model writes them. They are part of what a
// benchmark measures, so they stay plain: one pass, no reflection, strings shared.
// Picture is optional on both sides: a nil *contract.Picture is the union's null
// branch and back.

func ToWirePerson(p *contract.Person, w *avrowire.Person) {
	w.ID = p.ID
	w.Name = avrowire.PersonName{Title: p.Name.Title, First: p.Name.First, Last: p.Name.Last}
	w.Gender = p.Gender
	w.Location = avrowire.Location{
		Street:   p.Location.Street,
		City:     p.Location.City,
		State:    p.Location.State,
		PostCode: p.Location.PostCode,
	}
	w.Email = p.Email
	w.Picture = nil
	if p.Picture != nil {
		w.Picture = &avrowire.Picture{
			Large:     p.Picture.Large,
			Medium:    p.Picture.Medium,
			Thumbnail: p.Picture.Thumbnail,
		}
	}
}

func FromWirePerson(w *avrowire.Person, p *contract.Person) {
	p.ID = w.ID
	p.Name = contract.PersonName{Title: w.Name.Title, First: w.Name.First, Last: w.Name.Last}
	p.Gender = w.Gender
	p.Location = contract.Location{
		Street:   w.Location.Street,
		City:     w.Location.City,
		State:    w.Location.State,
		PostCode: w.Location.PostCode,
	}
	p.Email = w.Email
	p.Picture = nil
	if w.Picture != nil {
		p.Picture = &contract.Picture{
			Large:     w.Picture.Large,
			Medium:    w.Picture.Medium,
			Thumbnail: w.Picture.Thumbnail,
		}
	}
}

func ToWirePersons(ps []contract.Person) *avrowire.PersonList {
	out := &avrowire.PersonList{Persons: make([]avrowire.Person, len(ps))}
	for i := range ps {
		ToWirePerson(&ps[i], &out.Persons[i])
	}
	return out
}

func FromWirePersons(w *avrowire.PersonList) []contract.Person {
	ps := make([]contract.Person, len(w.Persons))
	for i := range w.Persons {
		FromWirePerson(&w.Persons[i], &ps[i])
	}
	return ps
}

func ToWireLinks(links []contract.PersonLink) *avrowire.PersonLinkList {
	out := &avrowire.PersonLinkList{Links: make([]avrowire.PersonLink, len(links))}
	for i := range links {
		ToWirePerson(&links[i].P1, &out.Links[i].P1)
		ToWirePerson(&links[i].P2, &out.Links[i].P2)
	}
	return out
}

func FromWireLinks(w *avrowire.PersonLinkList) []contract.PersonLink {
	links := make([]contract.PersonLink, len(w.Links))
	for i := range w.Links {
		FromWirePerson(&w.Links[i].P1, &links[i].P1)
		FromWirePerson(&w.Links[i].P2, &links[i].P2)
	}
	return links
}

func ToWireTrade(t *contract.Trade, w *avrowire.Trade) {
	w.ID = t.ID
	w.Symbol = t.Symbol
	w.Price = t.Price
	w.Quantity = t.Quantity
	w.TimestampNanos = t.TimestampNanos
	w.Side = avrowire.SideBuy
	if t.Side == contract.Sell {
		w.Side = avrowire.SideSell
	}
}

// FromWireTrade decodes w into t. The codec already refuses an enum index outside
// the schema's symbols; the check here keeps the mapping total.
func FromWireTrade(w *avrowire.Trade, t *contract.Trade) error {
	switch w.Side {
	case avrowire.SideBuy:
		t.Side = contract.Buy
	case avrowire.SideSell:
		t.Side = contract.Sell
	default:
		return fmt.Errorf("trade %d: unknown side %d", w.ID, w.Side)
	}
	t.ID = w.ID
	t.Symbol = w.Symbol
	t.Price = w.Price
	t.Quantity = w.Quantity
	t.TimestampNanos = w.TimestampNanos
	return nil
}

// ToWireOriginalTrade fills w from t, field by field.
func ToWireOriginalTrade(t *contract.OriginalTrade, w *avrowire.OriginalTrade) {
	*w = avrowire.OriginalTrade(*t)
}

// FromWireOriginalTrade decodes w into t; every value is valid.
func FromWireOriginalTrade(w *avrowire.OriginalTrade, t *contract.OriginalTrade) error {
	*t = contract.OriginalTrade(*w)
	return nil
}
