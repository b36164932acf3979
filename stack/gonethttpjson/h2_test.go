package gonethttpjson_test

import (
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/gonethttpjson"
)

// protoServer serves the production server's handler from a net/http server of the
// test's, speaking the given protocols, and records the HTTP version of each request.
func protoServer(t *testing.T, protocols *http.Protocols) (transport.Addr, *atomic.Int64, *atomic.Int64) {
	h, err := gonethttpjson.NewStdServer(contract.NewReference(testData), protocol.ServerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var h1, h2 atomic.Int64
	hs := &http.Server{Protocols: protocols, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor == 2 {
			h2.Add(1)
		} else {
			h1.Add(1)
		}
		h.ServeHTTP(w, r)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return transport.AddrOf(ln.Addr()), &h1, &h2
}

// The HTTP/2 client speaks HTTP/2 (h2c with prior knowledge), and only that: it does
// not fall back to HTTP/1.1 against a server without HTTP/2.
func TestStdClientH2SpeaksHTTP2(t *testing.T) {
	ctx := protocoltest.Context(t)
	var both http.Protocols
	both.SetHTTP1(true)
	both.SetUnencryptedHTTP2(true)
	addr, h1, h2 := protoServer(t, &both)
	cl, err := gonethttpjson.NewStdClientH2(ctx, protocol.ClientConfig{Address: addr, Dial: transport.Dialer(addr, nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for id := int64(1); id <= 3; id++ {
		if _, err := cl.GetPerson(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if h2.Load() != 3 || h1.Load() != 0 {
		t.Errorf("requests: %d over HTTP/2, %d over HTTP/1; want 3 and 0", h2.Load(), h1.Load())
	}

	var only1 http.Protocols
	only1.SetHTTP1(true)
	addr, h1, _ = protoServer(t, &only1)
	cl1, err := gonethttpjson.NewStdClientH2(ctx, protocol.ClientConfig{Address: addr, Dial: transport.Dialer(addr, nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl1.Close()
	if _, err := cl1.GetPerson(ctx, 1); err == nil || h1.Load() != 0 {
		t.Errorf("against an HTTP/1.1-only server: %v, %d HTTP/1 requests; want a failure and none", err, h1.Load())
	}
}

// curl speaks HTTP/2 to both servers: h2c with prior knowledge, and h2 by ALPN over
// TLS (the servers offer h2 before http/1.1).
func TestCurlHTTP2(t *testing.T) {
	for _, stack := range stacks {
		t.Run(stack, func(t *testing.T) {
			tg := protocoltest.StartStacks(t, httpjson.Name, stack, "", "tcp", nil, protocol.ServerConfig{})
			status, body := protocoltest.Curl(t, tg.Addr, "--http2-prior-knowledge", "-w", "\n%{http_version}\n%{http_code}", "/persons/3")
			checkH2(t, "h2c", status, body)
			tls := protocoltest.StartStacks(t, httpjson.Name, stack, "", protocoltest.TLSNetwork, nil, protocol.ServerConfig{})
			status, body = protocoltest.CurlTLS(t, tls.Addr, tls.TLS, "--http2", "-w", "\n%{http_version}\n%{http_code}", "/persons/3")
			checkH2(t, "h2", status, body)
			// The stream over HTTP/2: every line, and the end line.
			status, body = protocoltest.Curl(t, tg.Addr, "--http2-prior-knowledge", "/trades?count=1000")
			if lines := strings.Split(strings.TrimSpace(string(body)), "\n"); status != 200 || len(lines) != 1001 || lines[1000] != `{"end":{"count":1000}}` {
				t.Errorf("stream over h2c: %d, %d lines, last %q", status, len(lines), lines[len(lines)-1])
			}
		})
	}
}

func checkH2(t *testing.T, what string, status int, body []byte) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	var p contract.Person
	decodeJSON(t, what+" GET /persons/3", []byte(lines[0]), &p)
	if want, _ := testData.Person(3); status != 200 || !p.Equal(want) {
		t.Errorf("%s GET /persons/3: %d %+v", what, status, p)
	}
	if v := lines[len(lines)-1]; v != "2" {
		t.Errorf("%s: curl spoke HTTP %q, want 2", what, v)
	}
}
