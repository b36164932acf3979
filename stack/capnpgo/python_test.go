package capnpgo_test

// An outside client against the capnp server: Python's pycapnp (protocoltest.Pycapnp).
// Skips, saying so, when python3 or pycapnp is missing (make tools installs pycapnp).

import (
	"testing"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/capnprpc"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestPycapnpClient(t *testing.T) {
	tg := protocoltest.Start(t, capnprpc.Name, "tcp", nil, protocol.ServerConfig{})
	protocoltest.Pycapnp(t, "../..", tg.Addr.Address, tg.Dataset)
}
