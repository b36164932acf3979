package transport

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/net/nettest"
)

// TestRawConnIsANetConn runs x/net's conformance tests of net.Conn (reads and writes
// of every size, concurrent use, deadlines, Close during I/O) over connection pairs
// whose both ends read and write with raw system calls, over TCP and Unix sockets.
func TestRawConnIsANetConn(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			nettest.TestConn(t, func() (c1, c2 net.Conn, stop func(), err error) {
				return rawPair(t, network)
			})
		})
	}
}

func rawPair(t *testing.T, network string) (c1, c2 net.Conn, stop func(), err error) {
	addr := "127.0.0.1:0"
	if network == "unix" {
		addr = filepath.Join(t.TempDir(), "s")
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, nil, nil, err
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c1, err = Dialer(AddrOf(ln.Addr()), nil)(context.Background())
	if err != nil {
		return nil, nil, nil, err
	}
	srv := <-accepted
	if srv == nil {
		c1.Close()
		return nil, nil, nil, errors.New("accept failed")
	}
	if _, ok := c1.(*rawConn); !ok {
		t.Fatalf("Dialer gave a %T, want raw I/O", c1)
	}
	c2 = rawIO(srv)
	return c1, c2, func() { c1.Close(); c2.Close() }, nil
}

// TestRawConnErrors checks the errors callers test for: end of stream, a deadline, a
// closed connection, and a write to a peer that is gone.
func TestRawConnErrors(t *testing.T) {
	c1, c2, stop, err := rawPair(t, "tcp")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	buf := make([]byte, 16)
	c1.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, err := c1.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read past the deadline: %v, want os.ErrDeadlineExceeded", err)
	} else if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
		t.Errorf("read past the deadline: %v is not a net.Error with Timeout()", err)
	}
	c1.SetReadDeadline(time.Time{})
	c2.Close()
	if n, err := c1.Read(buf); n != 0 || err == nil || err.Error() != "EOF" {
		t.Errorf("read after the peer closed: %d, %v; want 0, EOF", n, err)
	}
	var werr error
	for range 100 { // the first writes may still be buffered before the reset comes back
		if _, werr = c1.Write(buf); werr != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var se *os.SyscallError
	if !errors.As(werr, &se) {
		t.Errorf("write to a closed peer: %v, want a system call error (EPIPE or ECONNRESET)", werr)
	}
	c1.Close()
	if _, err := c1.Read(buf); !errors.Is(err, net.ErrClosed) {
		t.Errorf("read of a closed connection: %v, want net.ErrClosed", err)
	}
}

// TestRawConnAllocatesNothing: a load generator reads and writes on every call, so
// neither may allocate.
func TestRawConnAllocatesNothing(t *testing.T) {
	c1, c2, stop, err := rawPair(t, "tcp")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	buf := make([]byte, 64)
	if n := testing.AllocsPerRun(1000, func() {
		c1.Write(buf)
		io.ReadFull(c2, buf)
	}); n != 0 {
		t.Errorf("%v allocations per write and read, want 0", n)
	}
}
