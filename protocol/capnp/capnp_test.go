package capnprpc_test

import (
	"testing"

	capnprpc "github.com/wirebench/wirebench/protocol/capnp"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestConformance(t *testing.T) { protocoltest.Run(t, capnprpc.Name) }
