package connectgo_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol/connectproto"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/stack/connectgo"
)

func TestConformance(t *testing.T) {
	for _, p := range []string{connectproto.ConnectProto, connectproto.ConnectJSON, connectproto.GRPCWeb} {
		t.Run(p, func(t *testing.T) { protocoltest.Run(t, p) })
	}
}

// The same handlers and clients over HTTP/3 pass the suite over QUIC, for each of
// the three protocols.
func TestConformanceH3(t *testing.T) {
	for _, p := range []string{connectproto.ConnectProto, connectproto.ConnectJSON, connectproto.GRPCWeb} {
		t.Run(p, func(t *testing.T) {
			protocoltest.RunStacks(t, p, connectgo.H3Name, connectgo.H3Name)
		})
	}
}
