package bundled_test

import (
	"io/fs"
	"slices"
	"testing"

	"github.com/wirebench/wirebench/suite/bundled"
)

// TestNames checks that the bundled directory holds suite files only, quick among them.
// The suite package's tests parse each one.
func TestNames(t *testing.T) {
	names, err := bundled.Names()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names, "quick") || !slices.IsSorted(names) {
		t.Errorf("Names() = %q, want sorted names with quick", names)
	}
	entries, err := fs.ReadDir(bundled.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(names) {
		t.Errorf("%d embedded files for %d suites", len(entries), len(names))
	}
}
