package workertest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
)

// CheckCurl calls an http-json server at addr with curl as a user would: a person
// without a picture, an unknown id, a bad body, a trade stream.
func CheckCurl(t *testing.T, addr transport.Addr) {
	t.Helper()
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
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
}

// CheckGrpcurl lists a grpc-proto server's services through reflection with grpcurl
// and calls GetPerson.
func CheckGrpcurl(t *testing.T, grpcurl string, addr transport.Addr) {
	t.Helper()
	services := string(RunTool(t, grpcurl, "-plaintext", addr.Address, "list"))
	for _, s := range []string{"wirebench.v1.PersonService", "wirebench.v1.EchoService", "wirebench.v1.TradeService"} {
		if !strings.Contains(services, s) {
			t.Errorf("grpcurl list: %q lacks %s", services, s)
		}
	}
	out := RunTool(t, grpcurl, "-plaintext", "-d", `{"id":1}`, addr.Address, "wirebench.v1.PersonService/GetPerson")
	var got struct {
		ID   string
		Name struct{ First, Last string }
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("grpcurl GetPerson output %s: %v", out, err)
	}
	want, _ := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize).Person(1)
	if got.ID != "1" || got.Name.First != want.Name.First || got.Name.Last != want.Name.Last {
		t.Errorf("grpcurl GetPerson = %s, want person 1 (%s %s)", out, want.Name.First, want.Name.Last)
	}
}

// CheckGhz loads a grpc-proto server with ghz as its users run it, given the
// contract's .proto: 200 GetPerson calls, 10 at a time, every one OK; then an unknown
// id, every answer NotFound, as the contract says. (Not through the server's
// reflection: ghz v0.121.0 finds no symbol through grpcio-reflection's, where grpcurl
// lists the services.)
func CheckGhz(t *testing.T, ghz string, addr transport.Addr) {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	proto := filepath.Join(filepath.Dir(here), "..", "..", "contract", "schema", "wirebench.proto")
	for _, c := range []struct {
		data, status string
		n            int
	}{{`{"id":3}`, "OK", 200}, {`{"id":999999}`, "NotFound", 5}} {
		out := RunTool(t, ghz, "--insecure", "--proto", proto, "--call", "wirebench.v1.PersonService.GetPerson", "-d", c.data,
			"-n", fmt.Sprint(c.n), "-c", "10", "-O", "json", addr.Address)
		var rep struct {
			Count        int
			StatusCodes  map[string]int `json:"statusCodeDistribution"`
			ErrorsByType map[string]int `json:"errorDistribution"`
		}
		if err := json.Unmarshal(out, &rep); err != nil {
			t.Fatalf("ghz -d %s: %v in %.300s", c.data, err, out)
		}
		if rep.Count != c.n || rep.StatusCodes[c.status] != c.n {
			t.Errorf("ghz -d %s: %d calls, codes %v, errors %v; want %d %s", c.data, rep.Count, rep.StatusCodes, rep.ErrorsByType, c.n, c.status)
		}
	}
}
