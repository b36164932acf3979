package gonethttpjson_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
)

// FuzzHandlers posts arbitrary bodies to the routes that read one, on the server of
// each stack: it answers 2xx or 4xx with a JSON body, never 5xx, never panics.
func FuzzHandlers(f *testing.F) {
	for _, seed := range []struct {
		route uint8
		body  string
	}{
		{0, `{"name":{"title":"dr","first":"A","last":"B"},"email":"a@b","picture":{"large":"l"}}`},
		{0, `{"id":"x"}`},
		{0, `null`},
		{0, `{"name":{"first":"A","last":"B"},"email":"a@b","picture":null} trailing`},
		{1, `{"payload":"hello"}`},
		{1, `{"payload":"\ud800"}`},
		{1, `{"payload":null}`},
		{1, `[]`},
		{2, `{"value":9223372036854775807}`},
		{2, `{"value":1e3}`},
		{2, `{"value":99999999999999999999}`},
		{2, ``},
		{2, "\xff\xfe"},
	} {
		f.Add(seed.route, []byte(seed.body))
	}
	var servers []handlerServer
	for _, stack := range stacks {
		servers = append(servers, newStackServer(stack, contract.NewReference(testData), protocol.ServerConfig{MaxMessageSize: 64 << 10}))
	}
	routes := []string{"/persons", "/echo", "/increment"}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		path := routes[int(route)%len(routes)]
		for i, srv := range servers {
			req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code >= 500 || rec.Code < 200 || (rec.Code >= 300 && rec.Code < 400) {
				t.Fatalf("%s: POST %s %q: status %d %s", stacks[i], path, body, rec.Code, rec.Body)
			}
			var v map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
				t.Fatalf("%s: POST %s %q: answer %q is not a JSON object: %v", stacks[i], path, body, rec.Body, err)
			}
			if rec.Code >= 400 && (v["code"] == nil || v["message"] == nil) {
				t.Fatalf("%s: POST %s %q: error answer %s lacks code or message", stacks[i], path, body, rec.Body)
			}
		}
	})
}

// FuzzClientResponse feeds arbitrary bytes to the client of each stack as the server's
// answer, on every kind of call: it must return (an error, mostly), never panic or
// hang.
func FuzzClientResponse(f *testing.F) {
	for _, seed := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 33\r\n\r\n{\"calls\":1,\"last_payload_len\":2}\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"pay\r\n0e\r\nload\":\"hello\"}\r\n0\r\nX-T: y\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-ndjson\r\n\r\n" +
			"65\r\n{\"id\":0,\"symbol\":\"AAPL\",\"price\":100,\"quantity\":1,\"timestamp_nanos\":1767225600000000000,\"side\":\"BUY\"}\n\r\n" +
			"14\r\n{\"end\":{\"count\":1}}\n\r\n0\r\n\r\n",
		"HTTP/1.1 200 OK\r\n\r\n{\"error\":{\"code\":\"internal\",\"message\":\"x\"}}\n",
		"HTTP/1.0 404 Not Found\r\n\r\n{\"code\":\"not_found\",\"message\":\"no\"}",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413 Too Large\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}",
		"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\n",
		"HTTP/1.1 204 No Content\r\n\r\n",
		"\r\n\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, answer []byte) {
		dial := func(context.Context) (net.Conn, error) { return &fakeConn{r: bytes.NewReader(answer)}, nil }
		cfg := protocol.ClientConfig{Address: transport.Addr{Network: "tcp", Address: "fuzz:80"}, Dial: dial, MaxMessageSize: 1 << 10}
		for _, stack := range stacks {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			cl, err := newClientErr(stack, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cl.Stats(ctx)
			cl.Echo(ctx, "hello")
			cl.ListPersons(ctx)
			cl.StreamTrades(ctx, 3, func(*contract.Trade) error { return nil })
			cl.Close()
			if ctx.Err() != nil {
				t.Fatalf("%s: the calls took 5s on a %d-byte answer", stack, len(answer))
			}
			cancel()
		}
	})
}

// fakeConn answers with fixed bytes, then EOF, and swallows what is written.
type fakeConn struct {
	r      *bytes.Reader
	closed bool
}

func (c *fakeConn) Read(p []byte) (int, error) {
	if c.closed {
		return 0, net.ErrClosed
	}
	return c.r.Read(p)
}
func (c *fakeConn) Write(p []byte) (int, error) {
	if c.closed {
		return 0, net.ErrClosed
	}
	return len(p), nil
}
func (c *fakeConn) Close() error                     { c.closed = true; return nil }
func (c *fakeConn) LocalAddr() net.Addr              { return fakeAddr{} }
func (c *fakeConn) RemoteAddr() net.Addr             { return fakeAddr{} }
func (c *fakeConn) SetDeadline(time.Time) error      { return nil }
func (c *fakeConn) SetReadDeadline(time.Time) error  { return nil }
func (c *fakeConn) SetWriteDeadline(time.Time) error { return nil }

type fakeAddr struct{}

func (fakeAddr) Network() string { return "fake" }
func (fakeAddr) String() string  { return "fake" }

var _ io.ReadWriteCloser = (*fakeConn)(nil)
