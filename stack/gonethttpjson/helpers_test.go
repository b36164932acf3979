package gonethttpjson_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
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

var testData = contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)

// handlerServer is the server of either stack.
type handlerServer interface {
	protocol.Server
	http.Handler
}

// newStackServer returns the server of the named stack.
func newStackServer(stack string, svc contract.Service, cfg protocol.ServerConfig) handlerServer {
	var (
		s   handlerServer
		err error
	)
	if stack == gotunedjson.Name {
		s, err = gotunedjson.NewServer(svc, cfg)
	} else {
		s, err = gonethttpjson.NewStdServer(svc, cfg)
	}
	if err != nil {
		panic(err) // the tests' configs are valid
	}
	return s
}

// eachStack runs f as a subtest for each stack of the protocol.
func eachStack(t *testing.T, f func(t *testing.T, stack string)) {
	for _, stack := range stacks {
		t.Run(stack, func(t *testing.T) { f(t, stack) })
	}
}

// server is a running server of one stack whose listener counts the bytes the server
// reads, to check that it refuses big bodies without reading them.
type server struct {
	srv   handlerServer
	stack string
	svc   *contract.Reference
	addr  transport.Addr
	read  *atomic.Int64
}

func startServer(t testing.TB, stack, network string, cfg protocol.ServerConfig) *server {
	t.Helper()
	svc := contract.NewReference(testData)
	srv := newStackServer(stack, svc, cfg)
	ln, err := transport.Listen(protocoltest.ListenAddr(t, network))
	if err != nil {
		t.Fatal(err)
	}
	s := &server{srv: srv, stack: stack, svc: svc, addr: transport.AddrOf(ln.Addr()), read: new(atomic.Int64)}
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
			t.Error("Serve did not return after Close")
		}
	})
	return s
}

// client returns a client of the server's own stack.
func (s *server) client(t testing.TB, cfg protocol.ClientConfig) protocol.Client {
	t.Helper()
	return newClient(t, s.stack, s.addr, cfg)
}

// newClient returns a client of the named stack, closed by t.Cleanup.
func newClient(t testing.TB, stack string, addr transport.Addr, cfg protocol.ClientConfig) protocol.Client {
	t.Helper()
	cfg.Address = addr
	if cfg.Dial == nil {
		cfg.Dial = transport.Dialer(addr, nil)
	}
	cl, err := newClientErr(stack, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
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

// listenTCP returns a loopback listener closed by t.Cleanup.
func listenTCP(t testing.TB) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

func wantCode(t testing.TB, what string, err error, code contract.Code) {
	t.Helper()
	if got := contract.CodeOf(err); got != code {
		t.Errorf("%s: error %v has code %q, want %q", what, err, got, code)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

var errClosed = httpjson.ErrClosed

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func newClientErr(stack string, cfg protocol.ClientConfig) (protocol.Client, error) {
	st, err := protocol.LookupStack(httpjson.Name, stack, protocol.ClientSide)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return st.NewClient(ctx, cfg)
}
