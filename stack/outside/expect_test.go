package outside

import (
	"errors"
	"testing"

	"github.com/wirebench/wirebench/contract"
)

func TestExpectSubset(t *testing.T) {
	for _, c := range []struct {
		expect, reply string
		ok            bool
	}{
		{`{"message":"Hello x"}`, `{"message":"Hello x"}`, true},
		{`{"message":"Hello x"}`, `{"message":"Hello x","extra":1}`, true}, // a subset: other keys are free
		{`{"message":"Hello x"}`, `{"message":"Hello y"}`, false},          // a value differs
		{`{"message":"Hello x"}`, `{}`, false},                             // a key is missing
		{`{"a":{"b":[1,2]}}`, `{"a":{"b":[1,2,3],"c":0}}`, true},           // arrays by index, got may be longer
		{`{"a":{"b":[1,2]}}`, `{"a":{"b":[2,1]}}`, false},                  // order matters
		{`{"id":5}`, `{"id":"5"}`, true},                                   // protojson writes int64 as a string
		{`{"n":1.0}`, `{"n":1}`, true},                                     // equal numbers, spelt apart
		{`{"n":9007199254740993}`, `{"n":9007199254740992}`, false},        // beyond float64: compared exactly
		{`{"ok":true}`, `{"ok":"true"}`, false},                            // a boolean is not a string
		{`[{"x":1}]`, `[{"x":1,"y":2},{"x":3}]`, true},                     // a top-level array
	} {
		e, err := parseExpect(c.expect)
		if err != nil {
			t.Fatal(err)
		}
		err = e.check([]byte(c.reply))
		if ok := err == nil; ok != c.ok {
			t.Errorf("expect %s on %s: %v, want ok=%v", c.expect, c.reply, err, c.ok)
		}
		if err != nil && !errors.Is(err, contract.ErrWrongAnswer) {
			t.Errorf("expect %s on %s: %v is not a wrong answer", c.expect, c.reply, err)
		}
	}
	if _, err := parseExpect(`{"a":`); err == nil {
		t.Error("parseExpect(bad JSON) = nil error")
	}
	var none *expectation
	if err := none.check([]byte("not json")); err != nil {
		t.Errorf("no expectation checks nothing, got %v", err)
	}
}
