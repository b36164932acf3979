package python_test

// The Python servers answer the tools users reach for: curl on the http-json routes (TCP
// and a Unix socket) of both FastAPI servers, grpcurl through server reflection on both
// grpcio servers. Each skips, saying why, when the worker or the tool is missing, and
// fails in CI.

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

func runTool(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout: %s\nstderr: %s", filepath.Base(bin), strings.Join(args, " "), err, out, stderr.String())
	}
	return out
}

func TestCurlOnFastAPI(t *testing.T) {
	workerDir(t)
	testtool.Command(t, "curl")
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, stack := range []string{"fastapi-uvicorn", "fastapi-granian"} {
		for _, network := range []string{"tcp", "unix"} {
			t.Run(stack+"/"+network, func(t *testing.T) {
				addr := servePython(t, "http-json", stack, network)
				status, body := protocoltest.Curl(t, addr, "/persons/4")
				var p contract.Person
				if err := json.Unmarshal(body, &p); err != nil {
					t.Fatalf("GET /persons/4: %v in %q", err, body)
				}
				if want, _ := ds.Person(4); status != 200 || !p.Equal(want) {
					t.Errorf("GET /persons/4: %d %+v, want %+v (no picture)", status, p, want)
				}
				status, body = protocoltest.Curl(t, addr, "/persons/nope")
				if status != 404 || !strings.Contains(string(body), `"code":"not_found"`) {
					t.Errorf("GET /persons/nope: %d %s, want 404 with the contract's error body", status, body)
				}
				status, body = protocoltest.Curl(t, addr, "-d", `{"value":"x"}`, "-H", "Content-Type: application/json", "/increment")
				if status != 400 || !strings.Contains(string(body), `"code":"invalid_argument"`) {
					t.Errorf("POST /increment with a string: %d %s, want 400", status, body)
				}
				status, body = protocoltest.Curl(t, addr, "/trades?count=300")
				lines := strings.Split(strings.TrimSpace(string(body)), "\n")
				if status != 200 || len(lines) != 301 || lines[300] != `{"end":{"count":300}}` {
					t.Errorf("GET /trades?count=300: %d, %d lines, last %q", status, len(lines), lines[len(lines)-1])
				}
			})
		}
	}
}

func TestGrpcurlOnGrpcio(t *testing.T) {
	workerDir(t)
	grpcurl := testtool.Command(t, "grpcurl")
	want, _ := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize).Person(1)
	for _, stack := range []string{"grpcio", "grpcio-aio"} {
		t.Run(stack, func(t *testing.T) {
			addr := servePython(t, "grpc-proto", stack, "tcp")
			services := string(runTool(t, grpcurl, "-plaintext", addr.Address, "list"))
			for _, s := range []string{"wirebench.v1.PersonService", "wirebench.v1.EchoService", "wirebench.v1.TradeService"} {
				if !strings.Contains(services, s) {
					t.Errorf("grpcurl list: %q lacks %s", services, s)
				}
			}
			out := runTool(t, grpcurl, "-plaintext", "-d", `{"id":1}`, addr.Address, "wirebench.v1.PersonService/GetPerson")
			var got struct {
				ID   string
				Name struct{ First, Last string }
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("grpcurl GetPerson output %s: %v", out, err)
			}
			if got.ID != "1" || got.Name.First != want.Name.First || got.Name.Last != want.Name.Last {
				t.Errorf("grpcurl GetPerson = %s, want person 1 (%s %s)", out, want.Name.First, want.Name.Last)
			}
		})
	}
}
