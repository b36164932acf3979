package gonetrpcgob_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol/netrpcgob"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestConformance(t *testing.T) { protocoltest.Run(t, netrpcgob.Name) }
