package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/golden"
	"github.com/wirebench/wirebench/results"
)

// viewsFixture is the renderers' fixture plus what the views need that it lacks:
// echo+stats benchmarks (two calls per op, an 11-byte and a 100 KiB payload, one in
// average-time mode) and two labelled grpc-proto configurations with client and
// server options; its suite asks for every view but the matrix.
func viewsFixture(t testing.TB) *results.Results {
	r := fixture(t)
	// Every view but the matrix, whose grids of one pair each per operation would
	// double the golden files; matrix_test.go has a fixture of its own.
	var vs []string
	for _, v := range results.ViewNames {
		if v != results.ViewMatrix {
			vs = append(vs, v)
		}
	}
	r.Suite = &results.SuiteInfo{Name: "views", Description: "every view", Views: vs}
	closed1 := results.Load{Model: results.ModelClosed, Concurrency: 1, Connections: 1}
	add := func(b results.Benchmark, thr float64) {
		b.Load = closed1
		if b.Mode == "" {
			b.Mode = results.ModeThroughput
		}
		b.Name = results.SeriesLabel(&b) + "/" + results.GroupOf(&b)
		if b.Transport == results.InProcess || b.Label != "" {
			b.Name = strings.Replace(b.Name, results.SeriesLabel(&b), seriesPrefix(&b), 1)
		}
		b.Summary.ThroughputOpsS = results.Throughput{Mean: thr, Error: thr / 50, CI: 0.999, N: 10}
		b.Summary.Ops = int64(thr * 5)
		b.Summary.LatencyUs = results.Latency{Mean: 1e6 / thr, P50: 1e6 / thr, P75: 1.1e6 / thr, P90: 1.2e6 / thr, P99: 2e6 / thr, P999: 3e6 / thr, Max: 4e6 / thr}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	small := map[string]any{"payload": float64(11)}
	big := map[string]any{"payload": float64(102400)}
	add(results.Benchmark{Protocol: "direct", Transport: results.InProcess, Workload: "echo+stats", CallsPerOp: 2, Params: small}, 160000)
	add(results.Benchmark{Protocol: "grpc-proto", Transport: "unix", Workload: "echo+stats", CallsPerOp: 2, Params: small}, 4100)
	add(results.Benchmark{Protocol: "http-json", Transport: "tcp", Workload: "echo+stats", CallsPerOp: 2, Params: small}, 6200)
	add(results.Benchmark{Protocol: "grpc-proto", Transport: "unix", Workload: "echo+stats", CallsPerOp: 2, Params: big}, 1450)
	avgt := results.Benchmark{Protocol: "http-json", Transport: "tcp", Workload: "echo+stats", CallsPerOp: 2, Params: big, Mode: results.ModeAverageTime}
	avgt.Summary.AvgTimeMs = &results.Throughput{Mean: 2.125, Error: 0.05, CI: 0.999, N: 10}
	add(avgt, 470)
	win := map[string]string{"initial_window_size": "64KiB"}
	add(results.Benchmark{Protocol: "grpc-proto", Label: "win-64KiB", Transport: "tcp", Workload: "pingpong", CallsPerOp: 1000,
		Params: map[string]any{"increments": float64(1000)}, Options: win, ServerOptions: win}, 21.5)
	add(results.Benchmark{Protocol: "grpc-proto", Label: "workers-1", Transport: "tcp", Workload: "pingpong", CallsPerOp: 1000,
		Params: map[string]any{"increments": float64(1000)}, ServerOptions: map[string]string{"num_stream_workers": "1"}}, 22.25)
	return r
}

// seriesPrefix is the protocol[label]/transport prefix bench.Name gives.
func seriesPrefix(b *results.Benchmark) string {
	s := b.Protocol
	if b.Label != "" {
		s += "[" + b.Label + "]"
	}
	return s + "/" + b.Transport
}

func TestViewsTextGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteViewsText(&buf, viewsFixture(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "views.txt.golden", buf.Bytes())
}

func TestViewsMarkdownGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, viewsFixture(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "views.md.golden", buf.Bytes())
}

// The HTML has a section per view, with rpcecho's lines preformatted and escaped.
func TestViewsHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteHTML(&buf, viewsFixture(t)); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, v := range viewsFixture(t).Suite.Views {
		if !strings.Contains(html, `id="view-`+v+`"`) {
			t.Errorf("no section for view %s", v)
		}
	}
	for _, want := range []string{`href="#original"`, "--- test with Hello World payload --- (echo&#43;stats, closed-c1) from the score\n1000 calls using direct call: ", "<pre>--- test with 1 KiB payload",
		"1000 calls using gRPC  on unix:///…: ", "(num_stream_workers)", "Total number of requests"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

// A run without a suite, or a suite without views, renders no views anywhere.
func TestNoViews(t *testing.T) {
	for _, r := range []*results.Results{fixture(t), func() *results.Results { r := fixture(t); r.Suite = &results.SuiteInfo{Name: "plain"}; return r }()} {
		var txt, md, html bytes.Buffer
		if err := WriteViewsText(&txt, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteMarkdown(&md, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteHTML(&html, r); err != nil {
			t.Fatal(err)
		}
		if txt.Len() != 0 || strings.Contains(md.String(), "original's shape") || strings.Contains(html.String(), `id="original"`) {
			t.Errorf("views rendered for suite %+v", r.Suite)
		}
	}
}
