package capnprpc

import (
	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/capnpwire"
)

// Conversions between the contract's model types and the Cap'n Proto wire types. They
// are part of what a benchmark measures, so they stay lean: no reflection, one pass,
// texts set straight from the model's strings and read back with one copy each.
//
// Writers return the first error of the message builder (in practice only an
// allocation failure); readers return the first error of the message reader (a
// malformed message or the traversal limit).

func WritePerson(w capnpwire.Person, p *contract.Person) error {
	w.SetId(p.ID)
	n, err := w.NewName()
	if err != nil {
		return err
	}
	if err := n.SetTitle(p.Name.Title); err != nil {
		return err
	}
	if err := n.SetFirst(p.Name.First); err != nil {
		return err
	}
	if err := n.SetLast(p.Name.Last); err != nil {
		return err
	}
	if err := w.SetGender(p.Gender); err != nil {
		return err
	}
	l, err := w.NewLocation()
	if err != nil {
		return err
	}
	if err := l.SetStreet(p.Location.Street); err != nil {
		return err
	}
	if err := l.SetCity(p.Location.City); err != nil {
		return err
	}
	if err := l.SetState(p.Location.State); err != nil {
		return err
	}
	if err := l.SetPostCode(p.Location.PostCode); err != nil {
		return err
	}
	if err := w.SetEmail(p.Email); err != nil {
		return err
	}
	if p.Picture == nil {
		return nil // absent: the pointer stays null
	}
	pic, err := w.NewPicture()
	if err != nil {
		return err
	}
	if err := pic.SetLarge(p.Picture.Large); err != nil {
		return err
	}
	if err := pic.SetMedium(p.Picture.Medium); err != nil {
		return err
	}
	return pic.SetThumbnail(p.Picture.Thumbnail)
}

// reader collects the first error of a sequence of getters, so that reading a struct
// is a flat list of assignments.
type reader struct{ err error }

func (r *reader) text(s string, err error) string {
	if err != nil && r.err == nil {
		r.err = err
	}
	return s
}

func ReadPerson(w capnpwire.Person, p *contract.Person) error {
	var r reader
	p.ID = w.Id()
	n, err := w.Name()
	if err != nil {
		return err
	}
	p.Name = contract.PersonName{
		Title: r.text(n.Title()),
		First: r.text(n.First()),
		Last:  r.text(n.Last()),
	}
	p.Gender = r.text(w.Gender())
	l, err := w.Location()
	if err != nil {
		return err
	}
	p.Location = contract.Location{
		Street:   r.text(l.Street()),
		City:     r.text(l.City()),
		State:    r.text(l.State()),
		PostCode: r.text(l.PostCode()),
	}
	p.Email = r.text(w.Email())
	p.Picture = nil
	if w.HasPicture() {
		pic, err := w.Picture()
		if err != nil {
			return err
		}
		p.Picture = &contract.Picture{
			Large:     r.text(pic.Large()),
			Medium:    r.text(pic.Medium()),
			Thumbnail: r.text(pic.Thumbnail()),
		}
	}
	return r.err
}

func WritePersons(l capnpwire.Person_List, ps []contract.Person) error {
	for i := range ps {
		if err := WritePerson(l.At(i), &ps[i]); err != nil {
			return err
		}
	}
	return nil
}

func ReadPersons(l capnpwire.Person_List) ([]contract.Person, error) {
	ps := make([]contract.Person, l.Len())
	for i := range ps {
		if err := ReadPerson(l.At(i), &ps[i]); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

func WriteLinks(l capnpwire.PersonLink_List, links []contract.PersonLink) error {
	for i := range links {
		w := l.At(i)
		p1, err := w.NewP1()
		if err != nil {
			return err
		}
		if err := WritePerson(p1, &links[i].P1); err != nil {
			return err
		}
		p2, err := w.NewP2()
		if err != nil {
			return err
		}
		if err := WritePerson(p2, &links[i].P2); err != nil {
			return err
		}
	}
	return nil
}

func ReadLinks(l capnpwire.PersonLink_List) ([]contract.PersonLink, error) {
	links := make([]contract.PersonLink, l.Len())
	for i := range links {
		w := l.At(i)
		p1, err := w.P1()
		if err != nil {
			return nil, err
		}
		if err := ReadPerson(p1, &links[i].P1); err != nil {
			return nil, err
		}
		p2, err := w.P2()
		if err != nil {
			return nil, err
		}
		if err := ReadPerson(p2, &links[i].P2); err != nil {
			return nil, err
		}
	}
	return links, nil
}

func WriteTrade(w capnpwire.Trade, t *contract.Trade) error {
	w.SetId(t.ID)
	w.SetPrice(t.Price)
	w.SetQuantity(t.Quantity)
	w.SetTimestampNanos(t.TimestampNanos)
	if t.Side == contract.Sell {
		w.SetSide(capnpwire.Side_sell)
	} else {
		w.SetSide(capnpwire.Side_buy)
	}
	return w.SetSymbol(t.Symbol)
}

// ReadTrade decodes w into t. The symbol is interned against the previous trade's:
// streams repeat a handful of symbols, and keeping the previous string when the bytes
// are equal saves an allocation per trade without changing what the caller sees.
func ReadTrade(w capnpwire.Trade, t *contract.Trade) error {
	sym, err := w.SymbolBytes()
	if err != nil {
		return err
	}
	if string(sym) != t.Symbol { // the conversion in a comparison does not allocate
		t.Symbol = string(sym)
	}
	t.ID = w.Id()
	t.Price = w.Price()
	t.Quantity = w.Quantity()
	t.TimestampNanos = w.TimestampNanos()
	if w.Side() == capnpwire.Side_sell {
		t.Side = contract.Sell
	} else {
		t.Side = contract.Buy
	}
	return nil
}
