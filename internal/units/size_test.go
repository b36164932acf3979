package units

import "testing"

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Size
		ok   bool
	}{
		{"11", 11, true},          // plain bytes
		{"11B", 11, true},         // explicit unit
		{"1KiB", 1024, true},      // binary unit
		{"1kib", 1024, true},      // units are case-insensitive
		{"10KB", 10240, true},     // KB is read as KiB, as users of RPC benchmarks mean it
		{"1.5MiB", 1572864, true}, // fractions that give whole bytes
		{"4 MiB", 4 << 20, true},  // a space before the unit
		{"0", 0, true},            // empty payload
		{"0.5B", 0, false},        // half a byte
		{"-1KiB", 0, false},       // negative
		{"lots", 0, false},        // not a number
		{"", 0, false},            // empty
		{"1EiB", 0, false},        // unknown unit
	} {
		got, err := ParseSize(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseSize(%q) = %d, %v; want %d ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		in   Size
		want string
	}{{11, "11B"}, {1024, "1KiB"}, {100 << 10, "100KiB"}, {4 << 20, "4MiB"}, {1500, "1500B"}} {
		if got := c.in.String(); got != c.want {
			t.Errorf("Size(%d).String() = %q, want %q", int64(c.in), got, c.want)
		}
	}
}
