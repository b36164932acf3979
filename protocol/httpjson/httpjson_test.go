package httpjson_test

import (
	"testing"

	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestConformance(t *testing.T) { protocoltest.Run(t, httpjson.Name) }
