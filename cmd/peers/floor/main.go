// Command floor is the cheapest HTTP/1.1 load generator Go can be on Linux, built as a
// yardstick for `make peers`: one thread over epoll, keep-alive connections each with
// one request in flight, as wrk works. It parses each answer's status line and
// Content-Length, records the latency in an HdrHistogram (as wrk does), reads and
// writes with raw system calls, and does nothing else: no JSON decoding, no check of
// the answer. Its CPU per request is what any Go client pays on the machine before it
// does work of its own, so the gap between it and wirebench is wirebench's own cost,
// and the gap between it and wrk is Go's.
//
//	floor -c CONNECTIONS -d DURATION http://HOST:PORT/PATH
//
// It prints "requests N errors E seconds S" on one line.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"time"
	"unsafe"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"
)

func main() {
	conns := flag.Int("c", 1, "connections, each with one request in flight")
	dur := flag.Duration("d", 5*time.Second, "length of the run")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: floor [-c N] [-d DURATION] http://HOST:PORT/PATH")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *conns < 1 || *dur <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *conns, *dur); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

// conn is one connection: its socket, the bytes of the answer read so far, and the
// start of the request in flight.
type conn struct {
	fd    int
	buf   []byte
	n     int
	start time.Time
}

func run(rawURL string, nconn int, dur time.Duration) error {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" || u.Port() == "" {
		return fmt.Errorf("%q: want http://HOST:PORT/PATH", rawURL)
	}
	sa, err := sockaddr(u.Hostname(), u.Port())
	if err != nil {
		return err
	}
	path := u.RequestURI()
	req := []byte("GET " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUser-Agent: floor\r\n\r\n")

	runtime.LockOSThread()
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return fmt.Errorf("epoll_create1: %w", err)
	}
	cs := make([]*conn, nconn)
	for i := range cs {
		fd, err := dial(sa)
		if err != nil {
			return fmt.Errorf("connect %s: %w", u.Host, err)
		}
		cs[i] = &conn{fd: fd, buf: make([]byte, 16<<10)}
		ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLET, Fd: int32(i)}
		if err := unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
			return fmt.Errorf("epoll_ctl: %w", err)
		}
	}
	hist := hdrhistogram.New(1, int64(time.Minute/time.Microsecond), 3)
	var requests, errs int64
	begin := time.Now()
	end := begin.Add(dur)
	for _, c := range cs {
		c.start = time.Now()
		if _, err := rawWrite(c.fd, req); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
	events := make([]unix.EpollEvent, nconn)
	for {
		n, err := unix.EpollWait(ep, events, 100)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return fmt.Errorf("epoll_wait: %w", err)
		}
		now := time.Now()
		if !now.Before(end) {
			break
		}
		for _, ev := range events[:max(n, 0)] {
			c := cs[ev.Fd]
			done, ok, err := c.read()
			if err != nil {
				return err
			}
			if !done {
				continue
			}
			requests++
			if !ok {
				errs++
			}
			hist.RecordValue(int64(now.Sub(c.start) / time.Microsecond))
			c.start = now
			if _, err := rawWrite(c.fd, req); err != nil {
				return fmt.Errorf("write: %w", err)
			}
		}
	}
	fmt.Printf("requests %d errors %d seconds %.3f p50_us %d p99_us %d\n", requests, errs,
		time.Since(begin).Seconds(), hist.ValueAtQuantile(50), hist.ValueAtQuantile(99))
	return nil
}

// rawRead and rawWrite are read and write without telling the Go scheduler: on a
// non-blocking socket they never block, and an ordinary system call would wake the
// runtime's monitor thread whenever the process had been idle (as wirebench's client
// connections do, see transport's rawConn). Only epoll_wait, which blocks, is an
// ordinary system call.
func rawRead(fd int, p []byte) (int, error) {
	r, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}

func rawWrite(fd int, p []byte) (int, error) {
	r, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return 0, e
	}
	if int(r) < len(p) {
		return int(r), errors.New("short write of a request (the socket buffer is full)")
	}
	return int(r), nil
}

// read reads what the socket holds and reports whether a whole answer has arrived,
// and whether its status was 2xx. The socket is edge-triggered: it is read until
// EAGAIN or until the answer is whole (one answer at a time is in flight).
func (c *conn) read() (done, ok bool, err error) {
	for {
		if c.n == len(c.buf) {
			return false, false, errors.New("an answer is larger than the 16 KiB buffer")
		}
		m, err := rawRead(c.fd, c.buf[c.n:])
		switch {
		case errors.Is(err, unix.EAGAIN):
			return false, false, nil
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return false, false, fmt.Errorf("read: %w", err)
		case m == 0:
			return false, false, errors.New("the server closed a connection")
		}
		c.n += m
		size, status, err := answerSize(c.buf[:c.n])
		if err != nil {
			return false, false, err
		}
		if size > 0 && c.n >= size {
			if c.n > size {
				return false, false, errors.New("bytes after an answer (the server sent more than asked)")
			}
			c.n = 0
			return true, status/100 == 2, nil
		}
	}
}

var (
	headEnd       = []byte("\r\n\r\n")
	contentLength = []byte("\r\ncontent-length:")
)

// answerSize returns the size of the answer at the start of b (head and body), or 0
// when its head is not whole yet.
func answerSize(b []byte) (size, status int, err error) {
	h := bytes.Index(b, headEnd)
	if h < 0 {
		return 0, 0, nil
	}
	head := b[:h+2]
	if len(head) < 12 || !bytes.HasPrefix(head, []byte("HTTP/1.1 ")) {
		return 0, 0, fmt.Errorf("not an HTTP/1.1 answer: %q", head[:min(len(head), 40)])
	}
	status, err = strconv.Atoi(string(head[9:12]))
	if err != nil {
		return 0, 0, fmt.Errorf("bad status line %q", head[:12])
	}
	i := bytes.Index(bytes.ToLower(head), contentLength)
	if i < 0 {
		return 0, 0, errors.New("an answer without Content-Length (chunked answers are not read)")
	}
	v := head[i+len(contentLength):]
	v = bytes.TrimSpace(v[:bytes.IndexByte(v, '\r')])
	n, err := strconv.Atoi(string(v))
	if err != nil || n < 0 {
		return 0, 0, fmt.Errorf("bad Content-Length %q", v)
	}
	return h + 4 + n, status, nil
}

func sockaddr(host, port string) (*unix.SockaddrInet4, error) {
	p, err := strconv.Atoi(port)
	if err != nil || p < 1 || p > 65535 {
		return nil, fmt.Errorf("bad port %q", port)
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	ip := net.ParseIP(host).To4()
	if ip == nil {
		return nil, fmt.Errorf("host %q: want an IPv4 address", host)
	}
	sa := &unix.SockaddrInet4{Port: p}
	copy(sa.Addr[:], ip)
	return sa, nil
}

// dial connects a blocking socket, then makes it non-blocking with TCP_NODELAY, as
// wrk's are.
func dial(sa *unix.SockaddrInet4) (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if err := unix.Connect(fd, sa); err != nil {
		unix.Close(fd)
		return -1, err
	}
	if err := unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1); err != nil {
		unix.Close(fd)
		return -1, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}
