// Package transport resolves wirebench addresses (tcp://host:port, unix:///path,
// udp://host:port) to listeners and dialers, and counts the bytes a client sends and
// receives.
package transport

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Addr is a parsed wirebench address.
type Addr struct {
	// Network is "tcp", "unix", or "udp" (QUIC's datagrams: ListenPacket and
	// PacketListener, not Listen and Dialer).
	Network string
	// Address is host:port for tcp and udp, a file system path for unix.
	Address string
}

// Parse reads "tcp://host:port", "unix:///path/to/socket" or "udp://host:port". For
// convenience a bare "host:port" is read as tcp and a bare absolute path as unix.
func Parse(s string) (Addr, error) {
	switch {
	case s == "":
		return Addr{}, errors.New("empty address: want tcp://host:port or unix:///path")
	case strings.HasPrefix(s, "/"):
		return Addr{Network: "unix", Address: s}, nil
	case !strings.Contains(s, "://"):
		if !hostPort(s) {
			return Addr{}, fmt.Errorf("address %q: want tcp://host:port or unix:///path (a port from 0 to 65535)", s)
		}
		return Addr{Network: "tcp", Address: s}, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return Addr{}, fmt.Errorf("address %q: %v", s, err)
	}
	switch u.Scheme {
	case "tcp", "udp":
		if !hostPort(u.Host) || u.Path != "" {
			return Addr{}, fmt.Errorf("address %q: want %s://host:port (port 0 picks a free one, the highest is 65535)", s, u.Scheme)
		}
		return Addr{Network: u.Scheme, Address: u.Host}, nil
	case "unix":
		if u.Host != "" || u.Path == "" {
			return Addr{}, fmt.Errorf("address %q: want unix:///absolute/path (three slashes)", s)
		}
		return Addr{Network: "unix", Address: u.Path}, nil
	default:
		return Addr{}, fmt.Errorf("address %q: unknown scheme %q, want tcp, unix or udp", s, u.Scheme)
	}
}

// hostPort reports whether s is host:port with a port number a socket can have.
func hostPort(s string) bool {
	_, port, err := net.SplitHostPort(s)
	if err != nil {
		return false
	}
	_, err = strconv.ParseUint(port, 10, 16)
	return err == nil
}

// String returns the address in URL form, the form Parse reads.
func (a Addr) String() string { return a.Network + "://" + a.Address }

// AddrOf returns the wirebench address of a net.Addr, such as a listener's bound address.
func AddrOf(na net.Addr) Addr {
	return Addr{Network: na.Network(), Address: na.String()}
}

// Listen listens on a. For unix, a stale socket file left by a dead server is removed
// first; a socket that still accepts connections is left alone and Listen fails.
func Listen(a Addr) (net.Listener, error) {
	if a.Network == "udp" {
		return nil, fmt.Errorf("listen on %s: udp carries datagrams, not connections: a QUIC server listens with ListenPacket", a)
	}
	if a.Network == "unix" {
		if err := removeStaleSocket(a.Address); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen(a.Network, a.Address)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", a, err)
	}
	if ul, ok := ln.(*net.UnixListener); ok {
		// The listener removes the socket file when it is closed.
		ul.SetUnlinkOnClose(true)
	}
	return ln, nil
}

func removeStaleSocket(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listen on unix://%s: %w", path, err)
	}
	if fi.Mode()&fs.ModeSocket == 0 {
		return fmt.Errorf("listen on unix://%s: the path exists and is not a socket; remove it or choose another", path)
	}
	c, err := net.DialTimeout("unix", path, 200*time.Millisecond)
	if err == nil {
		c.Close()
		return fmt.Errorf("listen on unix://%s: a server already listens there", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("listen on unix://%s: removing stale socket: %w", path, err)
	}
	return nil
}

// DialFunc opens one connection to a fixed address.
type DialFunc func(ctx context.Context) (net.Conn, error)

// Dialer returns a DialFunc for a whose connections count their bytes in c (nil: no
// counting). TCP connections have Nagle's algorithm off, as every RPC stack sets it.
// On Linux the connections read and write with raw system calls (see rawConn): they
// are a load generator's, and that spares it a wake-up of the Go runtime's monitor
// thread per call.
func Dialer(a Addr, c *Counter) DialFunc {
	var d net.Dialer
	return func(ctx context.Context) (net.Conn, error) {
		conn, err := d.DialContext(ctx, a.Network, a.Address)
		if err != nil {
			return nil, err
		}
		conn = rawIO(conn)
		if c == nil {
			return conn, nil
		}
		return c.Wrap(conn), nil
	}
}

// ParseStream is Parse for an address that must carry connections (tcp or unix), such
// as a worker's control API: a udp address is refused.
func ParseStream(s string) (Addr, error) {
	a, err := Parse(s)
	if err == nil && a.Network == "udp" {
		return Addr{}, fmt.Errorf("address %q: udp carries QUIC benchmarks only; want tcp://host:port or unix:///path", s)
	}
	return a, err
}
