package suite_test

import (
	"testing"
)

// The message workload's settings are suite settings: in a workload entry they name
// the message of that entry's benchmarks, and its name says the message.
func TestMessageWorkloadEntry(t *testing.T) {
	s := mustParse(t, `
		|defaults:
		|  message_string_len: 64
		|targets: [grpc-proto, http-json]
		|workloads:
		|  - echo
		|  - name: message
		|    message_proto: shop.proto
		|    message_import_paths: protos,vendor
		|    message: shop.v1.Order
		|    message_repeated: 5`)
	var n int
	for _, b := range s.Benchmarks {
		sp := b.Spec
		if sp.Workload != "message" {
			if sp.MessageName != "" || sp.MessageStringLen != 64 {
				t.Errorf("%s: message %q, string length %d; want none and the default 64", sp.Name(), sp.MessageName, sp.MessageStringLen)
			}
			continue
		}
		n++
		if sp.MessageProto != "shop.proto" || sp.MessageImportPaths != "protos,vendor" || sp.MessageName != "shop.v1.Order" ||
			sp.MessageRepeated != 5 || sp.MessageStringLen != 64 {
			t.Errorf("%s: %+v", sp.Name(), sp)
		}
		if want := sp.Protocol + "/tcp/message[message=shop.v1.Order]/closed-c50"; sp.Name() != want {
			t.Errorf("name %q, want %q", sp.Name(), want)
		}
	}
	if n != 2 {
		t.Errorf("%d message benchmarks, want 2", n)
	}
}
