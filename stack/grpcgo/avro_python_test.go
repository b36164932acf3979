package grpcgo_test

// An outside client against the grpc-avro server: Python's grpcio, which always sends
// "content-type: application/grpc", with fastavro encoding and decoding raw bytes by
// the schemas in contract/schema/avro. Skips, saying so, when python3, grpcio or
// fastavro is missing (make tools installs them).

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func TestGrpcioClient(t *testing.T) {
	py := protocoltest.Python(t, "grpc, fastavro", "grpcio==1.85.1 fastavro==1.13.1")
	schemas, err := filepath.Abs("../../contract/schema/avro")
	if err != nil {
		t.Fatal(err)
	}
	tg := protocoltest.Start(t, grpcavro.Name, "tcp", nil, protocol.ServerConfig{})

	const trades = 300
	payload := strings.Repeat("héllo, wirebench ", 64)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "testdata/grpcio_client.py", schemas, tg.Addr.Address, payload, strconv.Itoa(trades))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("grpcio client: %v\nstdout: %.2000s\nstderr: %s", err, out, stderr.String())
	}
	// fastavro's records have the schemas' field names, which contract's JSON tags
	// share; the Side enum comes as its symbol.
	var got struct {
		Person  contract.Person
		Echo    string
		Unknown string
		Trades  []struct {
			contract.Trade
			Side string `json:"side"` // hides the embedded one
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("grpcio client output %.2000q: %v", out, err)
	}

	want, _ := tg.Dataset.Person(1)
	if !got.Person.Equal(want) {
		t.Errorf("GetPerson(1) = %+v, want %+v", got.Person, want)
	}
	if got.Echo != payload {
		t.Errorf("Echo returned %d bytes %.40q..., want the %d sent", len(got.Echo), got.Echo, len(payload))
	}
	if got.Unknown != "NOT_FOUND: no person with id -5" {
		t.Errorf("GetPerson(-5): %q, want NOT_FOUND", got.Unknown)
	}
	if len(got.Trades) != trades {
		t.Fatalf("StreamTrades(%d) gave %d trades", trades, len(got.Trades))
	}
	for i, tr := range got.Trades {
		w := contract.TradeAt(int64(i))
		wt := tr.Trade
		wt.Side = w.Side
		if wt != w || tr.Side != w.Side.String() {
			t.Fatalf("trade %d = %+v side %s, want %+v", i, tr.Trade, tr.Side, w)
		}
	}
}
