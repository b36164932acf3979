package gonethttpjson_test

// An outside HTTP/3 client against the HTTP/3 server: Python's aioquic (its own QUIC,
// TLS 1.3 and HTTP/3 with QPACK, written apart from quic-go) calls the server over
// one QUIC connection. Skips, saying so, when python3 or aioquic is missing (fails in
// CI; make tools installs aioquic).

import (
	"context"
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/stack/gonethttpjson"
)

func TestAioquicClient(t *testing.T) {
	py := protocoltest.Python(t, "aioquic", "aioquic==1.7.2")
	tg := protocoltest.StartStacks(t, httpjson.Name, gonethttpjson.H3Name, gonethttpjson.H3Name, protocoltest.QUICNetwork, nil, protocol.ServerConfig{})
	host, port, _ := strings.Cut(tg.Addr.Address, ":")

	const trades = 600 // more than two batches of StreamBatch
	payload := strings.Repeat("héllo, wirebench ", 64)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "testdata/aioquic_client.py", protocoltest.CAFile(t, tg.TLS), host, port, payload, strconv.Itoa(trades))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("aioquic client: %v\nstdout: %.2000s\nstderr: %s", err, out, stderr.String())
	}
	type answer struct {
		Status int
		Body   string
	}
	var got struct{ Person, Unknown, Echo, Trades answer }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("aioquic client output %.2000q: %v", out, err)
	}

	var p contract.Person
	decodeJSON(t, "GET /persons/3", []byte(got.Person.Body), &p)
	if want, _ := tg.Dataset.Person(3); got.Person.Status != 200 || !p.Equal(want) {
		t.Errorf("GET /persons/3: %d %+v, want 200 %+v", got.Person.Status, p, want)
	}

	var e struct{ Code, Message string }
	decodeJSON(t, "GET /persons/999999", []byte(got.Unknown.Body), &e)
	if got.Unknown.Status != 404 || e.Code != "not_found" || e.Message == "" {
		t.Errorf("GET /persons/999999: %d %+v, want 404 with code not_found and a message", got.Unknown.Status, e)
	}

	var echo struct{ Payload string }
	decodeJSON(t, "POST /echo", []byte(got.Echo.Body), &echo)
	if got.Echo.Status != 200 || echo.Payload != payload {
		t.Errorf("POST /echo: %d, payload of %d bytes, want 200 and the %d bytes sent", got.Echo.Status, len(echo.Payload), len(payload))
	}

	lines := strings.Split(strings.TrimSuffix(got.Trades.Body, "\n"), "\n")
	if got.Trades.Status != 200 || len(lines) != trades+1 {
		t.Fatalf("GET /trades?count=%d: %d with %d lines, want 200 with %d", trades, got.Trades.Status, len(lines), trades+1)
	}
	for i, line := range lines[:trades] {
		var tr struct {
			ID       int64
			Symbol   string
			Price    float64
			Quantity int64
		}
		decodeJSON(t, "trade line", []byte(line), &tr)
		if want := contract.TradeAt(int64(i)); tr.ID != want.ID || tr.Symbol != want.Symbol || tr.Price != want.Price || tr.Quantity != want.Quantity {
			t.Fatalf("trade %d = %+v, want %+v", i, tr, want)
		}
	}
	if end := lines[trades]; end != `{"end":{"count":600}}` {
		t.Errorf("last line %q, want the end line", end)
	}
}
