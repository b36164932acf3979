package capnpgo

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"runtime"
	"slices"
	"testing"
	"time"

	"capnproto.org/go/capnp/v3"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/capnprpc"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
)

// claim returns a frame header announcing one segment of body bytes, followed by the
// first few bytes of that segment.
func claim(body uint32) []byte {
	b := make([]byte, 8+16)
	binary.LittleEndian.PutUint32(b[4:], body/8)
	return b
}

// stall opens n connections to tg that each send claim(body) and then nothing, and
// waits until the server is receiving their n frames.
func stall(t *testing.T, tg *protocoltest.Target, n int, body uint32) []net.Conn {
	t.Helper()
	b := tg.Server.(*Server).frames
	want := b.frames.Load() + int64(n)
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := net.DialTimeout(tg.Addr.Network, tg.Addr.Address, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := c.Write(claim(body)); err != nil {
			t.Fatal(err)
		}
		conns[i] = c
	}
	for deadline := time.Now().Add(10 * time.Second); b.frames.Load() < want; {
		if time.Now().After(deadline) {
			t.Fatalf("the server receives %d frames, want %d", b.frames.Load(), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return conns
}

// heapInUse returns the bytes of live heap objects after a collection.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// Peers that send frame headers claiming the message limit and stall make the server
// reserve at most its budget (one such frame) plus a first buffer per connection, not
// the claimed size per connection (16 MiB each, 516 MiB for 32), and a large
// message from a well-behaved client still goes through meanwhile.
func TestStalledFramesReserveLittle(t *testing.T) {
	const n = 32
	tg := protocoltest.Start(t, capnprpc.Name, "tcp", nil, protocol.ServerConfig{}) // 16 MiB limit
	cl := tg.Client(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := cl.GetPerson(ctx, 1); err != nil { // warm up
		t.Fatal(err)
	}
	before := heapInUse()
	stall(t, tg, n, protocol.DefaultMaxMessageSize)
	grew := heapInUse() - before

	b := tg.Server.(*Server).frames
	if ahead := b.ahead.Load(); ahead > b.limit {
		t.Errorf("reserved whole: %d bytes, over the budget of %d", ahead, b.limit)
	}
	if growing := b.growing.Load(); growing > n*eagerFrame {
		t.Errorf("growing buffers: %d bytes for %d stalled frames, want at most %d each", growing, n, eagerFrame)
	}
	// The budget, then per connection its read, write and first frame buffers
	// (3 × 64 KiB) and the rpc package's state, with room to spare.
	allowed := int64(maxFrame(protocol.DefaultMaxMessageSize)) + n*320<<10
	t.Logf("%d stalled 16 MiB frames: heap grew by %.1f MiB (allowed %.1f MiB); reserved whole %.1f MiB, growing %.1f MiB",
		n, float64(grew)/(1<<20), float64(allowed)/(1<<20), float64(b.ahead.Load())/(1<<20), float64(b.growing.Load())/(1<<20))
	if grew > allowed {
		t.Errorf("the heap grew by %d MiB for %d stalled frames, want at most %d MiB", grew>>20, n, allowed>>20)
	}

	// The budget is taken, so this request is read as it arrives.
	payload := contract.Payload(4 << 20)
	got, err := cl.Echo(ctx, payload)
	if err != nil || got != payload {
		t.Fatalf("a 4 MiB echo beside the stalled frames: %d bytes back, %v", len(got), err)
	}
}

// startWithBudget serves the reference service on a fresh Unix socket with a server
// whose frame budget is limit, and returns a client of it.
func startWithBudget(t *testing.T, limit int64) *Client {
	t.Helper()
	srv, err := NewServer(contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)), protocol.ServerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	srv.frames.limit = limit // before any connection reads it
	ln, err := transport.Listen(protocoltest.ListenAddr(t, "unix"))
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, err := NewClient(ctx, protocol.ClientConfig{Dial: transport.Dialer(transport.AddrOf(ln.Addr()), nil)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// A large frame from a well-behaved peer is read whole whether the budget has room for
// it (reserved from its header) or not (grown as it arrives).
func TestLargeFramesEitherWay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, budget := range []int64{64 << 20, 0} {
		cl := startWithBudget(t, budget)
		for _, size := range []int{eagerFrame - 100, eagerFrame + 1, 300 << 10, 1<<20 + 3, 4 << 20} {
			payload := contract.Payload(size)
			got, err := cl.Echo(ctx, payload)
			if err != nil || got != payload {
				t.Fatalf("budget %d: echo of %d bytes: %d bytes back, %v", budget, size, len(got), err)
			}
		}
		if _, err := cl.ListPersons(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// A peer that starts a large frame and stalls, or trickles it, loses its connection
// after messageReadTimeout on both paths (reserved whole from the budget, grown as it
// arrives), and the server gives back what it reserved.
func TestStalledLargeFrameClosed(t *testing.T) {
	old := messageReadTimeout
	messageReadTimeout = 300 * time.Millisecond
	defer func() { messageReadTimeout = old }()

	tg := protocoltest.Start(t, capnprpc.Name, "tcp", nil, protocol.ServerConfig{})
	// The first takes the budget, the second is read as it arrives.
	conns := stall(t, tg, 2, protocol.DefaultMaxMessageSize)
	trickle := stall(t, tg, 1, protocol.DefaultMaxMessageSize)[0]
	stop := make(chan struct{})
	defer close(stop)
	go func() { // a byte every 50 ms: each read is quick, the frame never ends
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := trickle.Write([]byte{0}); err != nil {
					return
				}
			}
		}
	}()
	for i, c := range append(conns, trickle) {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := io.Copy(io.Discard, c)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("connection %d: a stalled frame kept its connection open for 5s", i)
		}
	}
	b := tg.Server.(*Server).frames
	for deadline := time.Now().Add(5 * time.Second); b.frames.Load() != 0 || b.ahead.Load() != 0 || b.growing.Load() != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("after the stalled connections closed: %d frames, %d bytes reserved whole, %d growing",
				b.frames.Load(), b.ahead.Load(), b.growing.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cl := tg.Client(t, nil)
	if _, err := cl.GetPerson(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
}

// A frame of several segments read as it arrives keeps its segments apart, as capnp's
// decoder does.
func TestGrowingFrameSegments(t *testing.T) {
	msg, seg := capnp.NewMultiSegmentMessage(nil)
	root, err := capnp.NewRootStruct(seg, capnp.ObjectSize{PointerCount: 1})
	if err != nil {
		t.Fatal(err)
	}
	const texts = 400
	l, err := capnp.NewTextList(seg, texts)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, texts)
	for i := range want {
		want[i] = contract.Payload(1000 + i)
		if err := l.Set(i, want[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := root.SetPtr(0, l.ToPtr()); err != nil {
		t.Fatal(err)
	}
	var frame bytes.Buffer
	if err := capnp.NewEncoder(&frame).Encode(msg); err != nil {
		t.Fatal(err)
	}
	if msg.NumSegments() < 3 || frame.Len() <= eagerFrame {
		t.Fatalf("test frame: %d segments, %d bytes; want several segments over %d bytes", msg.NumSegments(), frame.Len(), eagerFrame)
	}
	msg.Release()

	for name, budget := range map[string]*frameBudget{"reserved whole": nil, "grown": {limit: 0}} {
		c := newCodec(&replayConn{frame: frame.Bytes()}, 16<<20, budget)
		for range 2 { // the second reuses the header buffer
			m, err := c.Decode()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if m.NumSegments() != int64(binary.LittleEndian.Uint32(frame.Bytes())+1) {
				t.Errorf("%s: %d segments, want the frame's", name, m.NumSegments())
			}
			p, err := m.Root()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got, err := p.Struct().Ptr(0)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			gl := capnp.TextList(got.List())
			if gl.Len() != texts {
				t.Fatalf("%s: %d texts, want %d", name, gl.Len(), texts)
			}
			for i := range texts {
				if s, err := gl.At(i); err != nil || s != want[i] {
					t.Fatalf("%s: text %d: %d bytes, %v; want %d bytes", name, i, len(s), err, len(want[i]))
				}
			}
			m.Release()
		}
	}
}

// A header whose padding word is not zero, or that claims more segments than capnp
// allows, is handled like capnp's decoder: the padding is ignored, the count refused.
func TestFrameHeaderEdges(t *testing.T) {
	// Two segments: count, two sizes, a padding word, then the bodies.
	frame := make([]byte, 16+eagerFrame+8)
	binary.LittleEndian.PutUint32(frame[0:], 1)
	binary.LittleEndian.PutUint32(frame[4:], 1)            // segment 0: the root pointer
	binary.LittleEndian.PutUint32(frame[8:], eagerFrame/8) // segment 1: data
	binary.LittleEndian.PutUint32(frame[12:], 0xffff_ffff) // padding, not zero
	for name, budget := range map[string]*frameBudget{"reserved whole": nil, "grown": {limit: 0}} {
		c := newCodec(&replayConn{frame: frame}, 16<<20, budget)
		m, err := c.Decode()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if m.NumSegments() != 2 {
			t.Errorf("%s: %d segments, want 2", name, m.NumSegments())
		}
		m.Release()
	}

	tooMany := make([]byte, 8)
	binary.LittleEndian.PutUint32(tooMany, maxSegments) // maxSegments+1 segments
	c := newCodec(&replayConn{frame: tooMany}, 16<<20, &frameBudget{})
	if _, err := c.Decode(); err == nil {
		t.Errorf("a header of %d segments was taken", maxSegments+1)
	}
}

// onceConn is a net.Conn whose reads return data once, then io.EOF.
type onceConn struct {
	net.Conn // nil: only the methods below are used
	r        *bytes.Reader
}

func (c *onceConn) Read(p []byte) (int, error)      { return c.r.Read(p) }
func (c *onceConn) SetReadDeadline(time.Time) error { return nil }
func (c *onceConn) Close() error                    { return nil }

// Any bytes on a connection give messages or an error, never a panic, and both ways
// of reading a frame agree on them. The bytes are data followed by zeros zero bytes
// (at most 256 KiB): a header in data claiming a large frame, then zeros (null
// pointers), is a valid frame read the long way, without making the fuzzer's inputs
// large.
func FuzzFrames(f *testing.F) {
	f.Add(echoFrame(f, 10), uint32(0))
	f.Add(echoFrame(f, 10)[:8], uint32(eagerFrame))                                      // grown, valid
	f.Add(append(echoFrame(f, 100), claim(3 * eagerFrame)[:8]...), uint32(3*eagerFrame)) // two frames
	f.Add([]byte{1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, uint32(eagerFrame))
	f.Add(claim(1<<20), uint32(100))
	f.Fuzz(func(t *testing.T, data []byte, zeros uint32) {
		data = append(data, make([]byte, zeros%(256<<10))...)
		read := func(budget *frameBudget) (sizes []uint64, err error) {
			c := newCodec(&onceConn{r: bytes.NewReader(data)}, 1<<20, budget)
			// Eight zero bytes are an empty frame: zeros left after a frame would make
			// thousands of them.
			for len(sizes) < 16 {
				m, err := c.Decode()
				if err != nil {
					return sizes, err
				}
				size, _ := m.TotalSize()
				sizes = append(sizes, size)
				if p, err := m.Root(); err == nil {
					_ = p.Struct().HasPtr(0)
				}
				m.Release()
			}
			return sizes, nil
		}
		whole, werr := read(nil)
		grown, gerr := read(&frameBudget{limit: 0})
		if !slices.Equal(whole, grown) || (werr == io.EOF) != (gerr == io.EOF) {
			t.Fatalf("reserved whole: %v, %v; grown: %v, %v", whole, werr, grown, gerr)
		}
	})
}
