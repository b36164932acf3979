// Package units parses and prints the quantities users type: byte sizes such as "1KiB".
package units

import (
	"fmt"
	"strconv"
	"strings"
)

// Size is a number of bytes that reads "11", "11B", "1KiB", "1.5MiB", "10KB" (KB, MB
// and GB are read as powers of 1024 too, as every RPC benchmark's users mean them).
type Size int64

var suffixes = []struct {
	s string
	n int64
}{
	{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10},
	{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
}

// ParseSize reads a Size.
func ParseSize(s string) (Size, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, suf := range suffixes {
		if len(t) > len(suf.s) && strings.EqualFold(t[len(t)-len(suf.s):], suf.s) {
			t, mult = strings.TrimSpace(t[:len(t)-len(suf.s)]), suf.n
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || f*float64(mult) > 1<<50 {
		return 0, fmt.Errorf("size %q: want a number of bytes such as 11, 1KiB, 100KiB or 4MiB", s)
	}
	n := f * float64(mult)
	if n != float64(int64(n)) {
		return 0, fmt.Errorf("size %q is not a whole number of bytes", s)
	}
	return Size(n), nil
}

// UnmarshalText lets flag and YAML parsers read a Size.
func (z *Size) UnmarshalText(b []byte) error {
	v, err := ParseSize(string(b))
	if err != nil {
		return err
	}
	*z = v
	return nil
}

// String prints the size in the largest binary unit that divides it: "11B", "1KiB".
func (z Size) String() string {
	for _, u := range []struct {
		s string
		n int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if int64(z) >= u.n && int64(z)%u.n == 0 {
			return strconv.FormatInt(int64(z)/u.n, 10) + u.s
		}
	}
	return strconv.FormatInt(int64(z), 10) + "B"
}

// MarshalText prints the size as String does.
func (z Size) MarshalText() ([]byte, error) { return []byte(z.String()), nil }
