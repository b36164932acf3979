package gonetrpcgob

import (
	"bufio"
	"encoding/gob"
	"io"
	"net"
	"net/rpc"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/netrpcgob"
)

// gobConn is net/rpc's gob codec over one connection, each side's half below: a gob
// encoder on a buffered writer, flushed after each message pair, and a gob decoder
// reading through the message limit.
type gobConn struct {
	rwc io.ReadWriteCloser
	in  *netrpcgob.LimitReader
	dec *gob.Decoder
	enc *gob.Encoder
	out *bufio.Writer
}

func newGobConn(rwc io.ReadWriteCloser, limit int) gobConn {
	in := netrpcgob.NewLimitReader(rwc, limit)
	out := bufio.NewWriter(rwc)
	return gobConn{rwc: rwc, in: in, dec: gob.NewDecoder(in), enc: gob.NewEncoder(out), out: out}
}

// write encodes a header and its body and flushes them. net/rpc's own codec closes
// the connection when gob cannot encode one of them, so that the peer does not wait
// for the rest of a half-written pair; so does this one.
func (c *gobConn) write(header, body any) error {
	if err := c.enc.Encode(header); err != nil {
		c.rwc.Close()
		return err
	}
	if err := c.enc.Encode(body); err != nil {
		c.rwc.Close()
		return err
	}
	return c.out.Flush()
}

func (c *gobConn) Close() error { return c.rwc.Close() }

// serverCodec is the rpc.ServerCodec of a connection.
type serverCodec struct{ gobConn }

var _ rpc.ServerCodec = (*serverCodec)(nil)

func (c *serverCodec) ReadRequestHeader(r *rpc.Request) error { return c.dec.Decode(r) }

// ReadRequestBody decodes a request's argument. An argument over the limit is
// refused with resource_exhausted, which net/rpc sends as that call's error; the
// stream can go no further, so the next header fails and net/rpc closes the
// connection once the calls in flight are answered.
func (c *serverCodec) ReadRequestBody(body any) error {
	err := c.dec.Decode(body)
	if over := c.in.Over(); over != nil {
		return protocol.ErrorReason(contract.Errorf(contract.ResourceExhausted, "request: %v", over))
	}
	return err
}

// WriteResponse writes an answer. A connection that cannot take it is closed and the
// error is not returned: net/rpc would only log it (to the worker's standard error,
// for every call in flight on a connection its client dropped), and the closed
// connection ends the connection's reading, which is what ends it.
func (c *serverCodec) WriteResponse(r *rpc.Response, body any) error {
	if err := c.write(r, body); err != nil {
		c.rwc.Close()
	}
	return nil
}

// lingerTime bounds how long a server reads and drops the rest of a request it
// refused for its size before it closes the connection: net/http's rstAvoidanceDelay.
const lingerTime = 500 * time.Millisecond

// Close closes the connection. After a request over the limit the client is likely
// still writing it, and closing a socket with bytes unread resets the connection: the
// reset can reach the client before the refusal does, and its write then fails with a
// broken pipe instead of resource_exhausted (seen in CI). So, as net/http does after
// refusing a body, the server first shuts its side for writing and reads and drops
// what the client still sends, for at most lingerTime, then closes.
func (c *serverCodec) Close() error {
	if c.in.Over() != nil {
		c.linger()
	}
	return c.rwc.Close()
}

func (c *serverCodec) linger() {
	cw, ok := c.rwc.(interface{ CloseWrite() error })
	nc, ok2 := c.rwc.(net.Conn)
	if !ok || !ok2 || cw.CloseWrite() != nil {
		return
	}
	if nc.SetReadDeadline(time.Now().Add(lingerTime)) == nil {
		io.Copy(io.Discard, nc) // ends at the client's close, an error or the deadline
	}
}

// clientCodec is the rpc.ClientCodec of a client's connection.
type clientCodec struct{ gobConn }

var _ rpc.ClientCodec = (*clientCodec)(nil)

func (c *clientCodec) WriteRequest(r *rpc.Request, body any) error { return c.write(r, body) }
func (c *clientCodec) ReadResponseHeader(r *rpc.Response) error    { return c.dec.Decode(r) }
func (c *clientCodec) ReadResponseBody(body any) error             { return c.dec.Decode(body) }
