package results

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/wirebench/wirebench/internal/golden"
	"github.com/wirebench/wirebench/results/record"
)

func ptr[T any](v T) *T { return &v }

// sample is a realistic results file: an open-model gRPC run with lag and
// service time, and a closed-model direct run whose server figures are unknown.
func sample(t *testing.T) *Results {
	t.Helper()
	h := hdrhistogram.New(1, 60e9, 3)
	for i := int64(1); i <= 1000; i++ {
		if err := h.RecordValue(i * 1000); err != nil { // 1 µs .. 1 ms in ns
			t.Fatal(err)
		}
	}
	hist, err := record.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	lat := Latency{Mean: 500.5, P50: 500, P75: 750, P90: 900, P99: 990, P999: 999, Max: 1000}
	lag := Latency{Mean: 3.2, P50: 2, P75: 3, P90: 5, P99: 40, P999: 120, Max: 800}
	return &Results{
		SchemaVersion: SchemaVersion,
		Environment: Environment{
			CPUModel: "AMD EPYC 7B13", Cores: 2, MemoryBytes: 8 << 30,
			Kernel: "6.18.44", OS: "linux/amd64 (Debian GNU/Linux 12 (bookworm))",
			GoVersion: "go1.26.8", WirebenchVersion: "v0.1.0",
			ServerCPUs: "0", ClientCPUs: "1",
			Started: time.Date(2026, 3, 14, 15, 9, 26, 535000000, time.UTC),
		},
		Benchmarks: []Benchmark{
			{
				Name: "grpc-proto/echo/open-2000", Protocol: "grpc-proto", Transport: "tcp",
				Workload: "echo",
				// JSON numbers read back as float64, so the sample uses them.
				Params:  map[string]any{"payload": float64(1024)},
				Options: map[string]string{"compression": "none"},
				Load: Load{Model: ModelOpen, Concurrency: 4, Connections: 2, Rate: 2000,
					Arrival: "poisson", MaxInFlight: 256},
				Mode: ModeThroughput, WarmupSeconds: 5, SliceSeconds: 1, Rounds: 2,
				Forks: []ForkResult{
					{Index: 0, Slices: []Slice{
						{Index: 0, Seconds: 1.0002, Ops: 1999, ThroughputOpsS: 1998.6,
							LatencyUs: lat, ServiceUs: &lat, LagUs: &lag, Histogram: hist},
						{Index: 1, Seconds: 0.9998, Ops: 2001, Errors: 1, ThroughputOpsS: 2001.4,
							LatencyUs: lat, ServiceUs: &lat, LagUs: &lag},
					}},
					{Index: 1, Slices: []Slice{
						{Index: 0, Seconds: 1, Ops: 1500, ThroughputOpsS: 1500, LatencyUs: lat},
					}, Error: "worker exited: signal: killed", Phase: "round 2"},
				},
				Summary: Summary{
					ThroughputOpsS: Throughput{Mean: 1833.33, Error: 3012.5, CI: 0.999, N: 3},
					LatencyUs:      lat, ServiceUs: &lat, LagUs: &lag,
					Ops: 5500, Errors: 1, ErrorsByKind: map[string]int64{"unavailable": 1},
					Overflow:         12,
					ClientCPUUsPerOp: 21.5, ServerCPUUsPerOp: ptr(14.25),
					BytesSentPerOp: 1071, BytesRecvPerOp: 1068,
					ServerRSSMaxBytes: ptr(int64(24 << 20)),
					AchievedRate:      1999.2, AvgMsPerOp: 0.5005,
				},
				Warnings: Warnings{
					{Kind: WarnGenerator, Text: "lag p99 40µs is over 1ms <no> & \"quoted\""},
					{Kind: WarnFailed, Fork: 2, Phase: "round 2", Text: "worker exited: signal: killed"},
					{Kind: WarnOther, Text: "a warning of no kind"},
				},
				GeneratorBound: false,
			},
			{
				Name: "direct/person.get/c1", Protocol: "direct", Transport: "",
				Workload: "person.get", Params: map[string]any{"persons": float64(100)},
				Load: Load{Model: ModelClosed, Concurrency: 1, Connections: 0},
				Mode: ModeAverageTime, WarmupSeconds: 1, SliceOps: 100000, Rounds: 1,
				Forks: []ForkResult{{Index: 0, Slices: []Slice{
					{Index: 0, Seconds: 0.05, Ops: 100000, ThroughputOpsS: 2e6,
						LatencyUs: Latency{Mean: 0.5, P50: 0.4, P75: 0.5, P90: 0.6, P99: 1.2, P999: 8, Max: 90}},
				}}},
				Summary: Summary{
					// One slice: no interval, so Error 0 and N 1.
					ThroughputOpsS: Throughput{Mean: 2e6, Error: 0, CI: 0.999, N: 1},
					LatencyUs:      Latency{Mean: 0.5, P50: 0.4, P75: 0.5, P90: 0.6, P99: 1.2, P999: 8, Max: 90},
					Ops:            100000, ClientCPUUsPerOp: 0.5,
					ServerCPUUsPerOp: nil, ServerRSSMaxBytes: nil, // no server process
					AvgMsPerOp: 0.0005,
				},
				GeneratorBound: true,
			},
		},
	}
}

func TestWriteValidateReadBack(t *testing.T) {
	want := sample(t)
	var buf bytes.Buffer
	if err := want.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := ValidateJSON(buf.Bytes()); err != nil {
		t.Fatalf("written file fails the schema: %v", err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("read back differs:\n%s", gj)
	}
	// Unknown server figures must be null, not 0: 0 would claim a free server.
	s := buf.String()
	if !strings.Contains(s, `"server_cpu_us_per_op": null`) || !strings.Contains(s, `"server_rss_max_bytes": null`) {
		t.Error("unknown server figures not written as null")
	}

	// The golden file pins the exact bytes, so a renamed field shows up in review.
	golden.Check(t, "results-v3.json", buf.Bytes())
}

func TestReadFileGolden(t *testing.T) {
	// A file written by an earlier build must keep reading: results-v1.json was
	// written by the build before version 2 (its forks called trials), results-v2.json
	// by the build before version 3 (a benchmark's rounds and slice length called
	// iterations, iteration_s and iteration_ops, a fork's slices iterations), and both
	// read as today's model, version 3, with the sample's figures.
	for _, name := range []string{"results-v1.json", "results-v2.json", "results-v3.json"} {
		got, err := ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, sample(t)) {
			t.Errorf("%s does not read back as the sample", name)
		}
	}
	if _, err := ReadFile(filepath.Join("testdata", "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("ReadFile of a missing file: %v, want an error naming it", err)
	}
}

// stablePaths are DESIGN.md's stable names, as paths into the sample's JSON.
// Each must be written and each must be required by the schema.
var stablePaths = []string{
	"schema_version",
	"environment",
	"benchmarks",
	"benchmarks/0/name",
	"benchmarks/0/protocol",
	"benchmarks/0/transport",
	"benchmarks/0/workload",
	"benchmarks/0/params",
	"benchmarks/0/load",
	"benchmarks/0/load/model",
	"benchmarks/0/load/concurrency",
	"benchmarks/0/load/connections",
	"benchmarks/0/load/rate",    // required for the open model (benchmark 0)
	"benchmarks/0/load/arrival", // required for the open model
	"benchmarks/0/forks",
	"benchmarks/0/summary",
	"benchmarks/0/summary/throughput_ops_s",
	"benchmarks/0/summary/throughput_ops_s/mean",
	"benchmarks/0/summary/throughput_ops_s/error",
	"benchmarks/0/summary/throughput_ops_s/ci",
	"benchmarks/0/summary/throughput_ops_s/n",
	"benchmarks/0/summary/latency_us",
	"benchmarks/0/summary/latency_us/mean",
	"benchmarks/0/summary/latency_us/p50",
	"benchmarks/0/summary/latency_us/p75",
	"benchmarks/0/summary/latency_us/p90",
	"benchmarks/0/summary/latency_us/p99",
	"benchmarks/0/summary/latency_us/p999",
	"benchmarks/0/summary/latency_us/max",
	"benchmarks/0/summary/ops",
	"benchmarks/0/summary/errors",
	"benchmarks/0/summary/client_cpu_us_per_op",
	"benchmarks/0/summary/server_cpu_us_per_op",
	"benchmarks/0/summary/bytes_sent_per_op",
	"benchmarks/0/summary/bytes_recv_per_op",
	"benchmarks/0/summary/server_rss_max_bytes",
	// The same names where they are null or belong to the closed model.
	"benchmarks/1/summary/server_cpu_us_per_op",
	"benchmarks/1/summary/server_rss_max_bytes",
	"benchmarks/1/load/model",
}

func TestSchemaRequiresStableNames(t *testing.T) {
	var buf bytes.Buffer
	if err := sample(t).Write(&buf); err != nil {
		t.Fatal(err)
	}
	for _, path := range stablePaths {
		var doc map[string]any
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if !deletePath(doc, path) {
			t.Errorf("%s: not in the written file", path)
			continue
		}
		data, _ := json.Marshal(doc)
		if err := ValidateJSON(data); err == nil {
			t.Errorf("%s: document without it still validates", path)
		}
	}
}

// deletePath removes the value at a slash-separated path and reports whether
// it was there.
func deletePath(v any, path string) bool {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		last := i == len(parts)-1
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[p]
			if !ok {
				return false
			}
			if last {
				delete(c, p)
				return true
			}
			v = next
		case []any:
			var idx int
			if err := json.Unmarshal([]byte(p), &idx); err != nil || idx >= len(c) || last {
				return false
			}
			v = c[idx]
		default:
			return false
		}
	}
	return false
}

func TestValidateJSONRejects(t *testing.T) {
	tests := []struct {
		name, from, to, wantErr string
	}{
		// The closed model needs no rate, but an unknown model is not a model.
		{"bad model", `"model": "closed"`, `"model": "half-open"`, "/benchmarks/1/load/model"},
		// Modes are JMH's two; "ops" would be ambiguous.
		{"bad mode", `"mode": "avgt"`, `"mode": "ops"`, "/benchmarks/1/mode"},
		// A count of ops cannot be fractional.
		{"fractional ops", `"ops": 100000,`, `"ops": 100000.5,`, "/ops"},
		// Latencies are never negative.
		{"negative latency", `"p50": 0.4`, `"p50": -0.4`, "p50"},
		// "started" must be an RFC 3339 time, since format is asserted.
		{"bad time", `"started": "2026-03-14T15:09:26.535Z"`, `"started": "yesterday"`, "/environment/started"},
		// Unknown server CPU is null, never a string.
		{"string cpu", `"server_cpu_us_per_op": null`, `"server_cpu_us_per_op": "n/a"`, "server_cpu_us_per_op"},
	}
	var buf bytes.Buffer
	if err := sample(t).Write(&buf); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(buf.String(), tt.from) {
				t.Fatalf("sample has no %s", tt.from)
			}
			doc := strings.Replace(buf.String(), tt.from, tt.to, 1)
			err := ValidateJSON([]byte(doc))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ValidateJSON = %v, want an error mentioning %q", err, tt.wantErr)
			}
		})
	}
	if err := ValidateJSON([]byte("{")); err == nil {
		t.Error("truncated JSON validated")
	}
}

func TestReadRejects(t *testing.T) {
	var buf bytes.Buffer
	if err := sample(t).Write(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	v2, err := os.ReadFile(filepath.Join("testdata", "results-v2.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, doc, wantErr string
	}{
		// A future version may have changed a stable name's meaning: refuse it.
		{"future version", strings.Replace(good, `"schema_version": 3`, `"schema_version": 4`, 1),
			"schema_version 4 is not supported: this wirebench reads versions 1 to 3"},
		// Version 0 never existed.
		{"zero version", strings.Replace(good, `"schema_version": 3`, `"schema_version": 0`, 1),
			"schema_version 0 is not supported"},
		// Each version calls the forks by its own name only.
		{"version 1 with forks", strings.Replace(string(v2), `"schema_version": 2`, `"schema_version": 1`, 1),
			"missing property 'trials'"},
		{"version 3 with trials", strings.Replace(good, `"forks": [`, `"trials": [`, 1),
			"missing property 'forks'"},
		// Some other JSON file given by mistake.
		{"no version", `{"benchmarks": []}`, "no schema_version: not a wirebench results file"},
		// A version that is not a number.
		{"string version", `{"schema_version": "1"}`, `schema_version "1" is not an integer`},
		// Right version, wrong shape: the schema's message comes through.
		{"invalid", `{"schema_version": 1, "benchmarks": []}`, "missing property 'environment'"},
		// Not JSON at all.
		{"not json", `name,ops`, "not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.doc))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Read = %v, want an error mentioning %q", err, tt.wantErr)
			}
		})
	}
}

func TestWriteFillsNilCollections(t *testing.T) {
	r := sample(t)
	r.Benchmarks[1].Params = nil
	r.Benchmarks[1].Forks = []ForkResult{{Index: 0, Error: "dial tcp: connection refused"}} // no slices
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if r.Benchmarks[1].Params != nil || r.Benchmarks[1].Forks[0].Slices != nil {
		t.Error("Write modified its receiver")
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if b := got.Benchmarks[1]; b.Params == nil || len(b.Params) != 0 || b.Forks[0].Slices == nil {
		t.Errorf("nil collections not written as empty: %+v", b)
	}
}

func TestWriteRefusesInvalid(t *testing.T) {
	r := sample(t)
	r.Benchmarks[0].Summary.ThroughputOpsS.Error = math.NaN()
	if err := r.Write(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("Write with a NaN = %v, want an error mentioning NaN", err)
	}
	r = sample(t)
	r.Benchmarks[0].Load.Rate = 0 // an open model without a rate
	if err := r.Write(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "rate") {
		t.Errorf("Write of an open model with no rate = %v, want a schema error", err)
	}
}

func TestLatencyFrom(t *testing.T) {
	h := hdrhistogram.New(1, 60e9, 3)
	for i := int64(1); i <= 1000; i++ {
		_ = h.RecordValue(i * 1000) // 1 µs .. 1000 µs, in ns
	}
	got := LatencyFrom(h)
	// Uniform 1..1000 µs: mean 500.5, the q-quantile is q·1000 µs, max 1000 µs;
	// HdrHistogram with 3 digits is exact to 0.1 %.
	want := Latency{Mean: 500.5, P50: 500, P75: 750, P90: 900, P99: 990, P999: 999, Max: 1000}
	fields := []struct {
		name      string
		got, want float64
	}{
		{"mean", got.Mean, want.Mean}, {"p50", got.P50, want.P50}, {"p75", got.P75, want.P75},
		{"p90", got.P90, want.P90}, {"p99", got.P99, want.P99}, {"p999", got.P999, want.P999},
		{"max", got.Max, want.Max},
	}
	for _, f := range fields {
		if math.Abs(f.got-f.want) > 1e-3*f.want {
			t.Errorf("%s = %v µs, want %v within 0.1%%", f.name, f.got, f.want)
		}
	}
	if l := LatencyFrom(hdrhistogram.New(1, 60e9, 3)); l != (Latency{}) {
		t.Errorf("empty histogram: %+v, want zero", l)
	}
	if l := LatencyFrom(nil); l != (Latency{}) {
		t.Errorf("nil histogram: %+v, want zero", l)
	}
}

func TestSchemaIsTheFile(t *testing.T) {
	// The exported Schema must be the file in the tree, which tools link to.
	b, err := os.ReadFile("results.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, Schema) {
		t.Error("embedded Schema differs from results.schema.json")
	}
	var v map[string]any
	if err := json.Unmarshal(Schema, &v); err != nil || v["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("Schema is not a draft 2020-12 schema: %v", err)
	}
}

// A smoke run says so in its file, with the command; a file from before the field
// reads as not smoke; the schema takes only a boolean.
func TestSmokeAndCommand(t *testing.T) {
	r := sample(t)
	r.Smoke, r.Command = true, "wirebench run quick --smoke"
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	if !strings.Contains(s, `"smoke": true`) || !strings.Contains(s, `"command": "wirebench run quick --smoke"`) {
		t.Errorf("smoke or command not written:\n%.400s", s)
	}
	got, err := Read(strings.NewReader(s))
	if err != nil || !got.Smoke || got.Command != r.Command {
		t.Errorf("read back: smoke %v, command %q, %v", got != nil && got.Smoke, got.Command, err)
	}
	if err := ValidateJSON([]byte(strings.Replace(s, `"smoke": true`, `"smoke": "yes"`, 1))); err == nil || !strings.Contains(err.Error(), "smoke") {
		t.Errorf("a string smoke validated: %v", err)
	}
	old, err := ReadFile(filepath.Join("testdata", "results-v1.json"))
	if err != nil || old.Smoke || old.Command != "" {
		t.Errorf("a file from before smoke: smoke %v, command %q, %v", old != nil && old.Smoke, old.Command, err)
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "results-v1.json")); err != nil || strings.Contains(string(b), `"smoke"`) {
		t.Errorf("a measured run writes smoke: false; it should leave the field out (%v)", err)
	}
}

// A ratio's interval is read from MinIntervalDF degrees of freedom and two rounds
// up; a file from before forks counts its rounds of one fork.
func TestRelativeHasInterval(t *testing.T) {
	for _, c := range []struct {
		r    Relative
		want bool
		says string
	}{
		{Relative{Rounds: 150, Forks: 15, DF: 14}, true, "15 forks"},
		{Relative{Rounds: 30, Forks: 3, DF: 2}, false, "3 forks"},
		{Relative{Rounds: 1, Forks: 1, DF: 0}, false, "1 round of one fork"},
		{Relative{Rounds: 40, Forks: 1, DF: 39}, true, "40 rounds of one fork"},
		{Relative{Rounds: 5}, true, "5 rounds of one fork"},
		{Relative{Rounds: 4}, false, "4 rounds of one fork"},
	} {
		if got := c.r.HasInterval(); got != c.want {
			t.Errorf("%+v: HasInterval %v, want %v", c.r, got, c.want)
		}
		if got := c.r.Samples(); got != c.says {
			t.Errorf("%+v: Samples %q, want %q", c.r, got, c.says)
		}
	}
}

// A file of schema_version 1, written by hand as that version was (its forks under
// "trials", a failed fork's place in its error's text): its forks are read as forks,
// and the file as today's version.
func TestReadVersion1Trials(t *testing.T) {
	got, err := ReadFile(filepath.Join("testdata", "results-v1-trials.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got.SchemaVersion != 3 {
		t.Errorf("schema_version %d, want 3 (read as today's model)", got.SchemaVersion)
	}
	b := got.Benchmarks[0]
	if len(b.Forks) != 2 || b.Forks[0].Index != 0 || len(b.Forks[0].Slices) != 1 || b.Forks[0].Slices[0].Ops != 5000 {
		t.Fatalf("forks %+v, want 2, the first of one slice of 5000 ops", b.Forks)
	}
	if f := b.Forks[1]; f.Index != 1 || f.Phase != "start" || f.Error != "exit status 1" {
		t.Errorf("second fork: index %d, phase %q, error %q; want 1, start, exit status 1", f.Index, f.Phase, f.Error)
	}
	var buf bytes.Buffer
	if err := got.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.Contains(s, `"schema_version": 3`) || !strings.Contains(s, `"forks": [`) || strings.Contains(s, `"trials"`) {
		t.Errorf("written again, not in version 3:\n%.600s", s)
	}
}
