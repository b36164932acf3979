package grpcgo_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/stack/grpcgo"
	"github.com/wirebench/wirebench/stack/internal/grpcx/grpcxtest"
)

func TestConformance(t *testing.T) {
	for _, p := range []string{grpcproto.Name, grpcavro.Name} {
		t.Run(p, func(t *testing.T) { protocoltest.RunStacks(t, p, grpcgo.Name, grpcgo.Name) })
	}
}

func TestAdapter(t *testing.T) {
	t.Run(grpcproto.Name, func(t *testing.T) { grpcxtest.Run(t, grpcproto.Name, "proto") })
	t.Run(grpcavro.Name, func(t *testing.T) { grpcxtest.Run(t, grpcavro.Name, grpcavro.CodecName) })
}
