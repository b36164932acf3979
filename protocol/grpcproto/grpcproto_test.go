package grpcproto_test

import (
	"testing"

	"github.com/wirebench/wirebench/internal/grpcx/grpcxtest"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestConformance(t *testing.T) { protocoltest.Run(t, grpcproto.Name) }

func TestAdapter(t *testing.T) { grpcxtest.Run(t, grpcproto.Name, "proto") }
