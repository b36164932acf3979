package all_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/wirebench/wirebench/protocol"
	_ "github.com/wirebench/wirebench/stack/all"
)

// TestDefaultStacksRegistered: a protocol package names its default stacks as
// strings and the stack packages register them, so nothing but this test ties the
// two. Every protocol's default of each side is a registered Go stack with that side,
// and the defaults are the stock library stacks written out here.
func TestDefaultStacksRegistered(t *testing.T) {
	want := map[string]string{
		"capnp":          "capnp-go",
		"connect-json":   "connect-go",
		"connect-proto":  "connect-go",
		"direct":         "go-call",
		"grpc-avro":      "grpc-go",
		"grpc-proto":     "grpc-go",
		"grpc-web":       "connect-go",
		"http-json":      "go-nethttp-json",
		"netrpc-gob":     "go-netrpc-gob",
		"thrift-binary":  "thrift-go",
		"thrift-compact": "thrift-go",
		"websocket":      "coder-websocket",
	}
	if got := protocol.Names(); !slices.Equal(got, slices.Sorted(maps.Keys(want))) {
		t.Errorf("protocols %v, want %v", got, slices.Sorted(maps.Keys(want)))
	}
	for _, p := range protocol.All() {
		for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
			if p.InProcess && side == protocol.ServerSide {
				continue // the service runs in the client
			}
			st, err := protocol.LookupStack(p.Name, "", side)
			if err != nil {
				t.Errorf("%s: default %s stack: %v", p.Name, side, err)
				continue
			}
			if st.Name != want[p.Name] || st.Worker != protocol.WorkerGo || st.Tier != protocol.Production {
				t.Errorf("%s: default %s stack %s (worker %s, %s), want %s (go, production)",
					p.Name, side, st.Name, st.Worker, st.Tier, want[p.Name])
			}
		}
	}
}
