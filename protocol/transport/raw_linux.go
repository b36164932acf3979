package transport

import (
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// rawConn does a client connection's reads and writes with raw system calls, through
// the poller's syscall.RawConn: readiness, deadlines and Close work as for any
// net.Conn, but the read or write itself does not tell the Go scheduler it entered a
// system call. That matters to a load generator: a call in flight leaves every P idle,
// so the runtime's monitor thread goes to sleep, and the next ordinary system call
// wakes it (a futex wake and two thread switches per call: about a third of the
// client's CPU at one call in flight here). A read or write of a non-blocking socket never blocks, so
// nothing needs the scheduler's hand-off. The first read is attempted before waiting, so
// no readiness is missed.
type rawConn struct {
	net.Conn
	rc syscall.RawConn

	// The functions handed to rc are bound once, with their arguments and results in
	// these fields, so that a read or a write allocates nothing (a closure per call
	// would escape to the heap). The mutexes keep concurrent reads (or writes) from
	// sharing the fields; the poller serializes them anyway.
	rmu    sync.Mutex
	rbuf   []byte
	rn     int
	rerrno syscall.Errno
	readFn func(fd uintptr) bool

	wmu     sync.Mutex
	wbuf    []byte
	wn      int
	werrno  syscall.Errno
	writeFn func(fd uintptr) bool

	// WriteRead's state, under rmu: its write runs inside the poller's read.
	xstate     exchangeState
	xbuf       []byte
	xn         int
	xerrno     syscall.Errno
	exchangeFn func(fd uintptr) bool
}

// exchangeState is where a WriteRead is.
type exchangeState uint8

const (
	xWriting exchangeState = iota // the request is being written
	xWaiting                      // it was written: wait for the answer, then read
	xReading                      // the write failed: read what the peer left
	xBlocked                      // the socket buffer filled up: finish outside
)

// rawIO returns conn with raw reads and writes, or conn itself when it has no
// syscall.RawConn.
func rawIO(conn net.Conn) net.Conn {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return conn
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return conn
	}
	c := &rawConn{Conn: conn, rc: rc}
	c.readFn, c.writeFn, c.exchangeFn = c.readSome, c.writeAll, c.exchange
	return c
}

func (c *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.rmu.Lock()
	defer c.rmu.Unlock()
	c.rbuf, c.rn, c.rerrno = p, 0, 0
	return c.readResult(c.rc.Read(c.readFn))
}

// readResult turns the outcome of a read into Read's results. rmu is held.
func (c *rawConn) readResult(err error) (int, error) {
	n, errno := c.rn, c.rerrno
	c.rbuf = nil
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, c.opError("read", errno)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// WriteRead writes w whole, then waits until the connection is readable and reads
// into r: the Write and Read of a request and its answer, less the read a Read
// attempts before it waits, which fails with EAGAIN when the answer cannot have come
// yet (a system call and a trip through the poller per call). The write is made
// inside the poller's read, after the poller forgot the connection's earlier
// readiness, so an answer that arrives after the write wakes the read.
//
// It is only for a peer that sends nothing unasked (one request in flight on the
// connection, the previous answer read whole): bytes that arrived before the write
// would not wake the read. A failed write is still followed by a read, which may find
// the answer of a peer that answered and closed without reading the whole request. A
// socket buffer that fills up finishes the write and the read as Write and Read do.
func (c *rawConn) WriteRead(w, r []byte) (wn, rn int, werr, rerr error) {
	if len(w) == 0 || len(r) == 0 {
		wn, werr = c.Write(w)
		rn, rerr = c.Read(r)
		return wn, rn, werr, rerr
	}
	c.rmu.Lock()
	defer c.rmu.Unlock()
	c.xbuf, c.xn, c.xerrno, c.xstate = w, 0, 0, xWriting
	c.rbuf, c.rn, c.rerrno = r, 0, 0
	err := c.rc.Read(c.exchangeFn)
	wn, errno, state := c.xn, c.xerrno, c.xstate
	c.xbuf = nil
	if errno != 0 {
		werr = c.opError("write", errno)
	}
	if state == xBlocked && err == nil {
		var n int
		n, werr = c.Write(w[wn:])
		wn += n
		c.rbuf, c.rn, c.rerrno = r, 0, 0
		err = c.rc.Read(c.readFn)
	} else if state == xWriting && err != nil {
		werr = err // the poller refused before anything was written (a deadline, Close)
	}
	rn, rerr = c.readResult(err)
	return wn, rn, werr, rerr
}

// exchange is WriteRead's function for the poller's read: the first call writes and
// asks to wait, the later ones read.
func (c *rawConn) exchange(fd uintptr) bool {
	switch c.xstate {
	case xWriting:
		c.xstate = xWaiting
		if !writeRaw(fd, c.xbuf, &c.xn, &c.xerrno) {
			c.xstate = xBlocked
			return true
		}
		if c.xerrno != 0 {
			c.xstate = xReading
			return c.readSome(fd)
		}
		return false
	default:
		return c.readSome(fd)
	}
}

// readSome reads once into rbuf; false (wait until readable) when nothing is there.
func (c *rawConn) readSome(fd uintptr) bool {
	p := c.rbuf
	for {
		r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		c.rn, c.rerrno = int(r), e
		return true
	}
}

func (c *rawConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	c.wbuf, c.wn, c.werrno = p, 0, 0
	err := c.rc.Write(c.writeFn)
	n, errno := c.wn, c.werrno
	c.wbuf = nil
	c.wmu.Unlock()
	switch {
	case err != nil:
		return n, err
	case errno != 0:
		return n, c.opError("write", errno)
	}
	return n, nil
}

// writeAll writes what is left of wbuf; false (wait until writable) when the socket
// buffer is full.
func (c *rawConn) writeAll(fd uintptr) bool {
	return writeRaw(fd, c.wbuf, &c.wn, &c.werrno)
}

// writeRaw writes p[*n:], adding what it wrote to *n; false when the socket buffer is
// full, true when all is written or the write failed (*errno set).
func writeRaw(fd uintptr, p []byte, n *int, errno *syscall.Errno) bool {
	for *n < len(p) {
		r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[*n])), uintptr(len(p)-*n))
		switch e {
		case 0:
			*n += int(r)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			*errno = e
			return true
		}
	}
	return true
}

// SyscallConn keeps the connection's syscall.Conn for those who set socket options.
func (c *rawConn) SyscallConn() (syscall.RawConn, error) { return c.rc, nil }

func (c *rawConn) opError(op string, errno syscall.Errno) error {
	return &net.OpError{Op: op, Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(),
		Err: os.NewSyscallError(op, errno)}
}
