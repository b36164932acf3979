package suite_test

import (
	"strings"
	"testing"

	"github.com/wirebench/wirebench/suite"
)

// TestKeyHints: a key mistyped, written under its flag's name or put in the wrong
// place, in every part of a suite file, is reported at its FILE:LINE:COL with the
// valid keys and what to write instead: the key it is another name of, where it
// goes, or the nearest valid key. start is the error's text up to the valid list,
// end its text after it.
func TestKeyHints(t *testing.T) {
	const entries = "targets: [grpc-proto]\nworkloads: [person.get]\n"
	for _, c := range []struct{ text, start, end string }{
		// The workers block (spec.WorkersKeys).
		{"workers:\n  server_worker: tcp://h:1\n" + entries,
			`t.yaml:2:3: unknown key "server_worker" in workers (valid: server, clients,`, `netns); did you mean server?`},
		{"workers:\n  tokn_file: /t\n" + entries,
			`t.yaml:2:3: unknown key "tokn_file" in workers (did you mean "token_file"?) (valid: server,`, `netns)`},
		{"workers:\n  token: /t\n" + entries,
			`t.yaml:2:3: unknown key "token" in workers (valid: server,`, `netns); did you mean token_file?`},
		{"workers:\n  link: delay=1ms\n" + entries,
			`t.yaml:2:3: unknown key "link" in workers (valid: server,`, `netns); link goes at the top level`},
		{"workers:\n  warmup: 1s\n" + entries,
			`t.yaml:2:3: unknown key "warmup" in workers (valid: server,`, `netns); warmup is a run setting: put it under defaults (or in a target or workload entry)`},
		// The top level (spec.FileKeys).
		{"server: tcp://h:1\n" + entries,
			`t.yaml:1:1: unknown key "server" in the suite (valid: name, description,`, `workers, link); server goes in the workers block`},
		{"targts: [grpc-proto]\n" + entries,
			`t.yaml:1:1: unknown key "targts" in the suite (did you mean "targets"?) (valid: name,`, `workers, link)`},
		{"target: grpc-proto\n" + entries,
			`t.yaml:1:1: unknown key "target" in the suite (valid: name,`, `workers, link); did you mean targets?`},
		// A target entry (spec.TargetKeys, spec.OutsideKeys, the settings).
		{"targets:\n  - protocol: grpc-proto\n    server_stacks: grpc-go\nworkloads: [person.get]\n",
			`t.yaml:3:5: unknown key "server_stacks" in targets[0] (valid: protocol, server_stack,`, `load); did you mean server_stack?`},
		{"targets:\n  - protocol: grpc-proto\n    server-option: {a: b}\nworkloads: [person.get]\n",
			`t.yaml:3:5: unknown key "server-option" in targets[0] (valid: protocol,`, `load); did you mean server_options?`},
		{"targets:\n  - protocol: grpc-proto\n    seed: 3\nworkloads: [person.get]\n",
			`t.yaml:3:5: unknown key "seed" in targets[0] (valid: protocol,`, `load); did you mean data_seed?`},
		{"targets:\n  - protocol: grpc-proto\n    payloads: 1KiB\nworkloads: [echo]\n",
			`t.yaml:3:5: unknown key "payloads" in targets[0] (valid: protocol,`, `load); payloads goes in a workloads entry`},
		{"targets:\n  - protocol: grpc-proto\n    name: x\nworkloads: [person.get]\n",
			`t.yaml:3:5: unknown key "name" in targets[0] (valid: protocol,`, `load); name goes at the top level or in a workloads entry`},
		{"targets:\n  - protocol: grpc-proto\n    workload: echo\nworkloads: [person.get]\n",
			`t.yaml:3:5: unknown key "workload" in targets[0] (valid: protocol,`, `load); workload goes at the top level (as workloads) or in a workloads entry (as name)`},
		// A workload entry (spec.WorkloadKeys, the settings).
		{"targets: [grpc-proto]\nworkloads:\n  - name: person.get\n    protocol: grpc-proto\n",
			`t.yaml:4:5: unknown key "protocol" in workloads[0] (valid: name, payloads,`, `load); protocol goes in a targets entry`},
		{"targets: [grpc-proto]\nworkloads:\n  - name: pingpong\n    increment: 3\n",
			`t.yaml:4:5: unknown key "increment" in workloads[0] (did you mean "increments"?) (valid: name,`, `load)`},
		{"targets: [grpc-proto]\nworkloads:\n  - name: echo\n    payload: 3\n",
			`t.yaml:4:5: unknown key "payload" in workloads[0] (valid: name,`, `load); did you mean payloads?`},
	} {
		_, err := suite.Parse("t.yaml", []byte(c.text))
		if err == nil {
			t.Errorf("%q: parsed, want an error", c.text)
			continue
		}
		if got := err.Error(); !strings.HasPrefix(got, c.start) || !strings.HasSuffix(got, c.end) {
			t.Errorf("%q: error\n got: %s\nwant: %s ... %s", c.text, got, c.start, c.end)
		}
	}
}
