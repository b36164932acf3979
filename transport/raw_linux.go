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
}

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
	c.readFn, c.writeFn = c.readSome, c.writeAll
	return c
}

func (c *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.rmu.Lock()
	c.rbuf, c.rn, c.rerrno = p, 0, 0
	err := c.rc.Read(c.readFn)
	n, errno := c.rn, c.rerrno
	c.rbuf = nil
	c.rmu.Unlock()
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
	p := c.wbuf
	for c.wn < len(p) {
		r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[c.wn])), uintptr(len(p)-c.wn))
		switch e {
		case 0:
			c.wn += int(r)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			c.werrno = e
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
