package thriftrpc

import (
	"fmt"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/thriftwire"
)

// ToWirePerson converts a person of the model to the generated struct.
func ToWirePerson(p *contract.Person) *thriftwire.Person {
	out := &thriftwire.Person{
		ID: p.ID,
		Name: &thriftwire.PersonName{
			Title: p.Name.Title,
			First: p.Name.First,
			Last:  p.Name.Last,
		},
		Gender: p.Gender,
		Location: &thriftwire.Location{
			Street:   p.Location.Street,
			City:     p.Location.City,
			State:    p.Location.State,
			PostCode: p.Location.PostCode,
		},
		Email: p.Email,
	}
	if p.Picture != nil {
		out.Picture = &thriftwire.Picture{
			Large:     p.Picture.Large,
			Medium:    p.Picture.Medium,
			Thumbnail: p.Picture.Thumbnail,
		}
	}
	return out
}

// FromWirePerson converts a received person to the model. A struct field the sender
// left out (name, location: default requiredness) reads as empty; picture stays
// absent when it was.
func FromWirePerson(w *thriftwire.Person) contract.Person {
	p := contract.Person{ID: w.ID, Gender: w.Gender, Email: w.Email}
	if n := w.Name; n != nil {
		p.Name = contract.PersonName{Title: n.Title, First: n.First, Last: n.Last}
	}
	if l := w.Location; l != nil {
		p.Location = contract.Location{Street: l.Street, City: l.City, State: l.State, PostCode: l.PostCode}
	}
	if pic := w.Picture; pic != nil {
		p.Picture = &contract.Picture{Large: pic.Large, Medium: pic.Medium, Thumbnail: pic.Thumbnail}
	}
	return p
}

func ToWirePersons(ps []contract.Person) []*thriftwire.Person {
	out := make([]*thriftwire.Person, len(ps))
	for i := range ps {
		out[i] = ToWirePerson(&ps[i])
	}
	return out
}

func FromWirePersons(ws []*thriftwire.Person) ([]contract.Person, error) {
	out := make([]contract.Person, len(ws))
	for i, w := range ws {
		if w == nil {
			return nil, fmt.Errorf("person %d of the list is null", i)
		}
		out[i] = FromWirePerson(w)
	}
	return out, nil
}

func ToWireLinks(links []contract.PersonLink) []*thriftwire.PersonLink {
	out := make([]*thriftwire.PersonLink, len(links))
	for i := range links {
		out[i] = &thriftwire.PersonLink{P1: ToWirePerson(&links[i].P1), P2: ToWirePerson(&links[i].P2)}
	}
	return out
}

func FromWireLinks(ws []*thriftwire.PersonLink) ([]contract.PersonLink, error) {
	out := make([]contract.PersonLink, len(ws))
	for i, w := range ws {
		if w == nil || w.P1 == nil || w.P2 == nil {
			return nil, fmt.Errorf("link %d lacks a person", i)
		}
		out[i] = contract.PersonLink{P1: FromWirePerson(w.P1), P2: FromWirePerson(w.P2)}
	}
	return out, nil
}

// ToWireTrade fills w from t.
func ToWireTrade(t *contract.Trade, w *thriftwire.Trade) {
	*w = thriftwire.Trade{
		ID:             t.ID,
		Symbol:         t.Symbol,
		Price:          t.Price,
		Quantity:       t.Quantity,
		TimestampNanos: t.TimestampNanos,
		Side:           thriftwire.Side(t.Side),
	}
}

// FromWireTrade fills t from w; a side that is neither BUY nor SELL is an error.
func FromWireTrade(w *thriftwire.Trade, t *contract.Trade) error {
	if w == nil {
		return fmt.Errorf("a trade is null")
	}
	if w.Side != thriftwire.Side_BUY && w.Side != thriftwire.Side_SELL {
		return fmt.Errorf("trade %d has side %d, neither BUY nor SELL", w.ID, w.Side)
	}
	*t = contract.Trade{
		ID:             w.ID,
		Symbol:         w.Symbol,
		Price:          w.Price,
		Quantity:       w.Quantity,
		TimestampNanos: w.TimestampNanos,
		Side:           contract.Side(w.Side),
	}
	return nil
}

// ToWireOriginalTrade fills w from t, field by field.
func ToWireOriginalTrade(t *contract.OriginalTrade, w *thriftwire.OriginalTrade) {
	w.ID, w.ExternalID, w.Info = t.ID, t.ExternalID, t.Info
	w.Str1, w.Str2, w.Str3, w.Str4, w.Str5 = t.Str1, t.Str2, t.Str3, t.Str4, t.Str5
	w.Str6, w.Str7, w.Str8, w.Str9, w.Str10 = t.Str6, t.Str7, t.Str8, t.Str9, t.Str10
	w.Long1, w.Long2, w.Long3, w.Long4, w.Long5 = t.Long1, t.Long2, t.Long3, t.Long4, t.Long5
	w.Long6, w.Long7, w.Long8, w.Long9, w.Long10 = t.Long6, t.Long7, t.Long8, t.Long9, t.Long10
}

// FromWireOriginalTrade decodes w into t; every value is valid.
func FromWireOriginalTrade(w *thriftwire.OriginalTrade, t *contract.OriginalTrade) error {
	t.ID, t.ExternalID, t.Info = w.ID, w.ExternalID, w.Info
	t.Str1, t.Str2, t.Str3, t.Str4, t.Str5 = w.Str1, w.Str2, w.Str3, w.Str4, w.Str5
	t.Str6, t.Str7, t.Str8, t.Str9, t.Str10 = w.Str6, w.Str7, w.Str8, w.Str9, w.Str10
	t.Long1, t.Long2, t.Long3, t.Long4, t.Long5 = w.Long1, w.Long2, w.Long3, w.Long4, w.Long5
	t.Long6, t.Long7, t.Long8, t.Long9, t.Long10 = w.Long6, w.Long7, w.Long8, w.Long9, w.Long10
	return nil
}
