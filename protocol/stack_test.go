package protocol

import (
	"runtime"
	"testing"
)

// A standard-library package is versioned by the Go release; a module this (test)
// binary's build information does not record is unknown.
func TestGoLibraries(t *testing.T) {
	libs := GoLibraries("net/http", "encoding/json", "example.com/nothing")
	for path, want := range map[string]string{
		"go":                  runtime.Version(),
		"net/http":            runtime.Version(),
		"encoding/json":       runtime.Version(),
		"example.com/nothing": "(unknown)",
	} {
		if libs[path] != want {
			t.Errorf("%s: %q, want %q", path, libs[path], want)
		}
	}
	if len(libs) != 4 {
		t.Errorf("%v: want the 4 above", libs)
	}
}
