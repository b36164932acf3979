package gofasthttp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/gofasthttp"
)

var testData = contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)

// server is a running server of the named stack on a fresh address of network, with
// the reference service of the default data set, whose listener counts the bytes the
// server reads (to check that it refuses big bodies without reading them).
type server struct {
	addr transport.Addr
	read *atomic.Int64
}

func startServer(t *testing.T, stack, network string, cfg protocol.ServerConfig) *server {
	t.Helper()
	st, err := protocol.LookupStack(httpjson.Name, stack, protocol.ServerSide)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := st.NewServer(contract.NewReference(testData), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := transport.Listen(protocoltest.ListenAddr(t, network))
	if err != nil {
		t.Fatal(err)
	}
	s := &server{addr: transport.AddrOf(ln.Addr()), read: new(atomic.Int64)}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(countingListener{ln, s.read}) }()
	t.Cleanup(func() {
		srv.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve returned %v after Close", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return within 5s of Close")
		}
	})
	return s
}

type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.n}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func decodeJSON(t *testing.T, what string, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("%s: %v in %q", what, err, body)
	}
}

// TestCurl calls every route of the server with the real curl, over TCP and a Unix
// socket, and checks the answers against the data set and the protocol's refusals.
func TestCurl(t *testing.T) {
	testtool.Command(t, "curl")
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			testCurlRoutes(t, startServer(t, gofasthttp.Name, network, protocol.ServerConfig{}))
		})
	}
}

func testCurlRoutes(t *testing.T, s *server) {
	curl := func(args ...string) (int, []byte) { return protocoltest.Curl(t, s.addr, args...) }
	status, body := curl("/persons")
	var list struct{ Persons []contract.Person }
	decodeJSON(t, "GET /persons", body, &list)
	if status != 200 || len(list.Persons) != testData.Size() {
		t.Errorf("GET /persons: %d, %d persons", status, len(list.Persons))
	}
	status, body = curl("/persons/3")
	var p contract.Person
	decodeJSON(t, "GET /persons/3", body, &p)
	if want, _ := testData.Person(3); status != 200 || !p.Equal(want) {
		t.Errorf("GET /persons/3: %d %+v, want %+v", status, p, want)
	}
	status, body = curl("/persons/3/links")
	var links struct{ Links []contract.PersonLink }
	decodeJSON(t, "GET /persons/3/links", body, &links)
	if want, _ := testData.Links(3); status != 200 || len(links.Links) != len(want) {
		t.Errorf("GET /persons/3/links: %d, %d links, want %d", status, len(links.Links), len(want))
	}
	// curl -d sends application/x-www-form-urlencoded: the server reads JSON anyway.
	status, body = curl("-d", `{"name":{"first":"Ada","last":"Lovelace"},"email":"ada@example.com"}`, "/persons")
	var created contract.Person
	decodeJSON(t, "POST /persons", body, &created)
	if status != 200 || created.ID <= int64(testData.Size()) || created.Name.Last != "Lovelace" || created.Picture != nil {
		t.Errorf("POST /persons: %d %+v", status, created)
	}
	status, body = curl("-d", `{"payload":"héllo <&> \"x\""}`, "/echo")
	if want := `{"payload":"héllo \u003c\u0026\u003e \"x\""}` + "\n"; status != 200 || string(body) != want {
		t.Errorf("POST /echo: %d %q, want %q (HTML escaped, as encoding/json writes it)", status, body, want)
	}
	status, body = curl("/stats")
	if want := fmt.Sprintf(`{"calls":%d,"last_payload_len":%d}`+"\n", 1, len(`héllo <&> "x"`)); status != 200 || string(body) != want {
		t.Errorf("GET /stats: %d %q, want %q", status, body, want)
	}
	status, body = curl("-H", "Content-Type: application/json", "-d", `{"value": 41}`, "/increment")
	if status != 200 || string(body) != "{\"value\":42}\n" {
		t.Errorf("POST /increment: %d %q", status, body)
	}
	status, body = curl("-N", "-D", "-", "/trades?count=5")
	head, body, _ := bytes.Cut(body, []byte("\r\n\r\n"))
	if !bytes.Contains(head, []byte("Content-Type: application/x-ndjson")) || !bytes.Contains(head, []byte("Transfer-Encoding: chunked")) {
		t.Errorf("GET /trades?count=5: headers\n%s\nwant NDJSON, chunked", head)
	}
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
		{[]string{"-d", `{"payload": "unterminated`, "/echo"}, 400, contract.InvalidArgument, "echo body"},
		{[]string{"-d", `{"value": "41"}`, "/increment"}, 400, contract.InvalidArgument, "increment body"},
		{[]string{"-d", `{}`, "/increment"}, 400, contract.InvalidArgument, `missing "value"`},
		{[]string{"-d", `{"name":{"first":"A"}}`, "/persons"}, 400, contract.InvalidArgument, "last name"},
		{[]string{"/trades?count=-1"}, 400, contract.InvalidArgument, "out of range"},
		{[]string{"/trades?count=x"}, 400, contract.InvalidArgument, "not an integer"},
		{[]string{"/trades"}, 400, contract.InvalidArgument, "count"},
		{[]string{"-X", "DELETE", "/persons/1"}, 405, contract.InvalidArgument, "DELETE"},
		{[]string{"/echo"}, 405, contract.InvalidArgument, "POST"},
	} {
		status, body := curl(c.args...)
		var e struct{ Code, Message string }
		decodeJSON(t, strings.Join(c.args, " "), body, &e)
		if status != c.status || e.Code != string(c.code) || !strings.Contains(e.Message, c.msg) {
			t.Errorf("curl %v: %d %q; want %d, code %s, a message with %q", c.args, status, body, c.status, c.code, c.msg)
		}
	}
}

// TestCurlOverLimit sends with curl a body far over a small server limit: the server
// answers 413 and reads only a small part of it.
func TestCurlOverLimit(t *testing.T) {
	testtool.Command(t, "curl")
	s := startServer(t, gofasthttp.Name, "tcp", protocol.ServerConfig{MaxMessageSize: 1 << 10})
	const size = 8 << 20
	file := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(file, []byte(`{"payload":"`+strings.Repeat("x", size)+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	status, body := protocoltest.Curl(t, s.addr, "--data-binary", "@"+file, "/echo")
	var e struct{ Code, Message string }
	decodeJSON(t, "over-limit echo", body, &e)
	if status != 413 || e.Code != string(contract.ResourceExhausted) || !strings.Contains(e.Message, "limit of 1024") {
		t.Errorf("over-limit echo: %d %q, want 413 resource_exhausted", status, body)
	}
	if n := s.read.Load(); n > 1<<20 {
		t.Errorf("the server read %d bytes of an %d-byte body it refused", n, size)
	}
	ok := `{"payload":"` + strings.Repeat("y", 1000) + `"}`
	if status, body := protocoltest.Curl(t, s.addr, "-d", ok, "/echo"); status != 200 {
		t.Errorf("echo of %d bytes under a 1 KiB limit: %d %q", len(ok), status, body)
	}
}

// TestCurlTLS calls the server over TLS with curl trusting only the run's CA: TLS 1.3
// and HTTP/1.1 as an outside client sees them.
func TestCurlTLS(t *testing.T) {
	testtool.Command(t, "curl")
	tg := protocoltest.StartStacks(t, httpjson.Name, gofasthttp.Name, gofasthttp.Name, protocoltest.TLSNetwork, nil, protocol.ServerConfig{})
	status, body := protocoltest.CurlTLS(t, tg.Addr, tg.TLS, "--tlsv1.3", "-w", "\n%{http_version}\n%{http_code}", "/persons/3")
	lines := strings.Split(string(body), "\n")
	var p contract.Person
	decodeJSON(t, "GET /persons/3 over TLS", []byte(lines[0]), &p)
	if want, _ := testData.Person(3); status != 200 || !p.Equal(want) {
		t.Errorf("GET /persons/3 over TLS: %d %+v, want %+v", status, p, want)
	}
	if v := lines[len(lines)-1]; v != "1.1" {
		t.Errorf("curl over TLS spoke HTTP %q, want 1.1 (the server offers ALPN http/1.1 alone)", v)
	}
	status, body = protocoltest.CurlTLS(t, tg.Addr, tg.TLS, "-d", `{"payload":"over tls"}`, "/echo")
	if status != 200 || !bytes.Contains(body, []byte(`"over tls"`)) {
		t.Errorf("POST /echo over TLS: %d %s", status, body)
	}
}

// answer is what a test keeps of an HTTP answer to compare two servers.
type answer struct {
	status      int
	contentType string
	allow       string
	code        string // the error body's code, for a refusal
	body        string // the body, for a 200 answer
}

// call sends one request with net/http's client and returns its answer.
func call(t *testing.T, hc *http.Client, base, method, path, contentType string, body io.Reader) answer {
	t.Helper()
	req, err := http.NewRequestWithContext(protocoltest.Context(t), method, base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	a := answer{status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), allow: resp.Header.Get("Allow")}
	if resp.StatusCode == 200 {
		a.body = string(b)
	} else if method != http.MethodHead {
		var e httpjson.ErrorBody
		if err := json.Unmarshal(b, &e); err != nil || !e.Code.Valid() {
			t.Errorf("%s %s: %d answer %q is not a JSON refusal", method, path, resp.StatusCode, b)
		}
		a.code = string(e.Code)
	}
	return a
}

// chunked hides a reader's length, so that net/http sends it chunked.
type chunked struct{ io.Reader }

// TestSameAnswersAsNetHTTP sends the same requests, good and bad, to this stack's
// server and to the production net/http one and expects the same answers: status,
// content type, Allow, the refusal's code, and for a 200 the body byte for byte
// (easyjson escapes HTML as encoding/json does). Bad input: malformed and truncated
// JSON, trailing data, wrong types, missing and null fields, a wrong or absent
// content type, bodies over the limit by Content-Length and chunked, unknown routes
// and methods, bad trade counts.
func TestSameAnswersAsNetHTTP(t *testing.T) {
	const limit = 64 << 10
	cfg := protocol.ServerConfig{MaxMessageSize: limit}
	ours := startServer(t, gofasthttp.Name, "tcp", cfg)
	std := startServer(t, httpjson.DefaultStack, "tcp", cfg)
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	big := `{"payload":"` + strings.Repeat("z", limit) + `"}`
	for _, c := range []struct {
		method, path, contentType, body string
		chunked                         bool
	}{
		{method: "GET", path: "/persons"},
		{method: "GET", path: "/persons/7"},
		{method: "GET", path: "/persons/7/links"},
		{method: "HEAD", path: "/persons/7"},
		{method: "GET", path: "/persons/0"},
		{method: "GET", path: "/persons/-3/links"},
		{method: "GET", path: "/persons/9223372036854775808"},
		{method: "GET", path: "/persons/x1"},
		{method: "GET", path: "/stats"},
		{method: "POST", path: "/echo", contentType: "application/json", body: `{"payload":"a <b> & \"c\" é ✓"}`},
		{method: "POST", path: "/echo", contentType: "text/plain", body: `{"payload":"text/plain is read as JSON"}`},
		{method: "POST", path: "/echo", body: `{"payload":"no content type"}`},
		{method: "POST", path: "/echo", contentType: "application/xml", body: `<payload>x</payload>`},
		{method: "POST", path: "/echo", contentType: "application/json", body: `{"payload":"truncat`},
		{method: "POST", path: "/echo", contentType: "application/json", body: `{"payload":"x"} trailing`},
		{method: "POST", path: "/echo", contentType: "application/json", body: `{"payload":null}`},
		{method: "POST", path: "/echo", contentType: "application/json", body: `{"payload":7}`},
		{method: "POST", path: "/echo", contentType: "application/json", body: ``},
		{method: "POST", path: "/echo", contentType: "application/json", body: `[]`},
		{method: "POST", path: "/echo", contentType: "application/json", body: `{"payload":"chunked"}`, chunked: true},
		{method: "POST", path: "/echo", contentType: "application/json", body: big},
		{method: "POST", path: "/echo", contentType: "application/json", body: big, chunked: true},
		{method: "POST", path: "/increment", contentType: "application/json", body: `{"value":9223372036854775806}`},
		{method: "POST", path: "/increment", contentType: "application/json", body: `{"value":9223372036854775808}`},
		{method: "POST", path: "/increment", contentType: "application/json", body: `{"value":1.5}`},
		{method: "POST", path: "/increment", contentType: "application/json", body: `{"value":"1"}`},
		{method: "POST", path: "/increment", contentType: "application/json", body: `{"valu`},
		{method: "POST", path: "/persons", contentType: "application/json", body: `{"name":{"first":"A","last":"B"},"email":"a@b.example"}`},
		{method: "POST", path: "/persons", contentType: "application/json", body: `{"name":{"first":"A","last":"B"},"email":"no-at"}`},
		{method: "POST", path: "/persons", contentType: "application/json", body: `{"name":{"first":"A","last":"B"},"email":"a@b.example","picture":{"large":"l","medium":"m","thumbnail":"t"}}`},
		{method: "POST", path: "/persons", contentType: "application/json", body: `{"name":"not an object"}`},
		{method: "GET", path: "/trades"},
		{method: "GET", path: "/trades?count=abc"},
		{method: "GET", path: "/trades?count=-1"},
		{method: "GET", path: "/trades?count=" + strconv.Itoa(contract.MaxTrades+1)},
		{method: "HEAD", path: "/trades?count=3"},
		{method: "HEAD", path: "/trades?count=-1"},
		{method: "GET", path: "/nowhere"},
		{method: "DELETE", path: "/persons"},
		{method: "PUT", path: "/persons/1"},
		{method: "GET", path: "/echo"},
		{method: "POST", path: "/stats"},
		{method: "GET", path: "/increment"},
		{method: "POST", path: "/trades?count=1"},
	} {
		body := func() io.Reader {
			var r io.Reader = strings.NewReader(c.body)
			if c.chunked {
				r = chunked{r}
			}
			return r
		}
		name := fmt.Sprintf("%s %s %.40q", c.method, c.path, c.body)
		got := call(t, hc, "http://"+ours.addr.Address, c.method, c.path, c.contentType, body())
		want := call(t, hc, "http://"+std.addr.Address, c.method, c.path, c.contentType, body())
		if c.method == "POST" && c.path == "/persons" && want.status == 200 {
			// The servers number created persons alike, but each counts its own.
			got.body, want.body = "", ""
		}
		if got != want {
			t.Errorf("%s:\n got %+v\nwant %+v (net/http)", name, got, want)
		}
	}
}

// TestKeyCase shows where easyjson and encoding/json differ: easyjson matches a
// body's keys exactly, encoding/json whatever their case. So {"Payload":"x"} is an
// echo body without its payload here.
func TestKeyCase(t *testing.T) {
	s := startServer(t, gofasthttp.Name, "tcp", protocol.ServerConfig{})
	a := call(t, http.DefaultClient, "http://"+s.addr.Address, "POST", "/echo", httpjson.JSONType, strings.NewReader(`{"Payload":"x"}`))
	if a.status != 400 || a.code != string(contract.InvalidArgument) {
		t.Errorf(`{"Payload":"x"}: %+v, want 400 invalid_argument`, a)
	}
}

// TestRawBadInput writes requests by hand that no HTTP client would send: a body cut
// short of its Content-Length, a request line of garbage, headers over fasthttp's
// read buffer. The server answers or closes the connection, never hangs, and keeps
// serving others.
func TestRawBadInput(t *testing.T) {
	s := startServer(t, gofasthttp.Name, "tcp", protocol.ServerConfig{})
	for _, c := range []struct {
		name, request string
		status        int // 0: the server may close without an answer
		code          contract.Code
	}{
		{"body cut short", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"payload\":\"", 0, ""},
		{"garbage request line", "\x00\x01 not http at all\r\n\r\n", 400, contract.InvalidArgument},
		{"bad content length", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", 400, contract.InvalidArgument},
		{"bad chunk size", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 400, contract.InvalidArgument},
		{"headers too large", "GET /stats HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("h", 8<<10) + "\r\n\r\n", 431, contract.ResourceExhausted},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.DialTimeout("tcp", s.addr.Address, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.WriteString(conn, c.request); err != nil {
				t.Fatal(err)
			}
			conn.(*net.TCPConn).CloseWrite() // the client sends no more
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			switch {
			case err != nil && c.status == 0:
				// Closed without an answer: what a server does with a request it never got whole.
			case err != nil:
				t.Fatalf("no answer: %v", err)
			default:
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var e httpjson.ErrorBody
				json.Unmarshal(b, &e)
				if c.status != 0 && (resp.StatusCode != c.status || e.Code != c.code) {
					t.Errorf("answer %d %q, want %d with code %s", resp.StatusCode, b, c.status, c.code)
				}
				if c.status == 0 && resp.StatusCode/100 != 4 {
					t.Errorf("answer %d %q, want none or a 4xx", resp.StatusCode, b)
				}
			}
			// The connection ends: the server does not wait for more.
			if _, err := io.Copy(io.Discard, conn); err != nil && !strings.Contains(err.Error(), "reset") {
				t.Errorf("the server kept the connection open: %v", err)
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+s.addr.Address+"/persons/1", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /persons/1 after bad input: %v %v", resp, err)
	}
	resp.Body.Close()
}
