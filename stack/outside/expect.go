package outside

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/wirebench/wirebench/contract"
)

// expectation is a parsed spec.Call.Expect: JSON a reply must contain.
type expectation struct{ want any }

// parseExpect reads an expectation; "" is none (nil).
func parseExpect(s string) (*expectation, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	want, err := decodeJSON([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("--expect: %w", err)
	}
	return &expectation{want: want}, nil
}

// decodeJSON decodes one JSON value, numbers kept as json.Number so that 64-bit
// integers compare exactly.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// check returns a wrong answer (contract.ErrWrongAnswer) when reply (JSON) does not
// contain the expectation.
func (e *expectation) check(reply []byte) error {
	if e == nil {
		return nil
	}
	got, err := decodeJSON(reply)
	if err != nil {
		return fmt.Errorf("%w: the reply is not JSON: %v", contract.ErrWrongAnswer, err)
	}
	if path, ok := subset(e.want, got, "$"); !ok {
		return fmt.Errorf("%w: at %s the reply does not match --expect (reply %s)", contract.ErrWrongAnswer, path, clip(reply))
	}
	return nil
}

// subset reports whether want is contained in got: an object's keys each with a
// contained value, an array's elements each contained in got's at the same index
// (got may be longer), anything else equal. path names where it is not.
func subset(want, got any, path string) (string, bool) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return path, false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return path + "." + k, false
			}
			if p, ok := subset(wv, gv, path+"."+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(w) {
			return path, false
		}
		for i := range w {
			if p, ok := subset(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	case json.Number:
		g, ok := got.(json.Number)
		if !ok {
			// protojson writes 64-bit integers as strings: "5" matches 5.
			gs, isStr := got.(string)
			return path, isStr && gs == w.String()
		}
		// Exactly, as rationals: 1.0 equals 1, and 64-bit integers keep every digit.
		wr, ok1 := new(big.Rat).SetString(w.String())
		gr, ok2 := new(big.Rat).SetString(g.String())
		return path, ok1 && ok2 && wr.Cmp(gr) == 0
	default:
		return path, want == got
	}
}

// clip shortens a reply for an error message.
func clip(b []byte) string {
	const n = 200
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}
