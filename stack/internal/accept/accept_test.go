package accept

import (
	"errors"
	"net"
	"os"
	"syscall"
	"testing"
)

// script is a listener that fails with its errors in turn, then returns one end of a
// pipe.
type script struct {
	errs  []error
	tries int
}

func (s *script) Accept() (net.Conn, error) {
	s.tries++
	if len(s.errs) > 0 {
		err := s.errs[0]
		s.errs = s.errs[1:]
		return nil, err
	}
	c, _ := net.Pipe()
	return c, nil
}
func (s *script) Close() error   { return nil }
func (s *script) Addr() net.Addr { return &net.UnixAddr{Name: "script", Net: "unix"} }

// A temporary failure, as accept(2) reports running out of file descriptors.
func emfile() error {
	return &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
}

func TestNextRetriesTemporaryFailures(t *testing.T) {
	ln := &script{errs: []error{emfile(), emfile(), emfile()}}
	nc, err := Next(ln)
	if err != nil || nc == nil {
		t.Fatalf("after three temporary failures: %v, %v; want a connection", nc, err)
	}
	nc.Close()
	if ln.tries != 4 {
		t.Errorf("Accept called %d times, want 4", ln.tries)
	}
}

func TestNextReturnsOtherErrors(t *testing.T) {
	for _, want := range []error{net.ErrClosed, errors.New("listener broke")} {
		ln := &script{errs: []error{want, emfile()}}
		if nc, err := Next(ln); !errors.Is(err, want) || nc != nil {
			t.Errorf("Accept failing with %q: %v, %v; want that error and no connection", want, nc, err)
		}
		if ln.tries != 1 {
			t.Errorf("Accept failing with %q: called %d times, want 1", want, ln.tries)
		}
	}
}
