package jvm_test

// The histograms of the control API cross languages: the JVM worker encodes them with
// Java's HdrHistogram, the Go driver decodes them with hdrhistogram-go. Each side
// writes an encoding of the same values into testdata/ (Go here with -update, Java in
// workers/java's HistogramInteropTest with -Dwirebench.update=true) and decodes the
// other's.

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/wirebench/wirebench/results/record"
)

var update = flag.Bool("update", false, "rewrite testdata/histogram-go.txt, and stacks.json from the built jars (make jvm-stacks)")

// interopValues are recorded by both sides: the range's ends, a repeated value and
// values at each magnitude (ns).
var interopValues = []int64{1, 1000, 1000, 1000, 123456, 999999, 59_000_000_000, record.HighestNs}

func checkInteropHistogram(t *testing.T, who string, h *hdr.Histogram) {
	t.Helper()
	if h.TotalCount() != int64(len(interopValues)) || h.Min() != 1 || h.ValueAtQuantile(50) != 1000 {
		t.Errorf("%s histogram: %d values, min %d, median %d; want %d, 1, 1000", who, h.TotalCount(), h.Min(),
			h.ValueAtQuantile(50), len(interopValues))
	}
	if !h.ValuesAreEquivalent(h.Max(), record.HighestNs) {
		t.Errorf("%s histogram: max %d, want 60 s", who, h.Max())
	}
}

func TestHistogramsInteroperate(t *testing.T) {
	h := record.NewHistogram()
	for _, v := range interopValues {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := record.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	goFile := filepath.Join("testdata", "histogram-go.txt")
	if *update {
		if err := os.WriteFile(goFile, []byte(enc+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(goFile)
	if err != nil {
		t.Fatalf("%v (go test ./stack/jvm -run Histograms -update writes it)", err)
	}
	g, err := record.DecodeHistogram(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("%s: %v", goFile, err)
	}
	checkInteropHistogram(t, "Go", g)

	b, err = os.ReadFile(filepath.Join("testdata", "histogram-java.txt"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := record.DecodeHistogram(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("decoding Java's encoding: %v", err)
	}
	checkInteropHistogram(t, "Java", j)
}
