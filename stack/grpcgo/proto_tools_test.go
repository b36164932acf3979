package grpcgo_test

// Outside clients against the grpc-proto server, using server reflection only (no
// .proto file): grpcurl and ghz, the tools users reach for. Each test skips, saying
// so, when its tool is not installed (make tools installs both), and fails in CI.

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

// run runs a tool with a time limit and returns its standard output.
func run(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
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

func TestGrpcurl(t *testing.T) {
	grpcurl := testtool.Command(t, "grpcurl")
	tg := protocoltest.Start(t, grpcproto.Name, "tcp", nil, protocol.ServerConfig{})
	addr := tg.Addr.Address

	services := strings.Fields(string(run(t, grpcurl, "-plaintext", addr, "list")))
	for _, want := range []string{"wirebench.v1.PersonService", "wirebench.v1.EchoService", "wirebench.v1.TradeService"} {
		found := false
		for _, s := range services {
			found = found || s == want
		}
		if !found {
			t.Errorf("grpcurl list: %v, missing %s", services, want)
		}
	}

	out := run(t, grpcurl, "-plaintext", "-d", `{"id":1}`, addr, "wirebench.v1.PersonService/GetPerson")
	// protojson prints int64 as a string and fields in lowerCamelCase.
	var got struct {
		ID   string `json:"id"`
		Name struct{ First, Last string }
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("grpcurl GetPerson output %s: %v", out, err)
	}
	want, _ := tg.Dataset.Person(1)
	if got.ID != "1" || got.Name.First != want.Name.First || got.Name.Last != want.Name.Last {
		t.Errorf("grpcurl GetPerson = %s, want person 1 (%s %s)", out, want.Name.First, want.Name.Last)
	}
}

func TestGhz(t *testing.T) {
	ghz := testtool.Command(t, "ghz")
	tg := protocoltest.Start(t, grpcproto.Name, "tcp", nil, protocol.ServerConfig{})
	out := run(t, ghz, "--insecure", "--call", "wirebench.v1.PersonService/GetPerson",
		"-d", `{"id":1}`, "-n", "200", "-c", "10", "-O", "json", tg.Addr.Address)
	var rep struct {
		Count                  int            `json:"count"`
		StatusCodeDistribution map[string]int `json:"statusCodeDistribution"`
		ErrorDistribution      map[string]int `json:"errorDistribution"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("ghz output %.500s: %v", out, err)
	}
	if rep.Count != 200 || rep.StatusCodeDistribution["OK"] != 200 || len(rep.ErrorDistribution) != 0 {
		t.Errorf("ghz: %d calls, status codes %v, errors %v; want 200 OK", rep.Count, rep.StatusCodeDistribution, rep.ErrorDistribution)
	}
}

// TestGrpcurlTLS calls the server over TLS with grpcurl trusting only the run's CA:
// grpc-go's TLS credentials with ALPN h2, as outside gRPC clients need.
func TestGrpcurlTLS(t *testing.T) {
	grpcurl := testtool.Command(t, "grpcurl")
	tg := protocoltest.StartStacks(t, grpcproto.Name, "", "", protocoltest.TLSNetwork, nil, protocol.ServerConfig{})
	out := run(t, grpcurl, "-cacert", protocoltest.CAFile(t, tg.TLS), "-d", `{"payload":"over tls"}`,
		tg.Addr.Address, "wirebench.v1.EchoService/Echo")
	var got struct{ Payload string }
	if err := json.Unmarshal(out, &got); err != nil || got.Payload != "over tls" {
		t.Errorf("grpcurl Echo over TLS = %s (%v), want the payload back", out, err)
	}
	// Without the CA, grpcurl must refuse the server's certificate.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, grpcurl, tg.Addr.Address, "list").CombinedOutput(); err == nil {
		t.Errorf("grpcurl trusting the system CAs listed the services: %s; want a certificate error", out)
	}
}
