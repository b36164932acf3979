package instrument_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol"
	_ "github.com/wirebench/wirebench/protocol/all"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/instrument"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

// TestConformance runs the conformance suite with the instrument as the client,
// against every server stack of each protocol it speaks that runs in this process
// (the JVM stacks are tested with their worker).
func TestConformance(t *testing.T) {
	for _, p := range []string{httpjson.Name, grpcproto.Name, grpcavro.Name} {
		for _, s := range protocol.Stacks(p) {
			if s.Has(protocol.ServerSide) && s.NewServer != nil {
				t.Run(p+"/"+s.Name, func(t *testing.T) { protocoltest.RunStacks(t, p, s.Name, instrument.Name) })
			}
		}
	}
}
