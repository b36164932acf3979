package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestWriteReadRoundTrips: WriteRead's answers are the peer's, whether the answer is
// there at once, comes later, or the request fills the socket buffer first.
func TestWriteReadRoundTrips(t *testing.T) {
	c1, c2, stop, err := rawPair(t, "tcp")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// The peer reads each request whole and answers it with its reverse, after a
	// pause every other time (the read must wait for it).
	go func() {
		buf := make([]byte, 4<<20)
		for i := 0; ; i++ {
			var n [4]byte
			if _, err := io.ReadFull(c2, n[:]); err != nil {
				return
			}
			size := int(n[0])<<24 | int(n[1])<<16 | int(n[2])<<8 | int(n[3])
			if _, err := io.ReadFull(c2, buf[:size]); err != nil {
				return
			}
			if i%2 == 1 {
				time.Sleep(5 * time.Millisecond)
			}
			c2.Write(reversed(buf[:min(size, 64)]))
		}
	}()
	for _, size := range []int{1, 60, 64 << 10, 3 << 20} {
		req := make([]byte, 4+size)
		req[0], req[1], req[2], req[3] = byte(size>>24), byte(size>>16), byte(size>>8), byte(size)
		for i := range size {
			req[4+i] = byte(i)
		}
		for range 2 {
			ans := make([]byte, 64)
			wn, rn, werr, rerr := WriteRead(c1, req, ans)
			if werr != nil || rerr != nil || wn != len(req) {
				t.Fatalf("request of %d bytes: wrote %d, errors %v, %v", size, wn, werr, rerr)
			}
			want := reversed(req[4:][:min(size, 64)])
			got := ans[:rn]
			for len(got) < len(want) { // an answer may come in pieces
				n, err := c1.Read(ans[len(got):len(want)])
				if err != nil {
					t.Fatal(err)
				}
				got = ans[:len(got)+n]
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("request of %d bytes: answer %x, want %x", size, got, want)
			}
		}
	}
}

func reversed(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[len(b)-1-i] = c
	}
	return out
}

// TestWriteReadAfterPeerAnsweredAndClosed: a peer that answers and closes without
// reading the request (an HTTP server refusing a body over its limit) makes the write
// fail; the answer it left is still read.
func TestWriteReadAfterPeerAnsweredAndClosed(t *testing.T) {
	c1, c2, stop, err := rawPair(t, "tcp")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	c2.Write([]byte("refused"))
	c2.(*rawConn).Conn.(*net.TCPConn).SetLinger(0) // close with a reset: writes fail
	c2.Close()
	waitReset(t, c1.(*rawConn))
	buf := make([]byte, 64)
	_, rn, werr, rerr := WriteRead(c1, make([]byte, 1<<20), buf)
	if werr == nil {
		t.Error("a write to a peer that reset the connection succeeded")
	}
	if rerr == nil && string(buf[:rn]) != "refused" {
		t.Errorf("read %q, want the peer's last words or an error", buf[:rn])
	}
}

// waitReset waits until c's socket has received its peer's reset (poll reports
// POLLERR or POLLHUP whatever events are asked for), failing the test after 10 s.
func waitReset(t *testing.T, c *rawConn) {
	t.Helper()
	var revents int16
	var perr error
	err := c.rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd)}}
		for {
			var n int
			n, perr = unix.Poll(fds, 10_000)
			if perr != unix.EINTR {
				if n == 1 {
					revents = fds[0].Revents
				}
				return
			}
		}
	})
	if err == nil {
		err = perr
	}
	if err != nil {
		t.Fatal(err)
	}
	if revents&(unix.POLLERR|unix.POLLHUP) == 0 {
		t.Fatalf("no reset within 10s of the peer's close (poll events %#x)", revents)
	}
}

// TestWriteReadDeadline: a deadline ends a WriteRead waiting for an answer that does
// not come, with the error a Read gives.
func TestWriteReadDeadline(t *testing.T) {
	c1, _, stop, err := rawPair(t, "unix")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	c1.SetDeadline(time.Now().Add(20 * time.Millisecond))
	_, _, werr, rerr := WriteRead(c1, []byte("hello"), make([]byte, 8))
	if werr != nil || !errors.Is(rerr, os.ErrDeadlineExceeded) {
		t.Errorf("WriteRead with no answer: %v, %v; want nil and os.ErrDeadlineExceeded", werr, rerr)
	}
}

// TestWriteReadCounted: bytes through WriteRead are counted both ways, and raw I/O
// survives the counting wrapper.
func TestWriteReadCounted(t *testing.T) {
	ln, err := Listen(Addr{"tcp", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.ReadFull(c, make([]byte, 100))
		c.Write(make([]byte, 250))
	}()
	var cnt Counter
	conn, err := Dialer(AddrOf(ln.Addr()), &cnt)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, ok := conn.(writeReader); !ok {
		t.Fatalf("a counted connection (%T) lost WriteRead", conn)
	}
	buf := make([]byte, 250)
	_, rn, werr, rerr := WriteRead(conn, make([]byte, 100), buf)
	if werr != nil || rerr != nil {
		t.Fatal(werr, rerr)
	}
	if _, err := io.ReadFull(conn, buf[rn:]); err != nil {
		t.Fatal(err)
	}
	if cnt.Sent() != 100 || cnt.Received() != 250 {
		t.Errorf("counted sent %d received %d, want 100 and 250", cnt.Sent(), cnt.Received())
	}
}

// TestWriteReadAllocatesNothing: it runs on every call of a load generator.
func TestWriteReadAllocatesNothing(t *testing.T) {
	c1, c2, stop, err := rawPair(t, "tcp")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	go io.Copy(c2, c2)
	req, ans := make([]byte, 64), make([]byte, 64)
	if n := testing.AllocsPerRun(1000, func() {
		_, rn, _, _ := WriteRead(c1, req, ans)
		io.ReadFull(c1, ans[rn:])
	}); n != 0 {
		t.Errorf("%v allocations per WriteRead, want 0", n)
	}
}
