package gonethttpjson_test

import (
	"maps"
	"runtime"
	"testing"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/stack/gonethttpjson"
	"github.com/wirebench/wirebench/stack/gotunedjson"
)

// stacks are the Go stacks of the protocol over HTTP/1.1, wherever their packages
// live; every server is tested with every client.
var stacks = []string{gonethttpjson.Name, gotunedjson.Name}

func TestConformance(t *testing.T) {
	for _, server := range stacks {
		for _, client := range stacks {
			t.Run("server="+server+",client="+client, func(t *testing.T) {
				protocoltest.RunStacks(t, httpjson.Name, server, client)
			})
		}
		// Both servers speak HTTP/2 to the HTTP/2 client (h2c, and h2 on TLS).
		t.Run("server="+server+",client="+gonethttpjson.H2Name, func(t *testing.T) {
			protocoltest.RunStacks(t, httpjson.Name, server, gonethttpjson.H2Name)
		})
	}
}

// TestDefaultStacks checks what a benchmark that names no stack gets: the production
// stack on both sides, standard library only.
func TestDefaultStacks(t *testing.T) {
	for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
		st, err := protocol.LookupStack(httpjson.Name, "", side)
		if err != nil {
			t.Fatal(err)
		}
		if st.Name != "go-nethttp-json" || st.Tier != protocol.Production {
			t.Errorf("default %s stack: %s (%s), want go-nethttp-json (production)", side, st.Name, st.Tier)
		}
		// The Go standard library only, named by package, versioned by the release.
		want := map[string]string{"go": runtime.Version(), "net/http": runtime.Version(), "encoding/json": runtime.Version()}
		if !maps.Equal(st.Libraries, want) {
			t.Errorf("default %s stack's libraries: %v, want %v", side, st.Libraries, want)
		}
	}
	tuned, err := protocol.LookupStack(httpjson.Name, "go-tuned-json", protocol.ServerSide)
	if err != nil || tuned.Tier != protocol.Tuned {
		t.Errorf("go-tuned-json: %+v, %v; want a tuned stack", tuned, err)
	}
}
