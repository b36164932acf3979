package capnpgo

import (
	"bufio"
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

// messageReadTimeout bounds the time between the first byte of a message and its last
// byte: an idle connection may wait for ever between messages, but a peer that starts a
// message must finish it, so a stalled or trickling sender cannot hold a server's
// buffer. A variable so that tests can shorten it.
var messageReadTimeout = 30 * time.Second

// newTransport returns a Cap'n Proto RPC transport over conn whose received messages
// are bounded by maxMessage bytes (plus frameSlack). A frame header that claims more
// is refused before anything is allocated for it, which ends the connection. A frame
// within the limit is reserved whole from its header while budget (shared by a
// server's connections) has room, and as its bytes arrive beyond that (frame.go); a
// nil budget reserves every frame whole.
//
// This replaces rpc.NewStreamTransport, whose limits are fixed at 64 MiB, which
// reserves any frame's claimed size from its header and whose reads have no deadline.
func newTransport(conn net.Conn, maxMessage int, budget *frameBudget) rpc.Transport {
	return rpc.NewTransport(newCodec(conn, maxMessage, budget))
}

// maxFrame is the largest frame a transport with the message limit maxMessage takes.
func maxFrame(maxMessage int) uint64 { return uint64(maxMessage) + frameSlack }

func newCodec(conn net.Conn, maxMessage int, budget *frameBudget) *codec {
	c := &codec{conn: conn}
	c.r = frameReader{
		msgReader: msgReader{conn: conn, br: bufio.NewReaderSize(conn, ioBufferSize)},
		maxFrame:  maxFrame(maxMessage),
		budget:    budget,
	}
	c.r.dec = capnp.NewDecoder(&c.r.msgReader)
	c.r.dec.MaxMessageSize = c.r.maxFrame
	c.bw = bufio.NewWriterSize(conn, ioBufferSize)
	c.enc = capnp.NewEncoder(c.bw)
	return c
}

// codec implements rpc.Codec. The rpc package calls Decode from its one reader
// goroutine and Encode from its one sender goroutine (and, once that has stopped, to
// send an abort), so each direction has a single user; Close may come from any
// goroutine.
type codec struct {
	conn net.Conn

	r frameReader

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
	m, err := c.r.readMessage()
	if err != nil {
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
