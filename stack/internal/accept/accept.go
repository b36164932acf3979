// Package accept takes the next connection from a listener for the Go stacks whose
// accept loop is written here rather than in their library (capnp-go, Apache
// Thrift's Go server over a caller's listener, net/rpc).
package accept

import (
	"errors"
	"net"
	"time"
)

// Max is the longest wait between two tries after a temporary failure.
const Max = time.Second

// Next returns the next connection of ln. A temporary failure (out of file
// descriptors and the like: an error whose Temporary method says so) is retried after
// a wait that starts at 5 ms and doubles up to Max, as net/http's Server.Serve does;
// any other error is returned, a closed listener's among them.
//
// Temporary, not Timeout: accept(2)'s EMFILE and ENFILE are temporary and no timeout
// (syscall.Errno), and the loops this replaced tested Timeout, so they returned on
// running out of file descriptors. Temporary is deprecated for its vagueness in
// general; for accept errors it is what net/http still relies on.
func Next(ln net.Listener) (net.Conn, error) {
	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err == nil {
			return nc, nil
		}
		var te interface{ Temporary() bool }
		if !errors.As(err, &te) || !te.Temporary() {
			return nil, err
		}
		backoff = min(max(2*backoff, 5*time.Millisecond), Max)
		time.Sleep(backoff)
	}
}
