package suite_test

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/suite"
	"github.com/wirebench/wirebench/suite/bundled"
)

// FuzzParse holds Parse to three promises on any input: it returns (no panic, no
// hang), every error line names the file, and an accepted suite expands the same way
// every time, to uniquely named benchmarks.
func FuzzParse(f *testing.F) {
	for _, name := range suite.Bundled() {
		data, err := fs.ReadFile(bundled.FS, name+".yaml")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, c := range errorCases {
		f.Add([]byte(doc(c.text)))
	}
	f.Add([]byte("targets: [direct, {protocol: grpc-proto, transports: [tcp, unix]}]\nworkloads: [echo, {name: stream, trades: [1, 2]}]\nload: {rates: [10, 20], concurrency: [1, 2], connections: 1}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("targets: &t [direct]\nworkloads: [*t]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := suite.Parse("f.yaml", data)
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "f.yaml:") {
					t.Fatalf("error line %q does not start with the file name", line)
				}
			}
			return
		}
		if len(s.Benchmarks) == 0 {
			t.Fatal("accepted a suite with no benchmarks")
		}
		seen := map[string]bool{}
		for _, b := range s.Benchmarks {
			if seen[b.Name] {
				t.Fatalf("duplicate name %q accepted", b.Name)
			}
			seen[b.Name] = true
			if _, err := b.Spec.Load.Normalize(); err != nil {
				t.Fatalf("%s: invalid model accepted: %v", b.Name, err)
			}
		}
		again, err := suite.Parse("f.yaml", data)
		if err != nil || !reflect.DeepEqual(s, again) {
			t.Fatalf("second Parse differs: %v", err)
		}
		s.Smoke()
		if len(s.Benchmarks) == 0 {
			t.Fatal("smoke left no benchmarks")
		}
	})
}
