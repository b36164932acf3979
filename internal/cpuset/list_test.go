package cpuset

import (
	"slices"
	"strings"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		in   string
		want []int
	}{
		{"0", []int{0}},                                    // a single CPU
		{"1-3", []int{1, 2, 3}},                            // ranges are inclusive at both ends
		{"0,2,4-5", []int{0, 2, 4, 5}},                     // singles and ranges mix
		{"3-3", []int{3}},                                  // a one-CPU range is allowed
		{"0-3\n", []int{0, 1, 2, 3}},                       // sysfs files end in a newline
		{" 4 , 1-2 ", []int{1, 2, 4}},                      // spaces around items; output is sorted
		{"0-2,1-3", []int{0, 1, 2, 3}},                     // overlaps are merged, as the kernel does
		{"5,5", []int{5}},                                  // duplicates collapse
		{"8190-8191", []int{8190, 8191}},                   // the top of Linux's NR_CPUS range
		{"0-1,10-11", []int{0, 1, 10, 11}},                 // gaps are kept
		{"63,64,65", []int{63, 64, 65}},                    // across a 64-bit mask word
		{"0,1,2,3,4,5,6,7", []int{0, 1, 2, 3, 4, 5, 6, 7}}, // the long way to say 0-7
	}
	for _, tt := range tests {
		got, err := ParseCPUList(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseCPUListErrors(t *testing.T) {
	tests := []struct {
		in, wantErr string
	}{
		{"", "empty"},                           // no CPUs at all
		{"  \n", "empty"},                       // only white space is still empty
		{"0,,2", "empty item"},                  // a doubled comma
		{"1,", "empty item"},                    // a trailing comma
		{"3-1", "runs backwards"},               // descending ranges are not a list of anything
		{"a", `"a" is not a CPU number`},        // not a number
		{"-1", "missing CPU number"},            // a leading dash leaves the start empty
		{"1-", "missing CPU number"},            // an open-ended range
		{"1-2-3", `"2-3" is not a CPU number`},  // one dash per range
		{"+3", `"+3" is not a CPU number`},      // no signs, as the kernel takes none
		{"0x3", `"0x3" is not a CPU number`},    // lists are decimal, not masks
		{"9000", "beyond the largest"},          // past NR_CPUS: a typo, not a machine
		{"0-99999999999", "beyond the largest"}, // a huge range is refused before it is expanded
	}
	for _, tt := range tests {
		_, err := ParseCPUList(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ParseCPUList(%q) error = %v, want it to mention %q", tt.in, err, tt.wantErr)
		}
	}
}

func TestFormatCPUList(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{[]int{0}, "0"},              // a single CPU
		{[]int{0, 1, 2, 5}, "0-2,5"}, // runs collapse into ranges
		{[]int{5, 0, 2, 1}, "0-2,5"}, // input order does not matter
		{[]int{1, 1, 2}, "1-2"},      // duplicates drop
		{[]int{0, 2, 4}, "0,2,4"},    // no runs, no ranges
		{nil, ""},                    // nothing to say
	}
	for _, tt := range tests {
		if got := FormatCPUList(tt.in); got != tt.want {
			t.Errorf("FormatCPUList(%v) = %q, want %q", tt.in, got, tt.want)
		}
		if tt.want == "" {
			continue
		}
		// Round trip: formatting then parsing gives the sorted set back.
		back, err := ParseCPUList(tt.want)
		want := slices.Compact(slices.Sorted(slices.Values(tt.in)))
		if err != nil || !slices.Equal(back, want) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v", tt.want, back, err, want)
		}
	}
}

func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"0", "1-3", "0,2,4-5", "3-1", ",", "8191"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cpus, err := ParseCPUList(s)
		if err != nil {
			return
		}
		// Whatever parses must be sorted, unique, in range, and survive a round trip.
		if len(cpus) == 0 || !slices.IsSorted(cpus) || len(slices.Compact(slices.Clone(cpus))) != len(cpus) {
			t.Fatalf("ParseCPUList(%q) = %v: not a sorted non-empty set", s, cpus)
		}
		if cpus[0] < 0 || cpus[len(cpus)-1] > maxCPU {
			t.Fatalf("ParseCPUList(%q) = %v: out of range", s, cpus)
		}
		back, err := ParseCPUList(FormatCPUList(cpus))
		if err != nil || !slices.Equal(back, cpus) {
			t.Fatalf("round trip of %v via %q = %v, %v", cpus, FormatCPUList(cpus), back, err)
		}
	})
}
