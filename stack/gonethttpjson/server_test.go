package gonethttpjson_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
)

// rawExchange writes req on a new connection to s and reads one response.
func rawExchange(t *testing.T, s *server, req string) (*http.Response, string) {
	t.Helper()
	c, err := net.DialTimeout(s.addr.Network, s.addr.Address, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	var head *http.Request // nil reads like GET; a HEAD answer has no body
	if strings.HasPrefix(req, "HEAD ") {
		head = &http.Request{Method: http.MethodHead}
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), head)
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", req, err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func TestServerRefusesBigBodyFromContentLength(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		s := startServer(t, stack, "tcp", protocol.ServerConfig{MaxMessageSize: 1 << 20})
		// Only the head is sent: the answer must come without waiting for the body.
		resp, body := rawExchange(t, s, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n")
		if resp.StatusCode != 413 || !strings.Contains(body, `"code":"resource_exhausted"`) {
			t.Errorf("100 MiB Content-Length: %d %s", resp.StatusCode, body)
		}
		if !resp.Close {
			t.Error("the connection of a refused body should close")
		}
	})
}

func TestServerRefusesBigChunkedBody(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		s := startServer(t, stack, "tcp", protocol.ServerConfig{MaxMessageSize: 1 << 10})
		chunk := strings.Repeat("a", 600)
		req := "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"258\r\n" + chunk + "\r\n258\r\n" + chunk + "\r\n" // 2 × 600 bytes, no end: the limit stops it
		resp, body := rawExchange(t, s, req)
		if resp.StatusCode != 413 || !strings.Contains(body, `"code":"resource_exhausted"`) {
			t.Errorf("chunked body over the limit: %d %s", resp.StatusCode, body)
		}
		// A chunked body under the limit is read.
		resp, body = rawExchange(t, s, "POST /increment HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"+
			"6\r\n{\"valu\r\n7\r\ne\": 41}\r\n0\r\n\r\n")
		if resp.StatusCode != 200 || strings.TrimSpace(body) != `{"value":42}` {
			t.Errorf("chunked increment: %d %s", resp.StatusCode, body)
		}
	})
}

func TestServerHead(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		s := startServer(t, stack, "tcp", protocol.ServerConfig{})
		resp, body := rawExchange(t, s, "HEAD /trades?count=10 HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp.StatusCode != 200 || body != "" || resp.Header.Get("Content-Type") != "application/x-ndjson" {
			t.Errorf("HEAD /trades: %d %q %v", resp.StatusCode, body, resp.Header)
		}
	})
}

func TestServeSeveralListeners(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		srv := newStackServer(stack, contract.NewReference(testData), protocol.ServerConfig{})
		done := make(chan error, 2)
		var addrs []transport.Addr
		for range 2 {
			ln := listenTCP(t)
			addrs = append(addrs, transport.AddrOf(ln.Addr()))
			go func() { done <- srv.Serve(ln) }()
		}
		for _, a := range addrs {
			cl := newClient(t, stack, a, protocol.ClientConfig{})
			if _, err := cl.GetPerson(protocoltest.Context(t), 1); err != nil {
				t.Errorf("GetPerson on %s: %v", a, err)
			}
		}
		if err := srv.Shutdown(protocoltest.Context(t)); err != nil {
			t.Errorf("Shutdown of an idle server: %v", err)
		}
		for range 2 {
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Serve after Shutdown: %v, want nil", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Serve did not return after Shutdown")
			}
		}
		if err := srv.Serve(listenTCP(t)); err != nil {
			t.Errorf("Serve on a closed server: %v, want nil", err)
		}
		srv.Close() // harmless after Shutdown
	})
}

func TestShutdownWaitsForStream(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		s := startServer(t, stack, "tcp", protocol.ServerConfig{})
		cl := s.client(t, protocol.ClientConfig{})
		started := make(chan struct{})
		streamErr := make(chan error, 1)
		go func() {
			var once bool
			streamErr <- cl.StreamTrades(protocoltest.Context(t), contract.MaxTrades, func(*contract.Trade) error {
				if !once {
					once = true
					close(started)
				}
				return nil
			})
		}()
		<-started
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		if err := s.srv.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Shutdown with a long stream in flight: %v, want DeadlineExceeded", err)
		}
		select {
		case err := <-streamErr:
			if err == nil {
				t.Error("a stream cut by Shutdown's close succeeded")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the stream did not end after Shutdown closed the server")
		}
	})
}

// TestSlowStreamReader checks that a stream read slowly (yield sleeps between batches)
// completes: the server waits on its writes, nothing times it out.
func TestSlowStreamReader(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	eachStack(t, func(t *testing.T, stack string) {
		s := startServer(t, stack, "unix", protocol.ServerConfig{})
		cl := s.client(t, protocol.ClientConfig{})
		var n int64
		err := cl.StreamTrades(protocoltest.Context(t), 3*httpjson.StreamBatch, func(*contract.Trade) error {
			if n++; n%httpjson.StreamBatch == 0 {
				time.Sleep(100 * time.Millisecond)
			}
			return nil
		})
		if err != nil || n != 3*httpjson.StreamBatch {
			t.Errorf("slow stream: %v after %d trades", err, n)
		}
	})
}
