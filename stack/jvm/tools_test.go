package jvm_test

// The JVM servers answer the tools users reach for, as the Go servers do: curl on every
// http-json route (TCP and, where the stack speaks it, a Unix socket), grpcurl on the
// grpc-proto servers (list and describe through server reflection where it is on; a call
// with the .proto file where it is not). Each test skips, saying why, when java, the jar
// or the tool is missing, and fails in CI (internal/testtool).

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
)

// curlJVM runs curl against the server at addr (args: curl's options, the path last)
// and returns the status, the headers (lower-cased) and the body.
func curlJVM(t *testing.T, addr transport.Addr, tc transport.TLS, args ...string) (int, string, []byte) {
	t.Helper()
	args = append([]string{"-D", "-"}, args...)
	var status int
	var out []byte
	if tc.Enabled() {
		status, out = protocoltest.CurlTLS(t, addr, tc, args...)
	} else {
		status, out = protocoltest.Curl(t, addr, args...)
	}
	head, body, _ := bytes.Cut(out, []byte("\r\n\r\n"))
	return status, strings.ToLower(string(head)), body
}

// toolsOnJVMServer runs the tools on a fresh JVM server of s (started by
// TestGoClientsAgainstJavaServers, which then runs its contract checks on it): curl on
// an http-json server over every transport it speaks, grpcurl on a grpc-proto one over
// tcp and tls. Each skips, saying why, when its tool is missing (fails in CI).
func toolsOnJVMServer(t *testing.T, s *protocol.Stack, network string, addr transport.Addr, tc transport.TLS, ds *contract.Dataset) {
	switch {
	case s.Protocol == "http-json":
		t.Run("curl", func(t *testing.T) {
			testtool.Command(t, "curl")
			curlRoutes(t, addr, tc, ds)
		})
	case s.Protocol == "grpc-proto" && (network == "tcp" || network == spec.TLS):
		t.Run("grpcurl", func(t *testing.T) {
			grpcurl := testtool.Command(t, "grpcurl")
			proto, err := filepath.Abs(filepath.Join("..", "..", "contract", "schema"))
			if err != nil {
				t.Fatal(err)
			}
			grpcurlJVM(t, grpcurl, proto, s, addr, tc)
		})
	}
}

const jsonType = "Content-Type: application/json"

func curlRoutes(t *testing.T, addr transport.Addr, tc transport.TLS, ds *contract.Dataset) {
	decode := func(what string, body []byte, v any) {
		t.Helper()
		if err := json.Unmarshal(body, v); err != nil {
			t.Errorf("%s: %v in %q", what, err, body)
		}
	}
	status, _, body := curlJVM(t, addr, tc, "/persons")
	var list struct{ Persons []contract.Person }
	decode("GET /persons", body, &list)
	if status != 200 || len(list.Persons) != ds.Size() {
		t.Errorf("GET /persons: %d, %d persons, want 200, %d", status, len(list.Persons), ds.Size())
	}
	status, head, body := curlJVM(t, addr, tc, "/persons/3")
	var p contract.Person
	decode("GET /persons/3", body, &p)
	if want, _ := ds.Person(3); status != 200 || !p.Equal(want) || !strings.Contains(head, "content-type: application/json") {
		t.Errorf("GET /persons/3: %d %+v (headers %q), want %+v as application/json", status, p, head, want)
	}
	status, _, body = curlJVM(t, addr, tc, "/persons/3/links")
	var links struct{ Links []contract.PersonLink }
	decode("GET /persons/3/links", body, &links)
	if want, _ := ds.Links(3); status != 200 || len(links.Links) != len(want) {
		t.Errorf("GET /persons/3/links: %d, %d links, want %d", status, len(links.Links), len(want))
	}
	newPerson := `{"id":0,"name":{"title":"mr","first":"Ada","last":"Byron"},"gender":"female",` +
		`"location":{"street":"1 Way","city":"London","state":"","post_code":"N1"},"email":"ada@example.com"}`
	status, _, body = curlJVM(t, addr, tc, "-H", jsonType, "-d", newPerson, "/persons")
	var created contract.Person
	decode("POST /persons", body, &created)
	if status != 200 || created.ID <= int64(ds.Size()) || created.Name.First != "Ada" || created.Picture != nil {
		t.Errorf("POST /persons: %d %+v, want a new id and no picture", status, created)
	}
	status, _, body = curlJVM(t, addr, tc, "-H", jsonType, "-d", `{"payload":"héllo ✓"}`, "/echo")
	if status != 200 || !bytes.Contains(body, []byte(`"héllo ✓"`)) {
		t.Errorf("POST /echo: %d %s", status, body)
	}
	status, _, body = curlJVM(t, addr, tc, "/stats")
	var st struct {
		Calls          int64
		LastPayloadLen int64 `json:"last_payload_len"`
	}
	decode("GET /stats", body, &st)
	if status != 200 || st.Calls != 1 || st.LastPayloadLen != int64(len("héllo ✓")) {
		t.Errorf("GET /stats: %d %+v, want 1 call of %d bytes", status, st, len("héllo ✓"))
	}
	status, _, body = curlJVM(t, addr, tc, "-H", jsonType, "-d", `{"value":-9223372036854775808}`, "/increment")
	if status != 200 || !bytes.Contains(body, []byte(`-9223372036854775807`)) {
		t.Errorf("POST /increment: %d %s", status, body)
	}
	status, head, body = curlJVM(t, addr, tc, "/trades?count=300")
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if status != 200 || len(lines) != 301 || !strings.Contains(head, "application/x-ndjson") ||
		!strings.Contains(head, "transfer-encoding: chunked") || lines[300] != `{"end":{"count":300}}` {
		t.Errorf("GET /trades?count=300: %d, %d lines, last %q, headers %q", status, len(lines), lines[len(lines)-1], head)
	} else {
		var tr struct {
			ID             int64
			Symbol, Side   string
			Price          float64
			Quantity       int64
			TimestampNanos int64 `json:"timestamp_nanos"`
		}
		decode("trade 299", []byte(lines[299]), &tr)
		want := contract.TradeAt(299)
		if tr.ID != want.ID || tr.Symbol != want.Symbol || tr.Price != want.Price || tr.Quantity != want.Quantity ||
			tr.TimestampNanos != want.TimestampNanos || tr.Side != want.Side.String() {
			t.Errorf("trade 299 = %+v, want %+v", tr, want)
		}
	}

	// Refusals: the contract's JSON error bodies with their statuses.
	refusals := []struct {
		args   []string
		status int
		code   string
	}{
		{[]string{"/persons/0"}, 404, "not_found"},
		{[]string{"/persons/x"}, 404, "not_found"},
		{[]string{"/nowhere"}, 404, "not_found"},
		{[]string{"/trades?count=-1"}, 400, "invalid_argument"},
		{[]string{"/trades"}, 400, "invalid_argument"},
		{[]string{"-H", jsonType, "-d", `{"payload":`, "/echo"}, 400, "invalid_argument"},
		{[]string{"-H", jsonType, "-d", `{}`, "/increment"}, 400, "invalid_argument"},
		{[]string{"-H", jsonType, "-d", `{"name":{"first":"A","last":"B"},"email":"no-at"}`, "/persons"}, 400, "invalid_argument"},
		{[]string{"-X", "PUT", "-H", jsonType, "-d", `{}`, "/echo"}, 405, "invalid_argument"},
	}
	for _, r := range refusals {
		status, head, body := curlJVM(t, addr, tc, r.args...)
		var e struct{ Code, Message string }
		decode(strings.Join(r.args, " "), body, &e)
		if status != r.status || e.Code != r.code || e.Message == "" {
			t.Errorf("curl %v: %d %s, want %d with code %s", r.args, status, body, r.status, r.code)
		}
		if status == 405 && !strings.Contains(head, "allow: post") {
			t.Errorf("curl %v: 405 without Allow: POST (headers %q)", r.args, head)
		}
	}
}

// reflecting are the JVM grpc-proto servers with server reflection on.
var reflecting = map[string]bool{"grpc-java-netty": true, "grpc-java-okhttp": true, "akka-grpc": true}

// grpcurlJVM runs grpcurl against a JVM grpc-proto server at a: plain text, or over
// TLS trusting the run's CA alone (-cacert).
func grpcurlJVM(t *testing.T, grpcurl, proto string, s *protocol.Stack, a transport.Addr, tc transport.TLS) {
	addr := a.Address
	security := []string{"-plaintext"}
	if tc.Enabled() {
		security = []string{"-cacert", protocoltest.CAFile(t, tc)}
	}
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, grpcurl, append(security, args...)...).CombinedOutput()
		return string(out), err
	}
	var schema []string // with reflection, grpcurl needs no .proto file
	if reflecting[s.Name] {
		out, err := run(addr, "list")
		for _, svc := range []string{"wirebench.v1.PersonService", "wirebench.v1.EchoService", "wirebench.v1.TradeService"} {
			if err != nil || !strings.Contains(out, svc) {
				t.Errorf("grpcurl list: %v, %q lacks %s", err, out, svc)
			}
		}
		out, err = run(addr, "describe", "wirebench.v1.PersonService")
		if err != nil || !strings.Contains(out, "rpc GetPersonLinks") {
			t.Errorf("grpcurl describe: %v\n%s", err, out)
		}
	} else {
		if out, err := run(addr, "list"); err == nil {
			t.Errorf("grpcurl list succeeded on %s, which has no reflection:\n%s", s.Name, out)
		}
		schema = []string{"-import-path", proto, "-proto", "wirebench.proto"}
	}
	out, err := run(append(schema, "-d", `{"id":2}`, addr, "wirebench.v1.PersonService/GetPerson")...)
	if err != nil || !strings.Contains(out, `"id": "2"`) {
		t.Errorf("grpcurl GetPerson: %v\n%s", err, out)
	}
	out, err = run(append(schema, "-d", `{"count":3}`, addr, "wirebench.v1.TradeService/StreamTrades")...)
	if err != nil || strings.Count(out, `"symbol"`) != 3 {
		t.Errorf("grpcurl StreamTrades: %v\n%s", err, out)
	}
	out, err = run(append(schema, "-d", `{"id":0}`, addr, "wirebench.v1.PersonService/GetPerson")...)
	if err == nil || !strings.Contains(out, "NotFound") {
		t.Errorf("grpcurl GetPerson 0: %v, want NotFound\n%s", err, out)
	}
}
