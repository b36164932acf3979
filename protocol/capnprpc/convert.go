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

// WriteOriginalTrade fills w from t, field by field (written out: a loop over method
// values would allocate per trade).
func WriteOriginalTrade(w capnpwire.OriginalTrade, t *contract.OriginalTrade) error {
	w.SetLong1(t.Long1)
	w.SetLong2(t.Long2)
	w.SetLong3(t.Long3)
	w.SetLong4(t.Long4)
	w.SetLong5(t.Long5)
	w.SetLong6(t.Long6)
	w.SetLong7(t.Long7)
	w.SetLong8(t.Long8)
	w.SetLong9(t.Long9)
	w.SetLong10(t.Long10)
	var err error
	if err == nil {
		err = w.SetId(t.ID)
	}
	if err == nil {
		err = w.SetExternalId(t.ExternalID)
	}
	if err == nil {
		err = w.SetInfo(t.Info)
	}
	if err == nil {
		err = w.SetStr1(t.Str1)
	}
	if err == nil {
		err = w.SetStr2(t.Str2)
	}
	if err == nil {
		err = w.SetStr3(t.Str3)
	}
	if err == nil {
		err = w.SetStr4(t.Str4)
	}
	if err == nil {
		err = w.SetStr5(t.Str5)
	}
	if err == nil {
		err = w.SetStr6(t.Str6)
	}
	if err == nil {
		err = w.SetStr7(t.Str7)
	}
	if err == nil {
		err = w.SetStr8(t.Str8)
	}
	if err == nil {
		err = w.SetStr9(t.Str9)
	}
	if err == nil {
		err = w.SetStr10(t.Str10)
	}
	return err
}

// ReadOriginalTrade decodes w into t, field by field.
func ReadOriginalTrade(w capnpwire.OriginalTrade, t *contract.OriginalTrade) error {
	var err error
	if err == nil {
		t.ID, err = w.Id()
	}
	if err == nil {
		t.ExternalID, err = w.ExternalId()
	}
	if err == nil {
		t.Info, err = w.Info()
	}
	if err == nil {
		t.Str1, err = w.Str1()
	}
	if err == nil {
		t.Str2, err = w.Str2()
	}
	if err == nil {
		t.Str3, err = w.Str3()
	}
	if err == nil {
		t.Str4, err = w.Str4()
	}
	if err == nil {
		t.Str5, err = w.Str5()
	}
	if err == nil {
		t.Str6, err = w.Str6()
	}
	if err == nil {
		t.Str7, err = w.Str7()
	}
	if err == nil {
		t.Str8, err = w.Str8()
	}
	if err == nil {
		t.Str9, err = w.Str9()
	}
	if err == nil {
		t.Str10, err = w.Str10()
	}
	t.Long1, t.Long2, t.Long3, t.Long4, t.Long5 = w.Long1(), w.Long2(), w.Long3(), w.Long4(), w.Long5()
	t.Long6, t.Long7, t.Long8, t.Long9, t.Long10 = w.Long6(), w.Long7(), w.Long8(), w.Long9(), w.Long10()
	return err
}
