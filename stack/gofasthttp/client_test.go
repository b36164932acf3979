package gofasthttp_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/gofasthttp"
)

// cannedPeer is a server that answers every request with answer, written by hand, and
// then hangs up.
func cannedPeer(t *testing.T, answer string) transport.Addr {
	return protocoltest.Peer(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		req, err := http.ReadRequest(bufio.NewReader(c))
		if err != nil {
			return
		}
		io.Copy(io.Discard, req.Body)
		io.WriteString(c, answer)
	})
}

func newClient(t *testing.T, addr transport.Addr, limit int) *gofasthttp.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, err := gofasthttp.NewClient(ctx, protocol.ClientConfig{Address: addr, Dial: transport.Dialer(addr, nil), MaxMessageSize: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

const tradeLine = `{"id":0,"symbol":"AAPL","price":100,"quantity":1,"timestamp_nanos":1767225600000000000,"side":"BUY"}` + "\n"

// chunkedAnswer is a 200 answer whose body is sent as one chunk, and ended properly.
func chunkedAnswer(body string) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n" +
		strconv.FormatInt(int64(len(body)), 16) + "\r\n" + body + "\r\n0\r\n\r\n"
}

// TestClientBadAnswers points the client at servers that answer wrongly: pages that
// are not the protocol's, bodies cut short, over the limit or not JSON, and streams
// without their end line, with a wrong count, or with a line over the limit. Each
// call fails with the error the protocol gives it, and none hangs.
func TestClientBadAnswers(t *testing.T) {
	const limit = 1 << 10
	for _, c := range []struct {
		name, answer string
		stream       bool
		code         contract.Code // "": an error that is no contract refusal
		msg          string        // part of the error
	}{
		{name: "html 404", answer: "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\n<h1>x</h1", code: contract.NotFound, msg: "404"},
		{name: "plain 502", answer: "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 3\r\n\r\nbad", msg: "502"},
		{name: "json refusal", answer: "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n" + `{"code":"internal","message":"boom"}`, code: contract.Internal, msg: "boom"},
		{name: "truncated json", answer: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{\"id\":1,\"n", msg: "bad answer"},
		{name: "body cut short", answer: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":1}", msg: "GET /persons/{id}"},
		{name: "over the limit", answer: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{", code: contract.ResourceExhausted},
		{name: "not json", answer: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", msg: "bad answer"},
		{name: "stream without end", answer: chunkedAnswer(tradeLine + tradeLine), stream: true, msg: "cut short"},
		{name: "stream with a wrong count", answer: chunkedAnswer(tradeLine + `{"end":{"count":3}}` + "\n"), stream: true, msg: "end line says 3"},
		{name: "stream line over the limit", answer: chunkedAnswer(`{"id":0,"symbol":"` + strings.Repeat("A", 2*limit) + "\"}\n"), stream: true, code: contract.ResourceExhausted},
		{name: "stream error line", answer: chunkedAnswer(tradeLine + `{"error":{"code":"internal","message":"disk gone"}}` + "\n"), stream: true, code: contract.Internal, msg: "disk gone"},
		{name: "stream of garbage", answer: chunkedAnswer("not json\n"), stream: true, msg: "stream line"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := newClient(t, cannedPeer(t, c.answer), limit)
			ctx := protocoltest.Context(t)
			var err error
			if c.stream {
				err = cl.StreamTrades(ctx, 2, func(*contract.Trade) error { return nil })
			} else {
				_, err = cl.GetPerson(ctx, 1)
			}
			if err == nil {
				t.Fatal("the call succeeded, want an error")
			}
			var ce *contract.Error
			isContract := errors.As(err, &ce)
			switch {
			case c.code != "" && contract.CodeOf(err) != c.code:
				t.Errorf("error %v has code %q, want %q", err, contract.CodeOf(err), c.code)
			case c.code == "" && isContract:
				t.Errorf("error %v is a contract refusal (%s), want a failed call", err, ce.Code)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q does not say %q", err, c.msg)
			}
		})
	}
}

// TestClientCancelStream cancels a stream's context while it is being read: the call
// returns the context's error at once, without reading the rest.
func TestClientCancelStream(t *testing.T) {
	tg := protocoltest.StartStacks(t, "http-json", gofasthttp.Name, gofasthttp.Name, "tcp", nil, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	ctx, cancel := context.WithCancel(protocoltest.Context(t))
	defer cancel()
	n := 0
	err := cl.StreamTrades(ctx, contract.MaxTrades, func(*contract.Trade) error {
		n++
		if n == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a stream whose context was cancelled returned %v, want context.Canceled", err)
	}
	if n >= contract.MaxTrades {
		t.Errorf("the stream delivered all %d trades after its context was cancelled", n)
	}
	if _, err := cl.GetPerson(protocoltest.Context(t), 1); err != nil {
		t.Errorf("GetPerson after a cancelled stream: %v", err)
	}
}
