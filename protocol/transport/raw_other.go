//go:build !linux

package transport

import "net"

// rawIO is Linux's; elsewhere connections keep Go's reads and writes.
func rawIO(conn net.Conn) net.Conn { return conn }
