package thriftgo_test

// An outside client against the thrift servers: Python's thrift library (0.25.0,
// which make tools installs) with the code the Thrift compiler generates for Python
// from contract/schema/wirebench.thrift, made in the test's temporary directory. So
// the IDL and the wire are those of Thrift, not of the Go library alone. Skips, saying
// so, when python3, its thrift package or the thrift compiler is missing (fails in CI).

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
)

// pyTrade is a trade as the Python client prints it.
type pyTrade struct {
	ID             int64   `json:"id"`
	Symbol         string  `json:"symbol"`
	Price          float64 `json:"price"`
	Quantity       int64   `json:"quantity"`
	TimestampNanos int64   `json:"timestamp_nanos"`
	Side           string  `json:"side"`
}

func TestPythonThriftClient(t *testing.T) {
	py := protocoltest.Python(t, "thrift", "thrift==0.25.0")
	compiler := testtool.Command(t, "thrift")
	idl, err := filepath.Abs("../../contract/schema/wirebench.thrift")
	if err != nil {
		t.Fatal(err)
	}
	gen := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, compiler, "--gen", "py", "-out", gen, idl).CombinedOutput(); err != nil {
		t.Fatalf("thrift --gen py: %v\n%s", err, out)
	}

	for _, c := range []struct {
		proto, encoding, network string
	}{
		{thriftrpc.Binary, "binary", "tcp"},
		{thriftrpc.Compact, "compact", "tcp"},
		{thriftrpc.Compact, "compact", "unix"},
		{thriftrpc.Binary, "binary", protocoltest.TLSNetwork},
	} {
		t.Run(c.proto+"/"+c.network, func(t *testing.T) {
			tg := protocoltest.Start(t, c.proto, c.network, nil, protocol.ServerConfig{})
			const trades = 2500 // three pages of the default 1000
			payload := strings.Repeat("héllo, wirebench ", 64)
			addr := tg.Addr.Address
			if tg.Addr.Network == "unix" {
				addr = "unix:" + addr
			}
			args := []string{"testdata/thrift_client.py", c.encoding, addr, payload, strconv.Itoa(trades)}
			if c.network == protocoltest.TLSNetwork {
				args = append(args, protocoltest.CAFile(t, tg.TLS))
			}
			cmd := exec.CommandContext(ctx, py, args...)
			cmd.Env = append(os.Environ(), "PYTHONPATH="+gen)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("python thrift client: %v\nstdout: %.2000s\nstderr: %s", err, out, stderr.String())
			}
			var got struct {
				Person      contract.Person
				Echo        string
				Increment   int64
				Unknown     string
				Trades      []pyTrade
				Pages       int
				AfterStream int64 `json:"after_stream"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("python thrift client output %.2000q: %v", out, err)
			}
			if want, _ := tg.Dataset.Person(1); !got.Person.Equal(want) {
				t.Errorf("getPerson(1) = %+v, want %+v", got.Person, want)
			}
			if got.Echo != payload {
				t.Errorf("echo returned %d bytes %.40q..., want the %d sent", len(got.Echo), got.Echo, len(payload))
			}
			if got.Increment != 42 || got.AfterStream != 2 {
				t.Errorf("increment(41) = %d, increment(1) after the stream = %d; want 42 and 2", got.Increment, got.AfterStream)
			}
			if !strings.HasPrefix(got.Unknown, "NOT_FOUND: ") {
				t.Errorf("getPerson(-5): %q, want ServiceError NOT_FOUND", got.Unknown)
			}
			if len(got.Trades) != trades || got.Pages != 3 {
				t.Fatalf("streamTrades(%d): %d trades in %d pages, want %d in 3", trades, len(got.Trades), got.Pages, trades)
			}
			for i, tr := range got.Trades {
				w := contract.TradeAt(int64(i))
				if tr.ID != w.ID || tr.Symbol != w.Symbol || tr.Price != w.Price || tr.Quantity != w.Quantity ||
					tr.TimestampNanos != w.TimestampNanos || tr.Side != w.Side.String() {
					t.Fatalf("trade %d = %+v, want %+v", i, tr, w)
				}
			}
		})
	}
}
