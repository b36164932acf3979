package transport

import (
	"net"
	"sync/atomic"
)

// Counter adds up the bytes sent and received over the connections it wraps. It is
// safe for concurrent use; a client typically owns one Counter for all its connections,
// and the engine reads it at interval boundaries to report bytes per op.
type Counter struct {
	sent atomic.Int64
	recv atomic.Int64
}

// Sent returns the bytes written so far.
func (c *Counter) Sent() int64 { return c.sent.Load() }

// Received returns the bytes read so far.
func (c *Counter) Received() int64 { return c.recv.Load() }

// Wrap returns conn with its reads and writes counted in c.
func (c *Counter) Wrap(conn net.Conn) net.Conn { return &countingConn{Conn: conn, c: c} }

// countingConn counts application bytes: what crosses the socket, framing included,
// before the kernel adds TCP/IP headers.
type countingConn struct {
	net.Conn
	c *Counter
}

func (cc *countingConn) Read(p []byte) (int, error) {
	n, err := cc.Conn.Read(p)
	if n > 0 {
		cc.c.recv.Add(int64(n))
	}
	return n, err
}

// Write counts p before writing it, and takes back what was not written: counting
// after the write would race with the answer, since an asynchronous sender (Cap'n
// Proto's, HTTP/2's) can still be between the system call and the count when the peer's
// reply has already reached the caller.
func (cc *countingConn) Write(p []byte) (int, error) {
	cc.c.sent.Add(int64(len(p)))
	n, err := cc.Conn.Write(p)
	if n < len(p) {
		cc.c.sent.Add(int64(n - len(p)))
	}
	return n, err
}

// WriteRead is rawConn's WriteRead, counted.
func (cc *countingConn) WriteRead(w, r []byte) (wn, rn int, werr, rerr error) {
	cc.c.sent.Add(int64(len(w)))
	wn, rn, werr, rerr = WriteRead(cc.Conn, w, r)
	if wn < len(w) {
		cc.c.sent.Add(int64(wn - len(w)))
	}
	if rn > 0 {
		cc.c.recv.Add(int64(rn))
	}
	return wn, rn, werr, rerr
}

// writeReader is a connection with a WriteRead of its own (raw I/O, or counting over
// it).
type writeReader interface {
	WriteRead(w, r []byte) (wn, rn int, werr, rerr error)
}

// WriteRead writes w to conn and then reads what arrives into r, as a Write followed
// by a Read (made even when the write failed: a peer may answer and close without
// reading the whole request). On a connection from Dialer on Linux it skips the read
// attempt that fails before the answer can have come; see rawConn.WriteRead for when
// that is safe: one request in flight, nothing unread before it.
func WriteRead(conn net.Conn, w, r []byte) (wn, rn int, werr, rerr error) {
	if x, ok := conn.(writeReader); ok {
		return x.WriteRead(w, r)
	}
	wn, werr = conn.Write(w)
	rn, rerr = conn.Read(r)
	return wn, rn, werr, rerr
}
