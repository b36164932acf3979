package capnpgo_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol/capnprpc"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestConformance(t *testing.T) { protocoltest.Run(t, capnprpc.Name) }
