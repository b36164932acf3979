package capnpgo

import (
	"bytes"
	"net"
	"testing"
	"time"

	"capnproto.org/go/capnp/v3"
)

// replayConn is a net.Conn whose reads replay one framed message for ever, so that a
// benchmark measures the transport's reading of frames, not a socket.
type replayConn struct {
	net.Conn // nil: only the methods below are used
	frame    []byte
	off      int
}

func (c *replayConn) Read(p []byte) (int, error) {
	n := copy(p, c.frame[c.off:])
	c.off = (c.off + n) % len(c.frame)
	return n, nil
}
func (c *replayConn) SetReadDeadline(time.Time) error { return nil }
func (c *replayConn) Close() error                    { return nil }

// echoFrame returns a framed message with a payload of size bytes in one text.
func echoFrame(tb testing.TB, size int) []byte {
	msg, seg := capnp.NewMultiSegmentMessage(nil)
	defer msg.Release()
	st, err := capnp.NewRootStruct(seg, capnp.ObjectSize{PointerCount: 1})
	if err != nil {
		tb.Fatal(err)
	}
	if err := st.SetText(0, string(bytes.Repeat([]byte{'x'}, size))); err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := capnp.NewEncoder(&buf).Encode(msg); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkTransportDecode reads frames of a few sizes through a connection's codec,
// as the rpc package's reader goroutine does, releasing each message: reserved whole
// from the header (as capnp's decoder does, and a server within its frame budget) and,
// for frames over eagerFrame, grown as they arrive (a server beyond its budget).
func BenchmarkTransportDecode(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"1KiB", 1 << 10}, {"100KiB", 100 << 10}, {"1MiB", 1 << 20}, {"4MiB", 4 << 20}} {
		for _, way := range []struct {
			name   string
			budget *frameBudget
		}{{"whole", nil}, {"grown", &frameBudget{limit: 0}}} {
			if way.budget != nil && size.n < eagerFrame {
				continue // always reserved whole
			}
			b.Run(size.name+"/"+way.name, func(b *testing.B) {
				frame := echoFrame(b, size.n)
				c := newCodec(&replayConn{frame: frame}, 16<<20, way.budget)
				b.SetBytes(int64(len(frame)))
				b.ReportAllocs()
				for b.Loop() {
					m, err := c.Decode()
					if err != nil {
						b.Fatal(err)
					}
					m.Release()
				}
			})
		}
	}
}
