package outside

import "testing"

// FuzzMessages: whatever a data file holds, Messages returns messages that are each
// valid JSON, or an error; it never panics.
func FuzzMessages(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[{"a":1},{"b":2}]`, "{\"a\":1}\n{\"a\":2}\n", "{\"a\":\n", "", "[", "1 2"} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, b []byte, lines bool) {
		msgs, err := Messages("f", b, lines)
		if err != nil {
			return
		}
		for _, m := range msgs {
			if _, err := decodeJSON([]byte(m)); err != nil {
				t.Errorf("message %q of %q does not decode: %v", m, b, err)
			}
		}
	})
}

// FuzzExpect: any expectation against any reply gives a verdict, never a panic, and
// a JSON value always contains itself.
func FuzzExpect(f *testing.F) {
	f.Add(`{"a":{"b":[1,2]}}`, `{"a":{"b":[1,2,3]}}`)
	f.Add(`{"n":1.0}`, `{"n":"1"}`)
	f.Add(`[]`, `null`)
	f.Fuzz(func(t *testing.T, expect, reply string) {
		e, err := parseExpect(expect)
		if err != nil || e == nil {
			return
		}
		_ = e.check([]byte(reply))
		if err := e.check([]byte(expect)); err != nil {
			t.Errorf("%s does not contain itself: %v", expect, err)
		}
	})
}
