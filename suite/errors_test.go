package suite_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// Each case is one class of mistake; want is the whole error text, positions included,
// where {settings} stands for the keys of the run settings, in spec.Settings' order
// (TestDocKeys holds docs/suites.md to that list, TestBadSettings reads each).
var errorCases = []struct {
	name, text, want string
}{
	{"capacity with rates", `
		|targets: [grpc-proto]
		|workloads: [person.get]
		|load: {rates: [100], capacity: {slo: p99=1ms}}`,
		`t.yaml:3:8: load: rates and capacity are two kinds of load: a capacity search finds the rate itself (its start_rate is where it begins)`},
	{"capacity with a bad objective", `
		|targets: [grpc-proto]
		|workloads: [person.get]
		|load:
		|  capacity:
		|    slo: [p99=10ms, q50=1ms]`,
		`t.yaml:5:21: slo: SLO "q50=1ms": want pQUANTILE=DURATION, e.g. p99=10ms`},
	{"capacity budget under a step", `
		|targets: [grpc-proto]
		|workloads: [person.get]
		|load:
		|  capacity: {slo: p99=10ms, budget: 100ms}`,
		`t.yaml:4:13: load.capacity: budget: 100ms, want at least one step (1s)`},
	{"capacity with an unknown key", `
		|targets: [grpc-proto]
		|workloads: [person.get]
		|load:
		|  capacity: {slo: p99=10ms, slos: p50=1ms}`,
		`t.yaml:4:29: unknown key "slos" in load.capacity (did you mean "slo"?) (valid: slo, max_error_rate, budget, step, confirm, resolution, start_rate, sweep)`},
	{"capacity with a negative step", `
		|targets: [grpc-proto]
		|workloads: [person.get]
		|load:
		|  capacity: {slo: p99=10ms, step: -1s}`,
		`t.yaml:4:35: step: -1s is out of range [0s, 24h0m0s]`},
	{"capacity sweep not a boolean", `
		|targets: [grpc-proto]
		|workloads: [person.get]
		|load:
		|  capacity: {slo: p99=10ms, sweep: yes please}`,
		`t.yaml:4:36: sweep: want true or false, got "yes please"`},
	{"unknown key at the top level", `
		|targets: [direct]
		|workloads: [person.get]
		|warmup: 1s`,
		`t.yaml:3:1: unknown key "warmup" in the suite (valid: name, description, views, original, deviations, baseline, interleave_by, process, skip, defaults, load, targets, workloads, workers, link); warmup is a run setting: put it under defaults (or in a target or workload entry)`},
	{"unknown key in defaults", `
		|defaults:
		|  warmup: 1s
		|  rouns: 3
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:3:3: unknown key "rouns" in defaults (did you mean "rounds"?) (valid: {settings})`},
	{"load in defaults", `
		|defaults:
		|  load: {concurrency: 4}
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:2:3: unknown key "load" in defaults (valid: {settings}); load goes at the top level, in a targets entry or in a workloads entry`},
	{"unknown key in a target", `
		|targets:
		|  - protocol: direct
		|  - protocol: grpc-proto
		|    transport: unix
		|workloads: [person.get]`,
		`t.yaml:4:5: unknown key "transport" in targets[1] (valid: protocol, server_stack, client_stack, label, transports, tls, address, options, server_options, url, call, proto, import_paths, protoset, data, data_file, metadata, expect, http_method, headers, body, {settings}, load); did you mean transports?`},
	{"unknown key in a workload", `
		|targets: [direct]
		|workloads:
		|  - name: echo
		|    payload: 1KiB`,
		`t.yaml:4:5: unknown key "payload" in workloads[0] (valid: name, payloads, increments, trades, trade, {settings}, load); did you mean payloads?`},
	{"unknown key in load", `
		|targets: [direct]
		|workloads: [person.get]
		|load: {concurrency: 4, rate: 100}`,
		`t.yaml:3:24: unknown key "rate" in load (did you mean "rates"?) (valid: concurrency, connections, rates, arrival, capacity)`},
	{"repeated key", `
		|targets: [direct]
		|workloads: [person.get]
		|defaults:
		|  forks: 2
		|  forks: 3`,
		`t.yaml:5:3: key "forks" repeated in defaults (first at line 4)`},
	{"a setting under its former name and its own", `
		|targets: [direct]
		|workloads: [person.get]
		|defaults:
		|  forks: 2
		|  trials: 3`,
		`t.yaml:5:3: key "trials" in defaults sets forks again (first at line 4, as "forks"): trials is its former name`},
	{"a former setting key at the top level", `
		|trials: 3
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:1:1: unknown key "trials" in the suite (valid: name, description, views, original, deviations, baseline, interleave_by, process, skip, defaults, load, targets, workloads, workers, link); trials is a run setting: put it under defaults (or in a target or workload entry)`},
	{"wrong type: a word for an integer", `
		|defaults: {rounds: three}
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:1:20: rounds: want an integer, got "three"`},
	{"wrong type: a mapping for a list", `
		|targets: {protocol: direct}
		|workloads: [person.get]`,
		`t.yaml:1:10: targets: want a list (lines starting with -), got a mapping`},
	{"wrong type: a list for options", `
		|targets:
		|  - protocol: grpc-proto
		|    options: [window]
		|workloads: [person.get]`,
		`t.yaml:3:14: options: want a mapping of option names to values, got a list`},
	{"integer out of range", `
		|defaults: {forks: 0}
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:1:19: forks: 0 is out of range [1, 1000]`},
	{"bad mode", `
		|defaults: {mode: fast}
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:1:18: mode: "fast", want thrpt (ops/s) or avgt (time per op)`},
	{"bad duration", `
		|defaults:
		|  warmup: 1 sec
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:2:11: warmup: "1 sec" is not a duration (want e.g. 500ms, 1s, 1m30s)`},
	{"adaptive warm-up shorter than the warm-up", `
		|defaults: {warmup: 5s}
		|targets:
		|  - {protocol: direct, warmup_max: 2s}
		|workloads: [person.get]`,
		`t.yaml:3:5: warmup_max: 2s, want 0 (a fixed warm-up) or from the warmup (5s, and at least one 1s slice) to 24h0m0s`},
	{"duration without a unit", `
		|defaults: {duration: 5}
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:1:22: duration: "5" is not a duration (want e.g. 500ms, 1s, 1m30s)`},
	{"duration and ops together", `
		|defaults:
		|  duration: 1s
		|  ops: 100
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:3:3: set duration or ops, not both: a slice lasts a time or a number of ops`},
	{"bad size", `
		|targets: [direct]
		|workloads:
		|  - name: echo
		|    payloads: [1KiB, 1QB]`,
		`t.yaml:4:22: payloads: size "1QB": want a number of bytes such as 11, 1KiB, 100KiB or 4MiB`},
	{"unknown protocol", `
		|targets:
		|  - protocol: soap
		|workloads: [person.get]`,
		`t.yaml:2:15: unknown protocol "soap" (known: capnp, connect-json, connect-proto, direct, grpc-avro, grpc-proto, grpc-web, http-json, netrpc-gob, thrift-binary, thrift-compact, websocket)`},
	{"unknown protocol, shorthand entry", `
		|targets: [direct, thrift]
		|workloads: [person.get]`,
		`t.yaml:1:19: unknown protocol "thrift" (known: capnp, connect-json, connect-proto, direct, grpc-avro, grpc-proto, grpc-web, http-json, netrpc-gob, thrift-binary, thrift-compact, websocket)`},
	{"unknown transport", `
		|targets:
		|  - protocol: http-json
		|    transports: [tcp, sctp]
		|workloads: [person.get]`,
		`t.yaml:3:23: transports: "sctp", want tcp, unix, tls (tcp with TLS 1.3) or quic (HTTP/3's UDP)`},
	{"bad address", `
		|targets:
		|  - protocol: http-json
		|    address: http://localhost:8080
		|workloads: [person.get]`,
		`t.yaml:3:14: address: address "http://localhost:8080": unknown scheme "http", want tcp, unix or udp`},
	{"address of an in-process protocol", `
		|targets:
		|  - protocol: direct
		|    address: tcp://localhost:8080
		|workloads: [person.get]`,
		`t.yaml:3:5: address: direct is in-process: it has no server to address`},
	{"unknown workload", `
		|targets: [direct]
		|workloads:
		|  - name: person.get
		|  - name: person.delete`,
		`t.yaml:4:11: unknown workload "person.delete" (known: person.list, person.get, person.links, person.create, person.compose, person.program, connect, echo, echo+stats, pingpong, stream, message)`},
	{"param out of range", `
		|targets: [direct]
		|workloads:
		|  - name: echo
		|    payloads: [1KiB, 128MiB]`,
		`t.yaml:4:22: payloads: echo: payload 134217728 out of range [0, 67108864]`},
	{"increments out of range", `
		|targets: [direct]
		|workloads:
		|  - name: pingpong
		|    increments: 0`,
		`t.yaml:4:17: increments: pingpong: increments 0 out of range [1, 1000000]`},
	{"param the workload does not take", `
		|targets: [direct]
		|workloads:
		|  - name: person.get
		|    trades: [100]`,
		`t.yaml:4:5: trades: person.get takes no trades (it has no parameters)`},
	{"bad load: concurrency 0", `
		|targets: [direct]
		|workloads: [person.get]
		|load:
		|  concurrency: [1, 0, 8]`,
		`t.yaml:4:20: closed model: concurrency 0, want at least 1`},
	{"bad load: more connections than calls in flight", `
		|targets: [direct]
		|workloads: [person.get]
		|load:
		|  concurrency: 4
		|  connections: 8`,
		`t.yaml:5:16: connections 8, want 1 to 4 (the calls in flight): a connection needs a caller`},
	{"bad load: rate 0", `
		|targets: [direct]
		|workloads: [person.get]
		|load:
		|  rates: [1000, 0]`,
		`t.yaml:4:17: open model: rate 0, want a positive number of ops per second`},
	{"bad load: arrival", `
		|targets: [direct]
		|workloads: [person.get]
		|load: {rates: 100, arrival: bursty}`,
		`t.yaml:3:29: open model: arrival "bursty", want constant or poisson`},
	{"bad load: arrival without rates", `
		|targets: [direct]
		|workloads: [person.get]
		|load: {concurrency: 10, arrival: poisson}`,
		`t.yaml:3:34: closed model: arrival poisson needs a rate (it spaces the arrivals of the open loop)`},
	{"bad load in a workload entry", `
		|targets: [direct]
		|workloads:
		|  - name: person.get
		|    load: {concurrency: -1}`,
		`t.yaml:4:25: closed model: concurrency -1, want at least 1`},
	{"bad CPU list", `
		|defaults:
		|  server_cpus: "0-"
		|targets: [direct]
		|workloads: [person.get]`,
		`t.yaml:2:16: server_cpus: cpu list "0-": missing CPU number (or none to not pin)`},
	{"duplicate benchmark from a repeated transport", `
		|targets:
		|  - protocol: grpc-proto
		|    transports: [tcp, unix, tcp]
		|workloads: [person.get]`,
		`t.yaml:3:29: duplicate benchmark "grpc-proto/tcp/person.get/closed-c50", also made by line 3: a name is protocol, stacks, transport, workload, params and load, so entries that differ only in options or settings collide; give targets a label`},
	{"duplicate benchmark from targets that differ in options only", `
		|targets:
		|  - protocol: grpc-proto
		|  - protocol: grpc-proto
		|    options: {window: 64KiB}
		|workloads: [person.get]`,
		`t.yaml:3:5: duplicate benchmark "grpc-proto/tcp/person.get/closed-c50", also made by line 2: a name is protocol, stacks, transport, workload, params and load, so entries that differ only in options or settings collide; give targets a label`},
	{"duplicate benchmark from equal payloads", `
		|targets: [direct]
		|workloads:
		|  - name: echo
		|    payloads: [1KiB, 1024]`,
		`t.yaml:4:22: duplicate benchmark "direct/inproc/echo[payload=1024]/closed-c50", also made by line 4: a name is protocol, stacks, transport, workload, params and load, so entries that differ only in options or settings collide; give targets a label`},
	{"YAML syntax error", `
		|targets: [direct]
		|workloads:
		|  - name: echo
		| payloads: [1KiB]`,
		`t.yaml:3: YAML syntax: did not find expected key`},
	{"YAML syntax error: a tab", `
		|targets: [direct]
		|workloads: [person.get]
		|load:
		|	concurrency: 4`,
		`t.yaml:4: YAML syntax: found character that cannot start any token`},
	{"empty targets", `
		|targets: []
		|workloads: [person.get]`,
		`t.yaml:1:1: targets: empty; list at least one (e.g. - protocol: grpc-proto)`},
	{"empty workloads", `
		|targets: [direct]
		|workloads:`,
		`t.yaml:2:1: workloads: empty; list at least one (e.g. - name: person.get)`},
	{"no targets", `
		|name: x
		|workloads: [person.get]`,
		`t.yaml:1:1: no targets: a suite needs at least one (e.g. - protocol: grpc-proto)`},
	{"empty list of payloads", `
		|targets: [direct]
		|workloads:
		|  - name: echo
		|    payloads: []`,
		`t.yaml:4:15: payloads: empty list; give at least one value`},
	{"runtime_args not options", `
		|targets: [grpc-proto]
		|workloads: [person.get]
		|defaults: {runtime_args: "-Xmx2g Main"}`,
		`t.yaml:3:26: runtime_args: "Main", want the runtime's options separated by spaces, e.g. "-Xms2G -Xmx2G" (the driver names what it runs)`},
	{"empty file", ``,
		`t.yaml:1:1: the suite is empty; it needs at least targets and workloads (see docs/suites.md)`},
	{"a list for a suite", `
		|- direct`,
		`t.yaml:1:1: a suite is a mapping of keys (name, targets, workloads, ...), not a list`},
}

func TestErrors(t *testing.T) {
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			s, err := suite.Parse("t.yaml", []byte(doc(c.text)))
			if err == nil {
				t.Fatalf("Parse succeeded with %d benchmarks, want error\n%s", len(s.Benchmarks), c.want)
			}
			want := strings.ReplaceAll(c.want, "{settings}", strings.Join(spec.SettingKeys(), ", "))
			if got := err.Error(); got != want {
				t.Errorf("error\n got: %s\nwant: %s", got, want)
			}
		})
	}
}

// TestErrorsJoined checks that one Parse reports every problem, sorted by position,
// each an *Error.
func TestErrorsJoined(t *testing.T) {
	_, err := suite.Parse("t.yaml", []byte(doc(`
		|defaults:
		|  rounds: 0
		|targets:
		|  - protocol: soap
		|  - protocol: http-json
		|    transports: [tcp, udp]
		|workloads:
		|  - name: echo
		|    payloads: [-1]
		|warmup: 1s`)))
	want := []string{
		`t.yaml:2:11: rounds: 0 is out of range [1, 1000000]`,
		`t.yaml:4:15: unknown protocol "soap" (known: capnp, connect-json, connect-proto, direct, grpc-avro, grpc-proto, grpc-web, http-json, netrpc-gob, thrift-binary, thrift-compact, websocket)`,
		`t.yaml:6:23: transports: "udp", want tcp, unix, tls (tcp with TLS 1.3) or quic (HTTP/3's UDP)`,
		`t.yaml:9:16: payloads: size "-1": want a number of bytes such as 11, 1KiB, 100KiB or 4MiB`,
		`t.yaml:10:1: unknown key "warmup" in the suite (valid: name, description, views, original, deviations, baseline, interleave_by, process, skip, defaults, load, targets, workloads, workers, link); warmup is a run setting: put it under defaults (or in a target or workload entry)`,
	}
	if err == nil {
		t.Fatal("Parse succeeded")
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
	var e *suite.Error
	if !errors.As(err, &e) || e.File != "t.yaml" || e.Line != 2 || e.Column != 11 {
		t.Errorf("errors.As(*suite.Error) = %+v", e)
	}
}

func TestTooBig(t *testing.T) {
	list := func(n int) string {
		var items []string
		for i := 1; i <= n; i++ {
			items = append(items, strconv.Itoa(i))
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	for _, c := range []struct{ text, want string }{
		{ // 101 payloads × 100 load points: over the suite's limit
			"targets: [direct]\nworkloads:\n  - name: echo\n    payloads: " + list(101) + "\nload:\n  concurrency: " + list(100) + "\n",
			"t.yaml:1:1: the suite expands to over 10000 benchmarks",
		},
		{ // 101 rates × 100 concurrencies: over the limit within one load block
			"targets: [direct]\nworkloads: [person.get]\nload:\n  rates: " + list(101) + "\n  concurrency: " + list(100) + "\n",
			"t.yaml:4:3: load: 101 rates × 100 concurrencies × 1 connection counts is over 10000 load points",
		},
	} {
		if _, err := suite.Parse("t.yaml", []byte(c.text)); err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %s", err, c.want)
		}
	}
}

func TestTLSErrors(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"tls on unix", `
		|targets:
		|  - protocol: http-json
		|    transports: [unix]
		|    tls: true
		|workloads: [person.get]`, `t.yaml:4:5: tls: TLS is for tcp; this target lists unix`},
		{"tls not a bool", `
		|targets:
		|  - protocol: http-json
		|    tls: sometimes
		|workloads: [person.get]`, `t.yaml:3:10: tls: "sometimes", want true or false`},
		{"tls in-process", `
		|targets:
		|  - protocol: direct
		|    tls: true
		|workloads: [person.get]`, `t.yaml:3:5: tls: direct is in-process: it has no wire to encrypt`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := suite.Parse("t.yaml", []byte(doc(c.doc)))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}
