package coderwebsocket_test

// An outside client against the websocket server: Python's websockets library, which
// speaks the wire mapping by hand (testdata/websockets_client.py) over tcp, a Unix
// socket and TLS. Skips, saying so, when python3 or websockets is missing (make tools
// installs it), and fails in CI.

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/websocketproto"
)

func TestPythonWebsockets(t *testing.T) {
	py := protocoltest.Python(t, "websockets", "websockets==17.4")
	for _, network := range []string{"tcp", "unix", protocoltest.TLSNetwork} {
		t.Run(network, func(t *testing.T) {
			tg := protocoltest.Start(t, websocketproto.Name, network, nil, protocol.ServerConfig{})
			args := []string{"testdata/websockets_client.py"}
			switch network {
			case "tcp":
				args = append(args, "ws://"+tg.Addr.Address+websocketproto.Path)
			case "unix":
				args = append(args, "ws://localhost"+websocketproto.Path, "--unix", tg.Addr.Address)
			case protocoltest.TLSNetwork:
				args = append(args, "wss://"+tg.Addr.Address+websocketproto.Path, "--cafile", protocoltest.CAFile(t, tg.TLS))
			}
			payload := strings.Repeat("héllo, wirebench ✓ ", 200)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, py, args...)
			cmd.Stdin = strings.NewReader(payload)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("websockets client: %v\nstdout: %.2000s\nstderr: %s", err, out, stderr.String())
			}
			var got struct {
				Person, Person2 contract.Person
				Unknown         struct{ Code, Message string }
				Echo            string
				End             struct{ Count int64 }
				Trades          []struct {
					contract.Trade
					Side string `json:"side"` // hides the embedded one
				}
				Increment int64
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("websockets client output %.2000q: %v", out, err)
			}
			for id, p := range map[int64]contract.Person{1: got.Person, 2: got.Person2} {
				if want, _ := tg.Dataset.Person(id); !p.Equal(want) {
					t.Errorf("getPerson(%d) = %+v, want %+v", id, p, want)
				}
			}
			if got.Unknown.Code != "not_found" || !strings.Contains(got.Unknown.Message, "-5") {
				t.Errorf("getPerson(-5) refused with %+v, want not_found naming the id", got.Unknown)
			}
			if got.Echo != payload {
				t.Errorf("echo returned %d bytes %.40q..., want the %d sent", len(got.Echo), got.Echo, len(payload))
			}
			if got.Increment != 42 {
				t.Errorf("increment(41) = %d", got.Increment)
			}
			if len(got.Trades) != 300 || got.End.Count != 300 {
				t.Fatalf("streamTrades(300) gave %d trades, end %+v", len(got.Trades), got.End)
			}
			for i, tr := range got.Trades {
				w := contract.TradeAt(int64(i))
				wt := tr.Trade
				wt.Side = w.Side
				if wt != w || tr.Side != w.Side.String() {
					t.Fatalf("trade %d = %+v side %s, want %+v", i, tr.Trade, tr.Side, w)
				}
			}
		})
	}
}
