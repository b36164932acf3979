package results

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// A stack's runtime options under their former name, jvm_args (files written before
// 2026-11-29), are read as runtime_args and written again under that name; a file
// with runtime_args reads them as they are.
func TestStackFormerJVMArgs(t *testing.T) {
	var old Stack
	if err := json.Unmarshal([]byte(`{"name": "grpc-java-netty", "language": "java", "tier": "production", "jvm_args": ["-Xms1g", "-Xmx2G"]}`), &old); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(old.RuntimeArgs, []string{"-Xms1g", "-Xmx2G"}) || old.Name != "grpc-java-netty" || old.Tier != "production" {
		t.Errorf("read %+v, want grpc-java-netty, production, runtime args [-Xms1g -Xmx2G]", old)
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(old); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.Contains(s, `"runtime_args":["-Xms1g","-Xmx2G"]`) || strings.Contains(s, "jvm_args") {
		t.Errorf("written again: %s, want runtime_args and no jvm_args", s)
	}
	var now Stack
	if err := json.Unmarshal([]byte(`{"name": "fastify", "language": "node", "tier": "production", "runtime_args": ["--max-old-space-size=4096"]}`), &now); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(now.RuntimeArgs, []string{"--max-old-space-size=4096"}) {
		t.Errorf("runtime args %q, want [--max-old-space-size=4096]", now.RuntimeArgs)
	}
}
