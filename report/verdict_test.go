package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/golden"
	"github.com/wirebench/wirebench/results"
)

// target is one benchmark of a verdict test's group: its ratio to the group's
// baseline (none for the baseline) with its interval and forks.
type target struct {
	proto, transport string
	ratio, low, high float64
	forks            int
	df               float64
	steady           string
	bound            string // a generator-bound warning's reason, "" for none
}

// verdictGroup is one comparison group of an operation: its first target is the
// baseline; mode is the benchmarks' mode, open an open-model load.
func verdictGroup(workload, mode string, open bool, ts ...target) []results.Benchmark {
	load := results.Load{Model: results.ModelClosed, Concurrency: 50, Connections: 1}
	if open {
		load = results.Load{Model: results.ModelOpen, Concurrency: 100, Connections: 1, Rate: 1000, Arrival: "constant", MaxInFlight: 100}
	}
	var bs []results.Benchmark
	base := ""
	for i, t := range ts {
		b := results.Benchmark{Protocol: t.proto, Transport: t.transport, Workload: workload, Params: map[string]any{},
			Load: load, Mode: mode, Method: results.MethodInterleaved, Steady: t.steady}
		b.Name = t.proto + "/" + t.transport + "/" + results.GroupOf(&b)
		b.Summary.ThroughputOpsS = results.Throughput{Mean: 1000, N: 10, CI: 0.999}
		if t.bound != "" {
			b.GeneratorBound = true
			b.Warnings = results.Warnings{{Kind: results.WarnGenerator, Text: t.bound}}
		}
		if i == 0 {
			base = b.Name
		} else {
			r := &results.Relative{Baseline: base, Rounds: 20 * t.forks, Forks: t.forks, DF: t.df,
				Ratio: results.Ratio{Mean: t.ratio, CILow: t.low, CIHigh: t.high, CI: 0.999}}
			if open {
				r.Of = results.RelativeLatencyP50
			}
			b.Summary.Relative = r
		}
		bs = append(bs, b)
	}
	return bs
}

// Each rule of the verdict, with the sentence a reader gets; every expected text
// is written out by hand from the ratios given.
func TestVerdicts(t *testing.T) {
	for _, c := range []struct {
		name string
		bs   []results.Benchmark
		want string
	}{
		{"a winner, one tie with it, one tie with the baseline",
			verdictGroup("person.get", results.ModeThroughput, false,
				target{proto: "http-json", transport: "tcp"},
				target{proto: "capnp", transport: "tcp", ratio: 1.47, low: 1.37, high: 1.58, forks: 15, df: 14},
				target{proto: "grpc-proto", transport: "tcp", ratio: 1.4, low: 1.3, high: 1.5, forks: 15, df: 14},
				target{proto: "grpc-avro", transport: "tcp", ratio: 1.01, low: 0.95, high: 1.08, forks: 15, df: 14}),
			"capnp/tcp won: 1.47× http-json/tcp [1.37, 1.58], 99.9 % over 15 forks. grpc-proto/tcp ties with it (the intervals overlap). grpc-avro/tcp ties with http-json/tcp (the intervals include 1)."},
		{"the baseline wins",
			verdictGroup("person.get", results.ModeThroughput, false,
				target{proto: "grpc-proto", transport: "tcp"},
				target{proto: "http-json", transport: "tcp", ratio: 0.5, low: 0.45, high: 0.55, forks: 5, df: 4},
				target{proto: "capnp", transport: "tcp", ratio: 0.9, low: 0.85, high: 0.95, forks: 5, df: 4}),
			"grpc-proto/tcp (the baseline) won: the nearest, capnp/tcp, is 0.90× grpc-proto/tcp [0.85, 0.95], 99.9 % over 5 forks."},
		{"no winner: the best ties with the baseline; too few forks for one",
			verdictGroup("echo", results.ModeThroughput, false,
				target{proto: "http-json", transport: "tcp"},
				target{proto: "grpc-proto", transport: "tcp", ratio: 1.03, low: 0.97, high: 1.09, forks: 3, df: 4},
				target{proto: "grpc-avro", transport: "tcp", ratio: 0.98, low: 0.9, high: 1.05, forks: 3, df: 4},
				target{proto: "capnp", transport: "tcp", ratio: 1.097, low: 1.097, high: 1.097, forks: 1, df: 0}),
			"no winner: grpc-proto/tcp ties with http-json/tcp, the baseline, at 1.03× http-json/tcp [0.97, 1.09], 99.9 % over 3 forks. grpc-avro/tcp ties with http-json/tcp too (the intervals include 1). Too few forks for an interval: capnp/tcp (run more forks)."},
		{"time per op: lower is better",
			verdictGroup("stream", results.ModeAverageTime, false,
				target{proto: "http-json", transport: "tcp"},
				target{proto: "grpc-proto", transport: "tcp", ratio: 0.25, low: 0.22, high: 0.28, forks: 5, df: 4},
				target{proto: "capnp", transport: "tcp", ratio: 1.5, low: 1.4, high: 1.6, forks: 5, df: 4}),
			"grpc-proto/tcp won: time per op 0.25× http-json/tcp's [0.22, 0.28], 99.9 % over 5 forks."},
		{"open model: response time, lower is better",
			verdictGroup("person.get", results.ModeThroughput, true,
				target{proto: "http-json", transport: "tcp"},
				target{proto: "grpc-proto", transport: "tcp", ratio: 0.6, low: 0.55, high: 0.66, forks: 5, df: 4}),
			"grpc-proto/tcp won: p50 response time 0.60× http-json/tcp's [0.55, 0.66], 99.9 % over 5 forks."},
		{"a generator-bound winner, a target without a steady state, direct not ranked",
			verdictGroup("person.get", results.ModeThroughput, false,
				target{proto: "http-json", transport: "tcp"},
				target{proto: "direct", transport: results.InProcess, ratio: 120, low: 110, high: 130, forks: 5, df: 4},
				target{proto: "capnp", transport: "tcp", ratio: 1.3, low: 1.2, high: 1.4, forks: 5, df: 4, bound: "the client used 92% of its CPUs"},
				target{proto: "grpc-proto", transport: "tcp", ratio: 1.1, low: 1.05, high: 1.15, forks: 5, df: 4, steady: results.SteadyNone}),
			"capnp/tcp won: 1.30× http-json/tcp [1.20, 1.40], 99.9 % over 5 forks. Behind it, also ahead of the baseline: grpc-proto/tcp (1.10× [1.05, 1.15]). " +
				"No steady state: grpc-proto/tcp (its speed kept changing over the rounds; a ratio marked ~ pairs every fork). " +
				"capnp/tcp is generator-bound (the client used 92% of its CPUs): the client, not the server, set its figure; its score is a floor: it won by at least this much, and its server may be faster still. " +
				"To rank the servers, give its client more CPUs (client_cpus) or a cheaper client stack (client_stack: instrument, where the protocol has one). " +
				"Not ranked: direct (in process, no wire: 120.00×)."},
	} {
		t.Run(c.name, func(t *testing.T) {
			vs := verdicts(c.bs)
			if len(vs) != 1 {
				t.Fatalf("%d verdicts, want 1", len(vs))
			}
			if vs[0].Text != c.want {
				t.Errorf("verdict\n got %s\nwant %s", vs[0].Text, c.want)
			}
		})
	}
}

// verdictFixture is a run of three operations: a winner with a tie, a
// generator-bound winner, and a baseline that wins; a smoke run of a suite.
func verdictFixture() *results.Results {
	r := &results.Results{SchemaVersion: results.SchemaVersion, Smoke: true,
		Command: "wirebench run quick --smoke", Suite: &results.SuiteInfo{Name: "quick"}}
	r.Benchmarks = append(r.Benchmarks, verdictGroup("person.get", results.ModeThroughput, false,
		target{proto: "http-json", transport: "tcp"},
		target{proto: "capnp", transport: "tcp", ratio: 1.47, low: 1.37, high: 1.58, forks: 15, df: 14},
		target{proto: "grpc-proto", transport: "tcp", ratio: 1.4, low: 1.3, high: 1.5, forks: 15, df: 14})...)
	r.Benchmarks = append(r.Benchmarks, verdictGroup("echo", results.ModeThroughput, false,
		target{proto: "http-json", transport: "tcp"},
		target{proto: "capnp", transport: "tcp", ratio: 1.3, low: 1.2, high: 1.4, forks: 5, df: 4, bound: "the client used 92% of its CPUs"})...)
	r.Benchmarks = append(r.Benchmarks, verdictGroup("person.list", results.ModeThroughput, false,
		target{proto: "grpc-proto", transport: "tcp"},
		target{proto: "http-json", transport: "tcp", ratio: 0.5, low: 0.45, high: 0.55, forks: 5, df: 4})...)
	return r
}

// The terminal summary opens with the title (suite, command, SMOKE) and the
// verdicts, before the score table.
func TestSummaryTextGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSummaryText(&buf, verdictFixture()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "[SMOKE] wirebench results: suite quick (wirebench run quick --smoke)\n") {
		t.Errorf("summary does not open with the smoke title:\n%s", out)
	}
	if v, s := strings.Index(out, "capnp/tcp won"), strings.Index(out, "Benchmark"); v < 0 || v > s {
		t.Errorf("the verdict is not above the score table:\n%s", out)
	}
	golden.Check(t, "summary.txt.golden", buf.Bytes())
}

func TestVerdictMarkdownAndHTML(t *testing.T) {
	r := verdictFixture()
	var md, html bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# [SMOKE] wirebench results: suite quick (wirebench run quick --smoke)\n",
		"> **SMOKE** A smoke run",
		"## Verdict\n",
		"- **person.get/closed-c50**: capnp/tcp won: 1.47× http-json/tcp [1.37, 1.58], 99.9 % over 15 forks. grpc-proto/tcp ties with it",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	for _, want := range []string{
		"<title>[SMOKE] wirebench results: suite quick (wirebench run quick --smoke)</title>",
		`<p class="callout smoke"><strong>SMOKE</strong>`,
		`<h2 id="verdict">Verdict</h2>`,
		"capnp/tcp won: 1.47× http-json/tcp [1.37, 1.58], 99.9 % over 15 forks.",
		"capnp/tcp is generator-bound (the client used 92% of its CPUs)",
	} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	golden.Check(t, "verdict.md.golden", md.Bytes())
}

// The title names the suite and the command only when the results know them.
func TestTitle(t *testing.T) {
	for _, c := range []struct {
		r    results.Results
		want string
	}{
		{results.Results{}, "wirebench results"},
		{results.Results{Suite: &results.SuiteInfo{Name: "quick"}}, "wirebench results: suite quick"},
		{results.Results{Suite: &results.SuiteInfo{Name: "quick"}, Command: "wirebench run quick"}, "wirebench results: suite quick (wirebench run quick)"},
		{results.Results{Smoke: true}, "[SMOKE] wirebench results"},
	} {
		if got := title(&c.r); got != c.want {
			t.Errorf("title = %q, want %q", got, c.want)
		}
	}
}
