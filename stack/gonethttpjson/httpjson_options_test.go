package gonethttpjson_test

import (
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// The servers take a delay and refuse a bad one, or any other option, naming it.
func TestServerDelayOption(t *testing.T) {
	ref := contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize))
	for _, stack := range stacks {
		s, err := protocol.LookupStack(httpjson.Name, stack, protocol.ServerSide)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := s.NewServer(ref, protocol.ServerConfig{Options: map[string]string{httpjson.OptionDelay: "2ms"}})
		if err != nil {
			t.Fatalf("%s with delay=2ms: %v", stack, err)
		}
		srv.Close()
		for _, bad := range []map[string]string{{httpjson.OptionDelay: "soon"}, {httpjson.OptionDelay: "-1ms"}, {httpjson.OptionDelay: "1m"}, {"nagle": "on"}} {
			if _, err := s.NewServer(ref, protocol.ServerConfig{Options: bad}); err == nil {
				t.Errorf("%s accepted options %v", stack, bad)
			}
		}
	}
}
