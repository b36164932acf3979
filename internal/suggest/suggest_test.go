package suggest

import "testing"

func TestClosest(t *testing.T) {
	protocols := []string{"capnp", "grpc-avro", "grpc-proto", "grpc-web", "http-json", "netrpc-gob"}
	for _, tc := range []struct {
		name string
		want string
	}{
		// One letter doubled: 1 edit, within 10/3 = 3.
		{"grpc-protoo", "grpc-proto"},
		// Two neighbouring letters swapped: 1 edit.
		{"htpt-json", "http-json"},
		// Case is ignored.
		{"GRPC-PROTO", "grpc-proto"},
		// "grpc-protb" is 1 edit from grpc-proto and 3 from grpc-web: the nearer wins.
		{"grpc-protb", "grpc-proto"},
		// Nothing within a third of its length, and a prefix of three names: none.
		{"grpc", ""},
		// A prefix of exactly one name.
		{"netrpc", "netrpc-gob"},
		// Far from everything.
		{"soap", ""},
		{"", ""},
	} {
		if got := Closest(tc.name, protocols); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	// A short name allows one edit only (5/3 = 1): a swap is one, "quikc" → quick; two
	// swaps are two, "qiukc": none; a letter left out is one.
	for name, want := range map[string]string{"quikc": "quick", "qiukc": "", "quck": "quick"} {
		if got := Closest(name, []string{"quick", "matrix"}); got != want {
			t.Errorf("Closest(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestHint(t *testing.T) {
	if got := Hint("grpc-protoo", []string{"capnp", "grpc-proto"}); got != ` (did you mean "grpc-proto"?)` {
		t.Errorf("hint: %q", got)
	}
	if got := Hint("zzz", []string{"quick"}); got != "" {
		t.Errorf("no hint: %q", got)
	}
}
