package capnprpc

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"capnproto.org/go/capnp/v3"
	"capnproto.org/go/capnp/v3/rpc"
)

const (
	// frameSlack is added to the configured message limit for the Cap'n Proto framing
	// and the RPC envelope (call header, target, cap table) around the application's
	// content, so that a request whose content is at the limit still passes.
	frameSlack = 64 << 10

	// ioBufferSize is the size of each connection's read and write buffer. Reads
	// through a buffer take a small message's header and body in one system call;
	// writes through one send the header and the segments of a message in one.
	ioBufferSize = 64 << 10

	// traverseFactor and traverseFloor set the traversal limit of each received
	// message: traverseFactor times its size plus traverseFloor bytes. Reading a
	// message once costs about its size; the limit stops a crafted message whose
	// pointers alias the same data from making the reader do unbounded work
	// (https://capnproto.org/encoding.html#amplification-attack).
	traverseFactor = 4
	traverseFloor  = 64 << 10
)

// messageReadTimeout bounds the time between the first word of a message and its last
// byte: an idle connection may wait for ever between messages, but a peer that starts a
// message must finish it, so a stalled or trickling sender cannot hold a server's
// buffer. A variable so that tests can shorten it.
var messageReadTimeout = 30 * time.Second

// newTransport returns a Cap'n Proto RPC transport over conn whose received messages
// are bounded by maxMessage bytes (plus frameSlack). A frame header that claims more
// is refused before anything is allocated for it, which ends the connection.
//
// This replaces rpc.NewStreamTransport, whose limits are fixed at 64 MiB and whose
// reads have no deadline.
func newTransport(conn net.Conn, maxMessage int) rpc.Transport {
	c := &codec{conn: conn}
	c.r.conn = conn
	c.r.br = bufio.NewReaderSize(conn, ioBufferSize)
	c.dec = capnp.NewDecoder(&c.r)
	c.dec.MaxMessageSize = uint64(maxMessage) + frameSlack
	c.bw = bufio.NewWriterSize(conn, ioBufferSize)
	c.enc = capnp.NewEncoder(c.bw)
	return rpc.NewTransport(c)
}

// codec implements rpc.Codec. The rpc package calls Decode from its one reader
// goroutine and Encode from its one sender goroutine (and, once that has stopped, to
// send an abort), so each direction has a single user; Close may come from any
// goroutine.
type codec struct {
	conn net.Conn

	r   msgReader
	dec *capnp.Decoder

	wmu sync.Mutex // guards bw and enc (belt and braces: the rpc package has one sender)
	bw  *bufio.Writer
	enc *capnp.Encoder
}

func (c *codec) Encode(m *capnp.Message) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.enc.Encode(m); err != nil {
		c.bw.Reset(c.conn) // drop a half-written frame; the connection is done anyway
		return err
	}
	return c.bw.Flush()
}

func (c *codec) Decode() (*capnp.Message, error) {
	c.r.startMessage()
	m, err := c.dec.Decode()
	if derr := c.r.endMessage(); err == nil && derr != nil {
		m.Release()
		return nil, derr
	}
	if err != nil {
		if tooLarge(err.Error()) {
			err = fmt.Errorf("frame over the limit of %d bytes: %w", c.dec.MaxMessageSize, err)
		}
		return nil, err
	}
	size, err := m.TotalSize()
	if err != nil {
		m.Release()
		return nil, err
	}
	m.ResetReadLimit(traverseFactor*size + traverseFloor)
	return m, nil
}

func (c *codec) Close() error { return c.conn.Close() }

// msgReader is the decoder's reader: a buffered reader over the connection that arms
// a read deadline once a message has started (its first word was read) and the rest is
// not already buffered, and clears it when the message is complete.
type msgReader struct {
	conn  net.Conn
	br    *bufio.Reader
	read  int  // bytes of the current message read so far
	armed bool // a read deadline is set
}

func (r *msgReader) startMessage() { r.read = 0 }

func (r *msgReader) endMessage() error {
	if !r.armed {
		return nil
	}
	r.armed = false
	return r.conn.SetReadDeadline(time.Time{})
}

func (r *msgReader) Read(p []byte) (int, error) {
	if r.read > 0 && !r.armed && r.br.Buffered() < len(p) {
		if err := r.conn.SetReadDeadline(time.Now().Add(messageReadTimeout)); err != nil {
			return 0, err
		}
		r.armed = true
	}
	n, err := r.br.Read(p)
	r.read += n
	var ne net.Error
	if err != nil && r.armed && errors.As(err, &ne) && ne.Timeout() {
		err = errors.New("peer stalled in the middle of a message: " + err.Error())
	}
	return n, err
}
