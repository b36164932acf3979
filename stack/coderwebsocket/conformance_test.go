package coderwebsocket_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/websocketproto"
)

func TestConformance(t *testing.T) { protocoltest.Run(t, websocketproto.Name) }
