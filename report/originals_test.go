package report

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/golden"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/suite/originals"
)

// originalsFixture is a run of rest-vs-grpc at the original's headline setup, in part:
// the streams at the original's 10000 trades (gRPC on Netty 0.92× [0.88, 0.96] REST's
// time where the original had 3.91× [3.36, 4.50]: reversed, does not hold; the OkHttp
// client 0.5× [0.47, 0.53], the original's prose 0.525× [0.457, 0.598] with ±10 % on its
// 20 ms: below 1 and overlapping it, holds), the ping-pongs at 1000 increments (the original's 100: not at its setup), and
// no gRPC ping-pong on Netty at all for one finding (not run). Two deviations declared.
func originalsFixture() *results.Results {
	closed1 := results.Load{Model: results.ModelClosed, Concurrency: 1, Connections: 1}
	stack := func(name string) *results.Stack {
		return &results.Stack{Name: name, Language: "java", Tier: results.TierProduction}
	}
	bench := func(proto, label, server, client, workload string, params map[string]any, ms float64, rel *results.Relative) results.Benchmark {
		b := results.Benchmark{Protocol: proto, Label: label, Transport: "tcp", Workload: workload, Params: params, Load: closed1,
			ServerStack: stack(server), ClientStack: stack(client), Mode: results.ModeAverageTime}
		b.Name = proto + "[" + label + "]/tcp/" + workload + "/closed-c1"
		b.Summary.AvgTimeMs = &results.Throughput{Mean: ms, Error: ms / 20, CI: 0.999, N: 10}
		b.Summary.ThroughputOpsS = results.Throughput{Mean: 1000 / ms, CI: 0.999, N: 10}
		b.Summary.Relative = rel
		return b
	}
	stream := map[string]any{"trades": float64(10000)}
	ping := map[string]any{"increments": float64(1000)}
	rel := func(base string, m, lo, hi float64) *results.Relative {
		return &results.Relative{Baseline: base, Ratio: results.Ratio{Mean: m, CILow: lo, CIHigh: hi, CI: 0.999}, Rounds: 10}
	}
	rest := bench("http-json", "rest", "jetty-jackson", "java-httpclient", "stream", stream, 40, nil)
	return &results.Results{SchemaVersion: results.SchemaVersion,
		Suite: &results.SuiteInfo{Name: "rest-vs-grpc", Original: &results.OriginalRef{Name: "rest-vs-grpc", Setup: "headline"},
			Deviations: []results.Deviation{
				{What: "server and client run in two JVMs", Why: "wirebench measures each side's CPU apart"},
				{What: "the server's compressor registry is grpc-java's default", Why: "no stack option empties it; no call is compressed either way"},
			}},
		Benchmarks: []results.Benchmark{
			rest,
			bench("grpc-proto", "original-netty", "grpc-java-netty", "grpc-java-netty", "stream", stream, 36.8, rel(rest.Name, 0.92, 0.88, 0.96)),
			bench("grpc-proto", "original-okhttp-pool", "grpc-java-netty", "grpc-java-okhttp", "stream", stream, 20, rel(rest.Name, 0.5, 0.47, 0.53)),
			bench("http-json", "rest", "jetty-jackson", "java-httpclient", "pingpong", ping, 90, nil),
		}}
}

func TestOriginalsMarkdownGolden(t *testing.T) {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	writeMarkdownViews(w, originalsFixture())
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "originals.md.golden", buf.Bytes())
}

// The terminal and the HTML show the same table and deviations.
func TestOriginalsTextAndHTML(t *testing.T) {
	r := originalsFixture()
	var txt, html bytes.Buffer
	if err := WriteViewsText(&txt, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Original vs wirebench", "Of 3 findings: holds 1, does not hold 1, inconclusive 0, not comparable 1", "does not hold", "holds", "not run", "not run at the original&#39;s setup",
		"Deviations from the original", "wirebench measures each side&#39;s CPU apart", `id="view-original-vs-wirebench"`} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
		want = strings.ReplaceAll(want, "&#39;", "'")
		if !strings.HasPrefix(want, "id=") && !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q", want)
		}
	}
}

// The suite's original and deviations survive the results file (the schema takes them).
func TestOriginalsRoundTrip(t *testing.T) {
	r := originalsFixture()
	r.Environment = fixture(t).Environment
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := results.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if *back.Suite.Original != *r.Suite.Original || len(back.Suite.Deviations) != 2 || back.Suite.Deviations[1] != r.Suite.Deviations[1] {
		t.Errorf("suite read back as %+v", back.Suite)
	}
}

// An original whose figures are not bundled (a results file from a newer wirebench)
// still renders, saying why there is no table.
func TestOriginalUnknown(t *testing.T) {
	r := originalsFixture()
	r.Suite.Original.Name = "unheard-of"
	var txt bytes.Buffer
	if err := WriteViewsText(&txt, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), `could not be read: no published figures for an original named "unheard-of"`) {
		t.Errorf("text:\n%s", txt.String())
	}
}

// The summary line names all four verdicts, in one order, whatever the rows hold.
func TestVerdictCounts(t *testing.T) {
	rows := []originals.Row{{Verdict: originals.Inconclusive}, {Verdict: originals.Holds}, {Verdict: originals.Inconclusive}}
	if got, want := VerdictCounts(rows), "Of 3 findings: holds 1, does not hold 0, inconclusive 2, not comparable 0"; got != want {
		t.Errorf("VerdictCounts = %q, want %q", got, want)
	}
	if got, want := VerdictCounts(rows[:1]), "Of 1 finding: holds 0, does not hold 0, inconclusive 1, not comparable 0"; got != want {
		t.Errorf("VerdictCounts = %q, want %q", got, want)
	}
}
