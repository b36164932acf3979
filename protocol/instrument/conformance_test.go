package instrument_test

import (
	"testing"

	_ "github.com/wirebench/wirebench/protocol/all"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/instrument"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

// TestConformance runs the conformance suite with the instrument as the client,
// against every server stack of each protocol it speaks.
func TestConformance(t *testing.T) {
	for _, p := range []string{httpjson.Name, grpcproto.Name, grpcavro.Name} {
		t.Run(p, func(t *testing.T) { protocoltest.RunClientStack(t, p, instrument.Name) })
	}
}
