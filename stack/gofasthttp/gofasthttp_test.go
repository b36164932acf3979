package gofasthttp_test

import (
	"fmt"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/stack/gofasthttp"
	// net/http's stacks, registered: the other side of the pairs below, and the
	// server TestSameAnswersAsNetHTTP compares with.
	_ "github.com/wirebench/wirebench/stack/gonethttpjson"
)

// TestConformance runs the conformance suite on the stack's server with its own
// client and with the production client of net/http, and on its client against the
// net/http server, over TCP, Unix sockets and TLS.
func TestConformance(t *testing.T) {
	for _, pair := range []struct{ server, client string }{
		{gofasthttp.Name, gofasthttp.Name},
		{gofasthttp.Name, httpjson.DefaultStack},
		{httpjson.DefaultStack, gofasthttp.Name},
	} {
		t.Run(pair.server+"/"+pair.client, func(t *testing.T) {
			protocoltest.RunStacks(t, httpjson.Name, pair.server, pair.client)
		})
	}
}

// TestRegistered checks the registry entry: both sides, production, TLS, and the
// libraries results name.
func TestRegistered(t *testing.T) {
	for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
		st, err := protocol.LookupStack(httpjson.Name, gofasthttp.Name, side)
		if err != nil {
			t.Fatal(err)
		}
		if st.Tier != protocol.Production || !st.SpeaksTLS(side) || st.Worker != protocol.WorkerGo {
			t.Errorf("%s side: tier %s, TLS %v, worker %s; want production, TLS, go", side, st.Tier, st.SpeaksTLS(side), st.Worker)
		}
		for _, lib := range []string{"go", "github.com/valyala/fasthttp", "github.com/mailru/easyjson"} {
			if st.Libraries[lib] == "" {
				t.Errorf("libraries %v lack %s", st.Libraries, lib)
			}
		}
	}
}

// TestShutdownFinishesStream shuts the server down while a stream is in flight: the
// stream completes, and Shutdown returns once it has.
func TestShutdownFinishesStream(t *testing.T) {
	tg := protocoltest.StartStacks(t, httpjson.Name, gofasthttp.Name, gofasthttp.Name, "tcp", nil, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	const count = 200 * httpjson.StreamBatch
	first := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		var n int64
		done <- cl.StreamTrades(protocoltest.Context(t), count, func(tr *contract.Trade) error {
			if n == 0 {
				close(first)
			}
			if *tr != contract.TradeAt(n) {
				return fmt.Errorf("trade %d = %+v", n, *tr)
			}
			n++
			return nil
		})
	}()
	select {
	case <-first:
	case err := <-done:
		t.Fatalf("the stream ended before its first trade: %v", err)
	}
	if err := tg.Server.Shutdown(protocoltest.Context(t)); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("a stream in flight during Shutdown: %v", err)
	}
}
