package gonethttpjson_test

// Plain curl must work on every route: these tests run the real curl binary against
// the server, over TCP and over a Unix socket.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

// curl runs curl with args (the path last) against s and returns the status and the body.
func curl(t *testing.T, s *server, args ...string) (int, []byte) {
	t.Helper()
	return protocoltest.Curl(t, s.addr, args...)
}

func TestCurl(t *testing.T) {
	testtool.Command(t, "curl")
	eachStack(t, func(t *testing.T, stack string) {
		for _, network := range []string{"tcp", "unix"} {
			t.Run(network, func(t *testing.T) { testCurlRoutes(t, startServer(t, stack, network, protocol.ServerConfig{})) })
		}
	})
}

func decodeJSON(t *testing.T, what string, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("%s: %v in %q", what, err, body)
	}
}

func testCurlRoutes(t *testing.T, s *server) {
	status, body := curl(t, s, "/persons")
	var list struct{ Persons []contract.Person }
	decodeJSON(t, "GET /persons", body, &list)
	if status != 200 || len(list.Persons) != testData.Size() {
		t.Errorf("GET /persons: %d, %d persons", status, len(list.Persons))
	}

	status, body = curl(t, s, "/persons/3")
	var p contract.Person
	decodeJSON(t, "GET /persons/3", body, &p)
	if want, _ := testData.Person(3); status != 200 || !p.Equal(want) {
		t.Errorf("GET /persons/3: %d %+v, want %+v", status, p, want)
	}

	status, body = curl(t, s, "/persons/3/links")
	var links struct{ Links []contract.PersonLink }
	decodeJSON(t, "GET /persons/3/links", body, &links)
	if want, _ := testData.Links(3); status != 200 || len(links.Links) != len(want) {
		t.Errorf("GET /persons/3/links: %d, %d links, want %d", status, len(links.Links), len(want))
	}

	// curl -d sends application/x-www-form-urlencoded: the server reads JSON anyway.
	status, body = curl(t, s, "-d", `{"name":{"first":"Ada","last":"Lovelace"},"email":"ada@example.com"}`, "/persons")
	var created contract.Person
	decodeJSON(t, "POST /persons", body, &created)
	if status != 200 || created.ID <= int64(testData.Size()) || created.Name.Last != "Lovelace" || created.Picture != nil {
		t.Errorf("POST /persons: %d %+v", status, created)
	}

	status, body = curl(t, s, "-d", `{"payload":"héllo <&> \"x\""}`, "/echo")
	var echo struct{ Payload string }
	decodeJSON(t, "POST /echo", body, &echo)
	if status != 200 || echo.Payload != `héllo <&> "x"` {
		t.Errorf("POST /echo: %d %q", status, body)
	}

	status, body = curl(t, s, "/stats")
	var st contract.Stats
	decodeJSON(t, "GET /stats", body, &st)
	if status != 200 || st.Calls < 1 || st.LastPayloadLen != int64(len(`héllo <&> "x"`)) {
		t.Errorf("GET /stats: %d %q", status, body)
	}
	if !bytes.Contains(body, []byte(`"last_payload_len":`)) {
		t.Errorf("GET /stats: %q lacks the contract's field name last_payload_len", body)
	}

	status, body = curl(t, s, "-H", "Content-Type: application/json", "-d", `{"value": 41}`, "/increment")
	if status != 200 || strings.TrimSpace(string(body)) != `{"value":42}` {
		t.Errorf("POST /increment: %d %q", status, body)
	}

	status, body = curl(t, s, "-N", "/trades?count=5")
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if status != 200 || len(lines) != 6 || lines[5] != `{"end":{"count":5}}` {
		t.Fatalf("GET /trades?count=5: %d %q", status, body)
	}
	for i, l := range lines[:5] {
		var tr struct {
			ID             int64
			Symbol         string
			Price          float64
			Quantity       int64
			TimestampNanos int64 `json:"timestamp_nanos"`
			Side           string
		}
		decodeJSON(t, "trade line", []byte(l), &tr)
		want := contract.TradeAt(int64(i))
		if tr.ID != want.ID || tr.Symbol != want.Symbol || tr.Price != want.Price || tr.Quantity != want.Quantity ||
			tr.TimestampNanos != want.TimestampNanos || tr.Side != want.Side.String() {
			t.Errorf("trade line %d = %s, want %+v", i, l, want)
		}
	}

	for _, c := range []struct {
		args   []string
		status int
		code   contract.Code
		msg    string // part of the message
	}{
		{[]string{"/persons/999"}, 404, contract.NotFound, "999"},
		{[]string{"/persons/abc"}, 404, contract.NotFound, "abc"},
		{[]string{"/persons/abc/links"}, 404, contract.NotFound, "abc"},
		{[]string{"/nowhere"}, 404, contract.NotFound, "/nowhere"},
		{[]string{"-d", `{"payload": "unterminated`, "/echo"}, 400, contract.InvalidArgument, "malformed JSON"},
		{[]string{"-d", `{"value": "41"}`, "/increment"}, 400, contract.InvalidArgument, "string"},
		{[]string{"-d", `{}`, "/increment"}, 400, contract.InvalidArgument, `missing "value"`},
		{[]string{"-d", `{"name":{"first":"A"}}`, "/persons"}, 400, contract.InvalidArgument, "last name"},
		{[]string{"/trades?count=-1"}, 400, contract.InvalidArgument, "out of range"},
		{[]string{"/trades?count=x"}, 400, contract.InvalidArgument, "not an integer"},
		{[]string{"/trades"}, 400, contract.InvalidArgument, "count"},
		{[]string{"-X", "DELETE", "/persons/1"}, 405, contract.InvalidArgument, "DELETE"},
		{[]string{"/echo"}, 405, contract.InvalidArgument, "POST"},
	} {
		status, body := curl(t, s, c.args...)
		var e struct{ Code, Message string }
		decodeJSON(t, strings.Join(c.args, " "), body, &e)
		if status != c.status || e.Code != string(c.code) || !strings.Contains(e.Message, c.msg) {
			t.Errorf("curl %v: %d %q; want %d, code %s, a message with %q", c.args, status, body, c.status, c.code, c.msg)
		}
	}
}

// TestCurlOverLimit sends curl a body far over a small server limit: the server answers
// 413 and reads only a small part of it.
func TestCurlOverLimit(t *testing.T) {
	testtool.Command(t, "curl")
	eachStack(t, func(t *testing.T, stack string) {
		s := startServer(t, stack, "tcp", protocol.ServerConfig{MaxMessageSize: 1 << 10})
		const size = 8 << 20
		file := filepath.Join(t.TempDir(), "big.json")
		big := `{"payload":"` + strings.Repeat("x", size) + `"}`
		if err := os.WriteFile(file, []byte(big), 0o600); err != nil {
			t.Fatal(err)
		}
		status, body := curl(t, s, "--data-binary", "@"+file, "/echo")
		var e struct{ Code, Message string }
		decodeJSON(t, "over-limit echo", body, &e)
		if status != 413 || e.Code != string(contract.ResourceExhausted) || !strings.Contains(e.Message, "limit") {
			t.Errorf("over-limit echo: %d %q, want 413 resource_exhausted", status, body)
		}
		if n := s.read.Load(); n > 1<<20 {
			t.Errorf("the server read %d bytes of an %d-byte body it refused", n, size)
		}
		// A body at the limit still passes.
		ok := `{"payload":"` + strings.Repeat("y", 1000) + `"}`
		if status, body := curl(t, s, "-d", ok, "/echo"); status != 200 {
			t.Errorf("echo of %d bytes under a 1 KiB limit: %d %q", len(ok), status, body)
		}
	})
}

// TestCurlTLS calls both servers over TLS with curl trusting only the run's CA: the
// certificate, TLS 1.3 and ALPN http/1.1 as an outside client sees them.
func TestCurlTLS(t *testing.T) {
	testtool.Command(t, "curl")
	for _, stack := range stacks {
		t.Run(stack, func(t *testing.T) {
			tg := protocoltest.StartStacks(t, httpjson.Name, stack, "", protocoltest.TLSNetwork, nil, protocol.ServerConfig{})
			status, body := protocoltest.CurlTLS(t, tg.Addr, tg.TLS, "--tlsv1.3", "--http1.1", "-w", "\n%{http_version}\n%{http_code}", "/persons/3")
			lines := strings.Split(string(body), "\n")
			var p contract.Person
			decodeJSON(t, "GET /persons/3 over TLS", []byte(lines[0]), &p)
			if want, _ := testData.Person(3); status != 200 || !p.Equal(want) {
				t.Errorf("GET /persons/3 over TLS: %d %+v, want %+v", status, p, want)
			}
			if v := lines[len(lines)-1]; v != "1.1" {
				t.Errorf("curl over TLS spoke HTTP %q, want 1.1 (curl --http1.1 offers ALPN http/1.1 alone; the servers offer it beside h2)", v)
			}
			status, body = protocoltest.CurlTLS(t, tg.Addr, tg.TLS, "-d", `{"payload":"over tls"}`, "/echo")
			if status != 200 || !bytes.Contains(body, []byte(`"over tls"`)) {
				t.Errorf("POST /echo over TLS: %d %s", status, body)
			}
		})
	}
}
