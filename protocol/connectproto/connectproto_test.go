package connectproto_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol/connectproto"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestConformance(t *testing.T) {
	for _, p := range []string{connectproto.ConnectProto, connectproto.ConnectJSON, connectproto.GRPCWeb} {
		t.Run(p, func(t *testing.T) { protocoltest.Run(t, p) })
	}
}
