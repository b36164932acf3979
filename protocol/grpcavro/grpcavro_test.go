package grpcavro_test

import (
	"testing"

	"github.com/wirebench/wirebench/internal/grpcx/grpcxtest"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestConformance(t *testing.T) { protocoltest.Run(t, grpcavro.Name) }

func TestAdapter(t *testing.T) { grpcxtest.Run(t, grpcavro.Name, grpcavro.CodecName) }
