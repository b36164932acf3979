package gonethttpjson_test

// The client against servers other than ours: a plain net/http handler (chunked
// answers, Connection: close, errors that are not JSON) and scripted raw servers
// (HTTP/1.0, close-delimited bodies, idle connections closed under the client).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/gonethttpjson"
	"github.com/wirebench/wirebench/stack/gotunedjson"
)

// serveHTTP serves h with a plain net/http server on a loopback port.
func serveHTTP(t *testing.T, h http.Handler) transport.Addr {
	t.Helper()
	ln := listenTCP(t)
	hs := &http.Server{Handler: h, ErrorLog: log.New(io.Discard, "", 0)}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return transport.AddrOf(ln.Addr())
}

// countDials returns a dialer of addr that counts the connections it opens.
func countDials(addr transport.Addr, n *atomic.Int64) transport.DialFunc {
	d := transport.Dialer(addr, nil)
	return func(ctx context.Context) (net.Conn, error) {
		n.Add(1)
		return d(ctx)
	}
}

func TestClientAgainstNetHTTP(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		p1, _ := testData.Person(1)
		mux := http.NewServeMux()
		mux.HandleFunc("GET /persons/1", func(w http.ResponseWriter, r *http.Request) {
			// Flushing after a first part forces a chunked body.
			body := mustJSON(p1)
			w.Write(body[:10])
			w.(http.Flusher).Flush()
			w.Write(body[10:])
		})
		mux.HandleFunc("GET /persons/2", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Connection", "close")
			p, _ := testData.Person(2)
			w.Write(mustJSON(p))
		})
		mux.HandleFunc("GET /persons/3", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "database on fire", http.StatusInternalServerError)
		})
		mux.HandleFunc("GET /persons/4", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "try later", http.StatusServiceUnavailable)
		})
		mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			if r.Header.Get("Content-Type") != "application/json" || r.ContentLength != int64(len(b)) {
				http.Error(w, "bad request head", http.StatusBadRequest)
				return
			}
			w.Write(b) // the same shape both ways
		})
		mux.HandleFunc("GET /persons", func(w http.ResponseWriter, r *http.Request) {
			// Chunked and over the client's limit below.
			w.Write([]byte(`{"persons":[`))
			w.(http.Flusher).Flush()
			w.Write([]byte(strings.Repeat(" ", 4096) + `]}`))
		})
		mux.HandleFunc("GET /stats", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "5000") // over the client's limit, refused from the header
			w.Write(make([]byte, 5000))
		})
		mux.HandleFunc("GET /trades", func(w http.ResponseWriter, r *http.Request) {
			for i := range int64(3) {
				tr := contract.TradeAt(i)
				fmt.Fprintf(w, `{"id":%d,"symbol":%q,"price":%v,"quantity":%d,"timestamp_nanos":%d,"side":%q}`+"\n",
					tr.ID, tr.Symbol, tr.Price, tr.Quantity, tr.TimestampNanos, tr.Side)
				w.(http.Flusher).Flush()
			}
			if r.URL.Query().Get("count") == "3" {
				io.WriteString(w, `{"end":{"count":3}}`+"\n")
			} // else: cut short, no end line
		})
		addr := serveHTTP(t, mux)
		var dials atomic.Int64
		cl := newClient(t, stack, addr, protocol.ClientConfig{Dial: countDials(addr, &dials), MaxMessageSize: 2048})
		ctx := protocoltest.Context(t)

		var first int64 // the dials up to the first call's: NewClient may dial too
		for i := range 3 {
			if got, err := cl.GetPerson(ctx, 1); err != nil || !got.Equal(p1) {
				t.Fatalf("GetPerson(1) with a chunked answer = %+v, %v", got, err)
			}
			if i == 0 {
				first = dials.Load()
			}
		}
		if n := dials.Load() - first; n != 0 {
			t.Errorf("%d more connections for 2 more sequential calls, want the first kept alive", n)
		}
		for range 2 {
			if got, err := cl.GetPerson(ctx, 2); err != nil || got.ID != 2 {
				t.Fatalf("GetPerson(2) with Connection: close = %+v, %v", got, err)
			}
		}
		if n := dials.Load() - first; n != 1 {
			t.Errorf("%d more connections after two Connection: close answers, want 1", n)
		}
		_, err := cl.GetPerson(ctx, 3)
		wantCode(t, "text 500", err, contract.Internal)
		if err == nil || !strings.Contains(err.Error(), "database on fire") {
			t.Errorf("text 500: error %v lacks the body's text", err)
		}
		_, err = cl.GetPerson(ctx, 4)
		if err == nil || contract.CodeOf(err) != "" || !strings.Contains(err.Error(), "503") {
			t.Errorf("503: error %v, want a non-contract error naming the status", err)
		}
		_, err = cl.GetPerson(ctx, 99) // the mux's own text 404
		wantCode(t, "text 404", err, contract.NotFound)
		_, err = cl.Increment(ctx, 1) // no such route: 404 from the mux
		wantCode(t, "unknown route", err, contract.NotFound)
		if got, err := cl.Echo(ctx, "ping"); err != nil || got != "ping" {
			t.Errorf("Echo = %q, %v", got, err)
		}
		_, err = cl.ListPersons(ctx)
		wantCode(t, "chunked body over the limit", err, contract.ResourceExhausted)
		_, err = cl.Stats(ctx)
		wantCode(t, "Content-Length over the limit", err, contract.ResourceExhausted)
		var n int64
		if err := cl.StreamTrades(ctx, 3, func(tr *contract.Trade) error {
			if *tr != contract.TradeAt(n) {
				return fmt.Errorf("trade %d = %+v", n, *tr)
			}
			n++
			return nil
		}); err != nil || n != 3 {
			t.Errorf("StreamTrades(3) = %v after %d trades", err, n)
		}
		err = cl.StreamTrades(ctx, 4, func(*contract.Trade) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "cut short") {
			t.Errorf("a stream without its end line: %v, want a cut-short error", err)
		}
		// Still usable after all that.
		if got, err := cl.GetPerson(ctx, 1); err != nil || !got.Equal(p1) {
			t.Errorf("GetPerson(1) at the end = %+v, %v", got, err)
		}
	})
}

func mustJSON(v any) []byte {
	b, err := jsonMarshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// rawServer answers each connection with script, which reads the request head from br
// and writes to c.
func rawServer(t *testing.T, script func(br *bufio.Reader, c net.Conn)) transport.Addr {
	t.Helper()
	return protocoltest.Peer(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		script(bufio.NewReader(c), c)
	})
}

// readHead reads a request head, and its body when it has a Content-Length.
func readHead(br *bufio.Reader) error {
	req, err := http.ReadRequest(br)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, req.Body)
	return err
}

func TestClientStaleIdleConnection(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		// Each connection answers one request, promising keep-alive, then closes: the
		// client's next call finds its idle connection dead before any answer, and must
		// retry on a new one.
		serverClosed := make(chan struct{}, 16)
		addr := rawServer(t, func(br *bufio.Reader, c net.Conn) {
			if readHead(br) != nil {
				return
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"value\":8}\n")
			c.Close()
			serverClosed <- struct{}{}
		})
		var dials atomic.Int64
		var last atomic.Pointer[closeSignal]
		dial := countDials(addr, &dials)
		cl := newClient(t, stack, addr, protocol.ClientConfig{Dial: func(ctx context.Context) (net.Conn, error) {
			c, err := dial(ctx)
			if err != nil {
				return nil, err
			}
			cs := &closeSignal{Conn: c, closed: make(chan struct{})}
			last.Store(cs)
			return cs, nil
		}})
		ctx := protocoltest.Context(t)
		var first int64 // the dials up to the first call's: NewClient may dial too
		for i := range 3 {
			if v, err := cl.Increment(ctx, 7); err != nil || v != 8 {
				t.Fatalf("call %d: %d, %v", i, v, err)
			}
			if i == 0 {
				first = dials.Load()
			}
			// The server has closed the call's connection before the next call.
			// net/http reads each idle connection in the background and closes it at
			// the EOF, having marked it broken: the test waits for that close too, or
			// the next call could take the connection before net/http saw the EOF (and
			// fail, as a POST is not retried once written). The tuned client finds a
			// dead connection only when it uses it, which is what it is tested for.
			waitFor(t, serverClosed, "the server to close call %d's connection", i)
			if stack == gonethttpjson.Name {
				waitFor(t, last.Load().closed, "net/http to drop call %d's connection the server closed", i)
			}
		}
		if n := dials.Load() - first; n != 2 {
			t.Errorf("%d dials after the first call, want 2", n)
		}
	})
}

// closeSignal is a connection that closes its channel when it is closed.
type closeSignal struct {
	net.Conn
	once   sync.Once
	closed chan struct{}
}

func (c *closeSignal) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// waitFor waits for ch, failing the test after 10 s (a bound on a hang, not a
// synchronisation).
func waitFor[T any](t *testing.T, ch <-chan T, what string, args ...any) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("no sign within 10s of "+what, args...)
	}
}

func TestClientHonoursConnectionClose(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		// The server says Connection: close but leaves the connection open and answers
		// nothing more on it: a client that reused it would hang.
		addr := rawServer(t, func(br *bufio.Reader, c net.Conn) {
			if readHead(br) != nil {
				return
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 12\r\n\r\n{\"value\":8}\n")
			io.Copy(io.Discard, br)
		})
		cl := newClient(t, stack, addr, protocol.ClientConfig{})
		for i := range 3 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			v, err := cl.Increment(ctx, 7)
			cancel()
			if err != nil || v != 8 {
				t.Fatalf("call %d: %d, %v", i, v, err)
			}
		}
	})
}

func TestClientHTTP10CloseDelimited(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		addr := rawServer(t, func(br *bufio.Reader, c net.Conn) {
			if readHead(br) != nil {
				return
			}
			// 1xx answers come first and are skipped; the body runs to the close.
			io.WriteString(c, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\nX-A: b\r\n\r\n{\"calls\":3,\"last_payload_len\":11}")
		})
		cl := newClient(t, stack, addr, protocol.ClientConfig{})
		for range 2 {
			st, err := cl.Stats(protocoltest.Context(t))
			if err != nil || st != (contract.Stats{Calls: 3, LastPayloadLen: 11}) {
				t.Fatalf("Stats = %+v, %v", st, err)
			}
		}
	})
}

func TestClientRefusesMalformedAnswers(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		answers := map[string]string{
			"not HTTP":               "SSH-2.0-OpenSSH\r\n\r\n",
			"bad status":             "HTTP/1.1 2x0 OK\r\n\r\n",
			"two lengths":            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
			"gzip":                   "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
			"bad chunk size":         "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
			"chunk longer than said": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n",
			"short body":             "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}",
			"not JSON":               "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
		}
		if stack == gotunedjson.Name {
			// net/http accepts an obsolete folded header, as RFC 9112 lets a user
			// agent do; the tuned client's parser does not.
			answers["folded header"] = "HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 2\r\n\r\n{}"
		}
		for name, answer := range answers {
			t.Run(name, func(t *testing.T) {
				addr := rawServer(t, func(br *bufio.Reader, c net.Conn) {
					if readHead(br) == nil {
						io.WriteString(c, answer)
					}
				})
				cl := newClient(t, stack, addr, protocol.ClientConfig{})
				if st, err := cl.Stats(protocoltest.Context(t)); err == nil {
					t.Errorf("Stats = %+v, want an error", st)
				} else if contract.CodeOf(err) != "" {
					t.Errorf("Stats: %v, want no contract code for a broken answer", err)
				}
			})
		}
	})
}

func TestClientContextEndsHungCall(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		// The server never answers: the call must end with its context.
		addr := rawServer(t, func(br *bufio.Reader, c net.Conn) {
			readHead(br)
			io.Copy(io.Discard, br)
		})
		cl := newClient(t, stack, addr, protocol.ClientConfig{})
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := cl.GetPerson(ctx, 1)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
			t.Errorf("hung call: %v after %v, want DeadlineExceeded at once", err, time.Since(start))
		}
		ctx2, cancel2 := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel2)
		err = cl.StreamTrades(ctx2, 10, func(*contract.Trade) error { return nil })
		if !errors.Is(err, context.Canceled) {
			t.Errorf("hung stream: %v, want Canceled", err)
		}
	})
}

func TestStreamCancelledMidway(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		s := startServer(t, stack, "tcp", protocol.ServerConfig{})
		cl := s.client(t, protocol.ClientConfig{})
		ctx, cancel := context.WithCancel(protocoltest.Context(t))
		var n int
		err := cl.StreamTrades(ctx, contract.MaxTrades, func(*contract.Trade) error {
			if n++; n == 1000 {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("stream cancelled midway: %v, want Canceled", err)
		}
		if _, err := cl.GetPerson(protocoltest.Context(t), 1); err != nil {
			t.Errorf("GetPerson after a cancelled stream: %v", err)
		}
	})
}

func TestClientOverServerLimit(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		for _, network := range []string{"tcp", "unix"} {
			t.Run(network, func(t *testing.T) {
				s := startServer(t, stack, network, protocol.ServerConfig{MaxMessageSize: 4 << 10})
				cl := s.client(t, protocol.ClientConfig{})
				ctx := protocoltest.Context(t)
				// A small refused body fits in the socket buffers; a large one does not,
				// and the client's write fails before it reads the 413.
				for _, size := range []int{8 << 10, 4 << 20} {
					_, err := cl.Echo(ctx, strings.Repeat("z", size))
					wantCode(t, fmt.Sprintf("Echo of %d bytes over a 4 KiB limit", size), err, contract.ResourceExhausted)
				}
				if got, err := cl.Echo(ctx, "fine"); err != nil || got != "fine" {
					t.Errorf("Echo after refusals = %q, %v", got, err)
				}
			})
		}
	})
}

func TestClosedClientFailsAtOnce(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		s := startServer(t, stack, "tcp", protocol.ServerConfig{})
		cl := s.client(t, protocol.ClientConfig{})
		cl.Close()
		if _, err := cl.Echo(protocoltest.Context(t), "x"); !errors.Is(err, errClosed) {
			t.Errorf("Echo after Close: %v, want ErrClosed", err)
		}
	})
}

func TestNewClientFailsOnDeadTarget(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		ln := listenTCP(t)
		addr := transport.AddrOf(ln.Addr())
		ln.Close()
		cfg := protocol.ClientConfig{Address: addr, Dial: transport.Dialer(addr, nil)}
		if _, err := newClientErr(stack, cfg); err == nil {
			t.Error("NewClient of a closed port succeeded")
		}
		cfg.Options = map[string]string{"bogus": "1"}
		if _, err := newClientErr(stack, cfg); err == nil || !strings.Contains(err.Error(), "bogus") {
			t.Errorf("NewClient with an unknown option: %v", err)
		}
	})
}

func TestManyConnectionsInFlight(t *testing.T) {
	eachStack(t, func(t *testing.T, stack string) {
		s := startServer(t, stack, "tcp", protocol.ServerConfig{})
		var dials atomic.Int64
		cl := s.client(t, protocol.ClientConfig{Dial: countDials(s.addr, &dials)})
		if _, err := cl.Stats(protocoltest.Context(t)); err != nil {
			t.Fatal(err)
		}
		first := dials.Load() // NewClient may dial too
		// Streams of two batches hold their connection while yield waits on the first
		// trade (the rest of the body is still to come), so 8 calls in flight must use
		// 8 connections: the first call's and 7 new ones.
		const inflight = 8
		release := make(chan struct{})
		errs := make(chan error, inflight)
		entered := make(chan struct{}, inflight)
		for range inflight {
			go func() {
				var n int
				errs <- cl.StreamTrades(protocoltest.Context(t), 2*httpjson.StreamBatch, func(*contract.Trade) error {
					if n++; n == 1 {
						entered <- struct{}{}
						<-release
					}
					return nil
				})
			}()
		}
		for range inflight {
			<-entered
		}
		close(release)
		for range inflight {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
		if n := dials.Load() - first; n != inflight-1 {
			t.Errorf("%d new connections for %d calls in flight, want %d", n, inflight, inflight-1)
		}
	})
}
