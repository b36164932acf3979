package transport

import (
	"io"
	"net"
	"os"
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
	return &rawConn{Conn: conn, rc: rc}
}

func (c *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait until readable
			}
			n, errno = int(r), e
			return true
		}
	})
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

func (c *rawConn) Write(p []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := c.rc.Write(func(fd uintptr) bool {
		for n < len(p) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
			switch e {
			case 0:
				n += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // wait until writable
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return n, err
	case errno != 0:
		return n, c.opError("write", errno)
	}
	return n, nil
}

// SyscallConn keeps the connection's syscall.Conn for those who set socket options.
func (c *rawConn) SyscallConn() (syscall.RawConn, error) { return c.rc, nil }

func (c *rawConn) opError(op string, errno syscall.Errno) error {
	return &net.OpError{Op: op, Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(),
		Err: os.NewSyscallError(op, errno)}
}
