package results_test

import (
	"testing"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

// A results file names what the settings said in the settings' own words: a value
// spec or load renamed without results would be written under a name the schema and
// the reports no longer know.
func TestVocabularyIsTheSettings(t *testing.T) {
	for _, c := range []struct{ results, settings string }{
		{results.MethodInterleaved, spec.MethodInterleaved},
		{results.MethodSequential, spec.MethodSequential},
		{results.ModeThroughput, spec.ModeThroughput},
		{results.ModeAverageTime, spec.ModeAverageTime},
		{results.ModelClosed, string(load.Closed)},
		{results.ModelOpen, string(load.Open)},
		{results.InProcess, spec.InProc},
	} {
		if c.results != c.settings {
			t.Errorf("results writes %q where the settings say %q", c.results, c.settings)
		}
	}
}
