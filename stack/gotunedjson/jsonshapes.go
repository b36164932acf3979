package gotunedjson

// The writer and the reader of each JSON object the bodies of codec.go are made of,
// field by field, as easyjson would generate them. The field names are the
// contract's (contract/model.go tags); a reader's case numbers are indexes into its
// field list.

import (
	"strconv"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

var (
	personFields     = []string{"id", "name", "gender", "location", "email", "picture"}
	nameFields       = []string{"title", "first", "last"}
	locationFields   = []string{"street", "city", "state", "post_code"}
	pictureFields    = []string{"large", "medium", "thumbnail"}
	linkFields       = []string{"p1", "p2"}
	personListFields = []string{"persons"}
	linkListFields   = []string{"links"}
	echoFields       = []string{"payload"}
	valueFields      = []string{"value"}
	statsFields      = []string{"calls", "last_payload_len"}
	errorFields      = []string{"code", "message"}
	endFields        = []string{"count"}
	streamLineFields = []string{"id", "symbol", "price", "quantity", "timestamp_nanos", "side", "end", "error"}
	// originalLineFields: the original's trade under its camelCase names, then the
	// final lines' members.
	originalLineFields = []string{"id", "externalId", "info", "str1", "str2", "str3", "str4", "str5", "str6", "str7", "str8", "str9", "str10", "long1", "long2", "long3", "long4", "long5", "long6", "long7", "long8", "long9", "long10", "end", "error"}
)

func appendPerson(b []byte, p *contract.Person) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, p.ID, 10)
	b = append(b, `,"name":{"title":`...)
	b = appendString(b, p.Name.Title)
	b = append(b, `,"first":`...)
	b = appendString(b, p.Name.First)
	b = append(b, `,"last":`...)
	b = appendString(b, p.Name.Last)
	b = append(b, `},"gender":`...)
	b = appendString(b, p.Gender)
	b = append(b, `,"location":{"street":`...)
	b = appendString(b, p.Location.Street)
	b = append(b, `,"city":`...)
	b = appendString(b, p.Location.City)
	b = append(b, `,"state":`...)
	b = appendString(b, p.Location.State)
	b = append(b, `,"post_code":`...)
	b = appendString(b, p.Location.PostCode)
	b = append(b, `},"email":`...)
	b = appendString(b, p.Email)
	if pic := p.Picture; pic != nil { // omitempty
		b = append(b, `,"picture":{"large":`...)
		b = appendString(b, pic.Large)
		b = append(b, `,"medium":`...)
		b = appendString(b, pic.Medium)
		b = append(b, `,"thumbnail":`...)
		b = appendString(b, pic.Thumbnail)
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendPersons appends a person array; a nil slice is null, as encoding/json has it.
func appendPersons(b []byte, ps []contract.Person) []byte {
	if ps == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPerson(b, &ps[i])
	}
	return append(b, ']')
}

func appendErrorBody(b []byte, code contract.Code, msg string) []byte {
	b = append(b, `{"code":`...)
	b = appendString(b, string(code))
	b = append(b, `,"message":`...)
	b = appendString(b, msg)
	return append(b, '}')
}

// person reads a person into *p, merging into what *p holds; field names the member
// the person is the value of, for errors.
func (r *reader) person(p *contract.Person, field string) {
	if !r.object(field, "a person") {
		return
	}
	for first := true; r.more('}', &first); {
		switch r.key(personFields) {
		case 0:
			r.intField(&p.ID, "id")
		case 1:
			r.personName(&p.Name)
		case 2:
			r.stringField(&p.Gender, "gender")
		case 3:
			r.location(&p.Location)
		case 4:
			r.stringField(&p.Email, "email")
		case 5:
			r.picture(&p.Picture)
		default:
			r.skip()
		}
	}
}

func (r *reader) personName(n *contract.PersonName) {
	if !r.object("name", "a person name") {
		return
	}
	for first := true; r.more('}', &first); {
		switch r.key(nameFields) {
		case 0:
			r.stringField(&n.Title, "title")
		case 1:
			r.stringField(&n.First, "first")
		case 2:
			r.stringField(&n.Last, "last")
		default:
			r.skip()
		}
	}
}

func (r *reader) location(l *contract.Location) {
	if !r.object("location", "a location") {
		return
	}
	for first := true; r.more('}', &first); {
		switch r.key(locationFields) {
		case 0:
			r.stringField(&l.Street, "street")
		case 1:
			r.stringField(&l.City, "city")
		case 2:
			r.stringField(&l.State, "state")
		case 3:
			r.stringField(&l.PostCode, "post_code")
		default:
			r.skip()
		}
	}
}

// picture reads the optional picture: null sets *pp to nil, an object fills the
// picture *pp points to, a new one if none.
func (r *reader) picture(pp **contract.Picture) {
	if r.null() {
		*pp = nil
		return
	}
	if !r.object("picture", "a picture") {
		return
	}
	if *pp == nil {
		*pp = new(contract.Picture)
	}
	pic := *pp
	for first := true; r.more('}', &first); {
		switch r.key(pictureFields) {
		case 0:
			r.stringField(&pic.Large, "large")
		case 1:
			r.stringField(&pic.Medium, "medium")
		case 2:
			r.stringField(&pic.Thumbnail, "thumbnail")
		default:
			r.skip()
		}
	}
}

// Typical encoded sizes, to size a slice from the bytes left when decoding starts
// with none; a wrong guess costs only a regrowth or some spare capacity.
const (
	personWireGuess = 320
	linkWireGuess   = 2*personWireGuess + 16
)

// persons reads a person array into ps and returns it. As encoding/json does, an
// element decodes into the element already at its index, if any (a repeated key's
// array merges into the first), null gives nil and [] an empty slice that is not nil.
func (r *reader) persons(ps []contract.Person) []contract.Person {
	ok, null := r.array("persons", "a person array")
	if null {
		return nil
	}
	if !ok {
		return ps
	}
	i := 0
	for first := true; r.more(']', &first); i++ {
		switch {
		case i < len(ps):
		case i < cap(ps):
			ps = ps[:i+1]
		case cap(ps) == 0:
			ps = make([]contract.Person, 1, max(1, (len(r.data)-r.pos)/personWireGuess))
		default:
			ps = append(ps, contract.Person{})
		}
		r.person(&ps[i], "persons")
		r.flush() // before the next element can move the slice
	}
	if i == 0 {
		return []contract.Person{}
	}
	return ps[:i]
}

// links is persons for a link array.
func (r *reader) links(links []contract.PersonLink) []contract.PersonLink {
	ok, null := r.array("links", "a link array")
	if null {
		return nil
	}
	if !ok {
		return links
	}
	i := 0
	for first := true; r.more(']', &first); i++ {
		switch {
		case i < len(links):
		case i < cap(links):
			links = links[:i+1]
		case cap(links) == 0:
			links = make([]contract.PersonLink, 1, max(1, (len(r.data)-r.pos)/linkWireGuess))
		default:
			links = append(links, contract.PersonLink{})
		}
		r.link(&links[i])
		r.flush() // before the next element can move the slice
	}
	if i == 0 {
		return []contract.PersonLink{}
	}
	return links[:i]
}

func (r *reader) link(l *contract.PersonLink) {
	if !r.object("links", "a link") {
		return
	}
	for first := true; r.more('}', &first); {
		switch r.key(linkFields) {
		case 0:
			r.person(&l.P1, "p1")
		case 1:
			r.person(&l.P2, "p2")
		default:
			r.skip()
		}
	}
}

func (r *reader) errorBody(b *httpjson.ErrorBody, field string) {
	if r.object(field, "an error body") {
		r.errorMembers(b)
	}
}

// errorMembers reads the members of an error body, after its '{'.
func (r *reader) errorMembers(b *httpjson.ErrorBody) {
	for first := true; r.more('}', &first); {
		switch r.key(errorFields) {
		case 0:
			r.stringField((*string)(&b.Code), "code")
		case 1:
			r.stringField(&b.Message, "message")
		default:
			r.skip()
		}
	}
}

// streamLine reads a line of a trade stream: the trade's fields go to *t, the final
// lines' to l.
func (r *reader) streamLine(l *streamLine, t *contract.Trade) {
	if !r.object("", "a stream line") {
		return
	}
	for first := true; r.more('}', &first); {
		switch r.key(streamLineFields) {
		case 0:
			r.intField(&t.ID, "id")
		case 1:
			if b, ok := r.stringValue("symbol", "a string"); ok {
				t.Symbol = l.symbols.intern(b)
			}
		case 2:
			r.floatField(&t.Price, "price")
		case 3:
			r.intField(&t.Quantity, "quantity")
		case 4:
			r.intField(&t.TimestampNanos, "timestamp_nanos")
		case 5:
			if b, ok := r.stringValue("side", "BUY or SELL"); ok {
				switch string(b) {
				case "BUY":
					t.Side = contract.Buy
				case "SELL":
					t.Side = contract.Sell
				default:
					r.fail(&typeError{value: "string " + strconv.Quote(string(b)), field: "side",
						want: "BUY or SELL", Offset: int64(r.pos)})
				}
			}
		case 6:
			r.endLine(l)
		case 7:
			r.errorLine(l)
		default:
			r.skip()
		}
	}
}

// originalLine reads a line of a stream of the original's trades into *t, or its
// final line into *l.
func (r *reader) originalLine(l *streamLine, t *contract.OriginalTrade) {
	if !r.object("", "a stream line") {
		return
	}
	for first := true; r.more('}', &first); {
		switch r.key(originalLineFields) {
		case 0:
			r.stringField(&t.ID, "id")
		case 1:
			r.stringField(&t.ExternalID, "externalId")
		case 2:
			r.stringField(&t.Info, "info")
		case 3:
			r.stringField(&t.Str1, "str1")
		case 4:
			r.stringField(&t.Str2, "str2")
		case 5:
			r.stringField(&t.Str3, "str3")
		case 6:
			r.stringField(&t.Str4, "str4")
		case 7:
			r.stringField(&t.Str5, "str5")
		case 8:
			r.stringField(&t.Str6, "str6")
		case 9:
			r.stringField(&t.Str7, "str7")
		case 10:
			r.stringField(&t.Str8, "str8")
		case 11:
			r.stringField(&t.Str9, "str9")
		case 12:
			r.stringField(&t.Str10, "str10")
		case 13:
			r.intField(&t.Long1, "long1")
		case 14:
			r.intField(&t.Long2, "long2")
		case 15:
			r.intField(&t.Long3, "long3")
		case 16:
			r.intField(&t.Long4, "long4")
		case 17:
			r.intField(&t.Long5, "long5")
		case 18:
			r.intField(&t.Long6, "long6")
		case 19:
			r.intField(&t.Long7, "long7")
		case 20:
			r.intField(&t.Long8, "long8")
		case 21:
			r.intField(&t.Long9, "long9")
		case 22:
			r.intField(&t.Long10, "long10")
		case 23:
			r.endLine(l)
		case 24:
			r.errorLine(l)
		default:
			r.skip()
		}
	}
}

// endLine reads the member of {"end":{"count":N}}.
func (r *reader) endLine(l *streamLine) {
	if r.null() {
		l.End = nil
		return
	}
	if !r.object("end", "an end line") {
		return
	}
	if l.End == nil {
		l.end = httpjson.StreamEnd{}
		l.End = &l.end
	}
	for first := true; r.more('}', &first); {
		if r.key(endFields) == 0 {
			r.intField(&l.End.Count, "count")
		} else {
			r.skip()
		}
	}
}

// errorLine reads the member of {"error":{"code":...,"message":...}}.
func (r *reader) errorLine(l *streamLine) {
	if r.null() {
		l.Error = nil
		return
	}
	if !r.object("error", "an error body") {
		return
	}
	if l.Error == nil {
		// A new one, not storage in l: strings queued for an earlier error member
		// may still point into the old one.
		l.Error = new(httpjson.ErrorBody)
	}
	r.errorMembers(l.Error)
}

// symbolCache hands out the strings of the symbols seen lately, so that a stream of
// trades over a few symbols does not allocate a string per trade.
type symbolCache struct {
	recent [8]string
	next   int
}

func (c *symbolCache) intern(b []byte) string {
	for _, s := range c.recent {
		if s == string(b) {
			return s
		}
	}
	s := string(b)
	if len(s) <= 32 { // symbols are short; do not pin anything else
		c.recent[c.next] = s
		c.next = (c.next + 1) % len(c.recent)
	}
	return s
}
