package thriftgo_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
)

func TestConformance(t *testing.T) {
	for _, p := range []string{thriftrpc.Binary, thriftrpc.Compact} {
		t.Run(p, func(t *testing.T) { protocoltest.Run(t, p) })
	}
}
