package direct_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol/direct"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestConformance(t *testing.T) { protocoltest.Run(t, direct.Name) }
