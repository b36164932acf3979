package conform

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/contract"
)

func personDiffs(prefix string, want, got contract.Person) []Difference {
	var d []Difference
	field := func(name string, w, g any) {
		if w != g {
			d = append(d, Difference{Field: prefix + name, Expected: show(w), Got: show(g)})
		}
	}
	field("id", want.ID, got.ID)
	field("name.title", want.Name.Title, got.Name.Title)
	field("name.first", want.Name.First, got.Name.First)
	field("name.last", want.Name.Last, got.Name.Last)
	field("gender", want.Gender, got.Gender)
	field("location.street", want.Location.Street, got.Location.Street)
	field("location.city", want.Location.City, got.Location.City)
	field("location.state", want.Location.State, got.Location.State)
	field("location.post_code", want.Location.PostCode, got.Location.PostCode)
	field("email", want.Email, got.Email)
	switch {
	case want.Picture == nil && got.Picture != nil:
		d = append(d, Difference{Field: prefix + "picture", Expected: "absent", Got: fmt.Sprintf("%+v", *got.Picture)})
	case want.Picture != nil && got.Picture == nil:
		d = append(d, Difference{Field: prefix + "picture", Expected: fmt.Sprintf("%+v", *want.Picture), Got: "absent"})
	case want.Picture != nil:
		field("picture.large", want.Picture.Large, got.Picture.Large)
		field("picture.medium", want.Picture.Medium, got.Picture.Medium)
		field("picture.thumbnail", want.Picture.Thumbnail, got.Picture.Thumbnail)
	}
	return d
}

func tradeDiffs(prefix string, want, got contract.Trade) []Difference {
	var d []Difference
	field := func(name string, w, g any) {
		if w != g {
			d = append(d, Difference{Field: prefix + name, Expected: show(w), Got: show(g)})
		}
	}
	field("id", want.ID, got.ID)
	field("symbol", want.Symbol, got.Symbol)
	field("price", want.Price, got.Price)
	field("quantity", want.Quantity, got.Quantity)
	field("timestamp_nanos", want.TimestampNanos, got.TimestampNanos)
	field("side", want.Side, got.Side)
	return d
}

// originalTradeDiffs compares every field of two of the original's trades, named as
// its JSON names them.
func originalTradeDiffs(prefix string, want, got contract.OriginalTrade) []Difference {
	var d []Difference
	w, g := reflect.ValueOf(want), reflect.ValueOf(got)
	for i := range w.NumField() {
		if wf, gf := w.Field(i).Interface(), g.Field(i).Interface(); wf != gf {
			name := w.Type().Field(i).Tag.Get("json")
			d = append(d, Difference{Field: prefix + name, Expected: show(wf), Got: show(gf)})
		}
	}
	return d
}

// show writes a value as it would be typed: strings quoted.
func show(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return strings.Clone(s)
}
