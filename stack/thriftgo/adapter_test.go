package thriftgo_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/thriftwire"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/thriftgo"
)

var protocols = []string{thriftrpc.Binary, thriftrpc.Compact}

// expectClosed reads from c until the server closes it, failing if that takes longer
// than within.
func expectClosed(t *testing.T, c net.Conn, within time.Duration) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(within))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("server kept the connection open for %v", within)
	}
}

func dialRaw(t *testing.T, addr transport.Addr) net.Conn {
	t.Helper()
	c, err := net.DialTimeout(addr.Network, addr.Address, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// message returns a call of method with args in the encoding of proto, as the
// generated client writes it, without its frame.
func message(t *testing.T, proto, method string, args thrift.TStruct) []byte {
	t.Helper()
	buf := thrift.NewTMemoryBuffer()
	var p thrift.TProtocol = thrift.NewTBinaryProtocolConf(buf, nil)
	if proto == thriftrpc.Compact {
		p = thrift.NewTCompactProtocolConf(buf, nil)
	}
	ctx := context.Background()
	if err := p.WriteMessageBegin(ctx, method, thrift.CALL, 1); err != nil {
		t.Fatal(err)
	}
	if err := args.Write(ctx, p); err != nil {
		t.Fatal(err)
	}
	p.WriteMessageEnd(ctx)
	p.Flush(ctx)
	return buf.Bytes()
}

// framed puts a frame length in front of body.
func framed(length uint32, body []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, length), body...)
}

func TestGarbageClosesOnlyThatConnection(t *testing.T) {
	random := make([]byte, 64<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			tg := protocoltest.Start(t, proto, "tcp", nil, protocol.ServerConfig{})
			cl := tg.Client(t, nil)
			ctx := protocoltest.Context(t)
			other := thriftrpc.Binary
			if proto == thriftrpc.Binary {
				other = thriftrpc.Compact
			}
			call := message(t, other, "getPerson", &thriftwire.WirebenchGetPersonArgs{ID: 1})
			junks := map[string][]byte{
				"random": random,
				"http":   []byte("GET /persons HTTP/1.1\r\nHost: x\r\n\r\n"),
				// A frame that claims 16 MB (under the limit), then text.
				"text-under-limit": []byte(strings.Repeat("\x00\xffgarbage\r\n", 100)),
				// A whole call, in the other encoding.
				"other-encoding": framed(uint32(len(call)), call),
			}
			if proto == thriftrpc.Binary {
				// An echo call whose payload claims a negative length: the server
				// answers PROTOCOL_ERROR and hangs up. (Bytes that decode but never
				// end their message, such as unknown field types, which Thrift skips
				// as empty, wait for more like any slow peer.)
				bad := message(t, proto, "echo", &thriftwire.WirebenchEchoArgs{Payload: "abc"})
				copy(bad[len(bad)-1-3-4:], []byte{0xff, 0xff, 0xff, 0xff})
				junks["negative-length"] = framed(uint32(len(bad)), bad)
			}
			for name, junk := range junks {
				t.Run(name, func(t *testing.T) {
					raw := dialRaw(t, tg.Addr)
					raw.SetWriteDeadline(time.Now().Add(2 * time.Second))
					raw.Write(junk) // the server may close before taking it all
					expectClosed(t, raw, 2*time.Second)
					if _, err := cl.GetPerson(ctx, 1); err != nil {
						t.Fatalf("GetPerson on another connection: %v", err)
					}
				})
			}
		})
	}
}

func TestUnknownMethodKeepsTheConnection(t *testing.T) {
	tg := protocoltest.Start(t, thriftrpc.Binary, "tcp", nil, protocol.ServerConfig{})
	raw := dialRaw(t, tg.Addr)
	sock := thrift.NewTSocketFromConnConf(raw, nil)
	p := thrift.NewTBinaryProtocolConf(thrift.NewTFramedTransportConf(sock, nil), nil)
	ctx := protocoltest.Context(t)
	err := thrift.NewTStandardClient(p, p).Send(ctx, p, 1, "deletePerson", &thriftwire.WirebenchGetPersonArgs{ID: 1})
	if err != nil {
		t.Fatal(err)
	}
	name, typ, _, err := p.ReadMessageBegin(ctx)
	if err != nil || name != "deletePerson" || typ != thrift.EXCEPTION {
		t.Fatalf("answer to an unknown method: %q %v %v, want an exception", name, typ, err)
	}
	ae := thrift.NewTApplicationException(0, "")
	if err := ae.Read(ctx, p); err != nil || ae.TypeId() != thrift.UNKNOWN_METHOD {
		t.Fatalf("exception %v (type %d), %v; want UNKNOWN_METHOD", ae, ae.TypeId(), err)
	}
	p.ReadMessageEnd(ctx)
	// The same connection still serves.
	wb := thriftwire.NewWirebenchClient(thrift.NewTStandardClient(p, p))
	if got, err := wb.Increment(ctx, 41); err != nil || got != 42 {
		t.Fatalf("increment(41) after an unknown method = %d, %v", got, err)
	}
}

func TestOversizedFrameRefused(t *testing.T) {
	tg := protocoltest.Start(t, thriftrpc.Binary, "unix", nil, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	if _, err := cl.GetPerson(ctx, 1); err != nil { // warm up
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	raw := dialRaw(t, tg.Addr)
	// 60 MiB, then a valid start of a call: only the length is wrong.
	if _, err := raw.Write(framed(60<<20, []byte{0x80, 0x01, 0x00, 0x01})); err != nil {
		t.Fatal(err)
	}
	expectClosed(t, raw, 2*time.Second)
	runtime.ReadMemStats(&after)
	// TotalAlloc only grows: a reservation of the claimed 60 MiB would show.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("the process allocated %d MiB while refusing the frame", grew>>20)
	}
	if _, err := cl.GetPerson(ctx, 1); err != nil {
		t.Fatalf("GetPerson after the oversized frame: %v", err)
	}
}

// TestSlowClientsBounded opens connections that start frames claiming almost the limit
// and stall, and TLS connections that stall in their handshake: the server keeps
// serving, and holds about what the stalled peers sent, not what they claimed.
func TestSlowClientsBounded(t *testing.T) {
	for _, network := range []string{"tcp", protocoltest.TLSNetwork} {
		t.Run(network, func(t *testing.T) {
			tg := protocoltest.Start(t, thriftrpc.Binary, network, nil, protocol.ServerConfig{})
			cl := tg.Client(t, nil)
			ctx := protocoltest.Context(t)
			if _, err := cl.GetPerson(ctx, 1); err != nil {
				t.Fatal(err)
			}
			const peers = 32
			// The start of an echo call whose payload would fill a 15 MiB frame,
			// and 1 KiB of it.
			start := message(t, thriftrpc.Binary, "echo", &thriftwire.WirebenchEchoArgs{Payload: strings.Repeat("x", 1024)})
			start = start[:len(start)-2] // without the struct ends: the payload goes on
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range peers {
				raw := dialRaw(t, tg.Addr)
				if network == protocoltest.TLSNetwork {
					// A TLS record header claiming a 16 KiB handshake, and nothing else.
					raw.Write([]byte{0x16, 0x03, 0x01, 0x40, 0x00})
					continue
				}
				if _, err := raw.Write(framed(15<<20, start)); err != nil {
					t.Fatal(err)
				}
			}
			// Others are served meanwhile, on new connections too. (These calls also
			// give the server's goroutines time to read what the peers sent.)
			for i := range 200 {
				c := cl
				if i%50 == 0 {
					c = tg.Client(t, nil)
				}
				if _, err := c.GetPerson(ctx, int64(i%10+1)); err != nil {
					t.Fatalf("GetPerson %d with %d stalled peers: %v", i, peers, err)
				}
			}
			runtime.ReadMemStats(&after)
			// Reserving each claimed frame would take 32 × 15 MiB.
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
				t.Errorf("the process allocated %d MiB with %d stalled peers", grew>>20, peers)
			}
		})
	}
}

func TestOverLimit(t *testing.T) {
	ctx := protocoltest.Context(t)
	t.Run("request", func(t *testing.T) {
		tg := protocoltest.Start(t, thriftrpc.Compact, "unix", nil, protocol.ServerConfig{MaxMessageSize: 1 << 20})
		cl := tg.Client(t, nil)
		// The limit has 64 KiB of slack for the envelope: a payload of the limit passes.
		if _, err := cl.Echo(ctx, contract.Payload(1<<20)); err != nil {
			t.Fatalf("Echo of exactly the limit: %v", err)
		}
		// Over it, the server closes the connection from the frame's length, unread:
		// the call fails as a transport error that says so, not with a contract code.
		_, err := cl.Echo(ctx, contract.Payload(2<<20))
		if err == nil || contract.CodeOf(err) != "" || !strings.Contains(err.Error(), "closed the connection") {
			t.Fatalf("Echo over the server's limit: %v, want the connection's closing", err)
		}
		t.Logf("a request over the server's limit: %v", err)
		if _, err := cl.GetPerson(ctx, 1); err != nil {
			t.Fatalf("GetPerson on the same client (a new connection) after over-limit: %v", err)
		}
	})
	t.Run("response", func(t *testing.T) {
		tg := protocoltest.Start(t, thriftrpc.Binary, "tcp", nil, protocol.ServerConfig{})
		cl := tg.ClientConfig(t, protocol.ClientConfig{MaxMessageSize: 1 << 20}, nil)
		// The request is over the client's own limit too: refused before it is sent.
		_, err := cl.Echo(ctx, contract.Payload(2<<20))
		if c := contract.CodeOf(err); c != contract.ResourceExhausted {
			t.Fatalf("Echo of a request over the client's limit: %v (code %q), want %q", err, c, contract.ResourceExhausted)
		}
		t.Logf("a request over the client's limit: %v", err)
		// An answer over it is refused from its frame's length.
		big := protocoltest.Start(t, thriftrpc.Binary, "tcp", bigList{tg.Service}, protocol.ServerConfig{})
		bcl := big.ClientConfig(t, protocol.ClientConfig{MaxMessageSize: 1 << 20}, nil)
		_, err = bcl.ListPersons(ctx)
		if c := contract.CodeOf(err); c != contract.ResourceExhausted {
			t.Fatalf("ListPersons with an answer over the client's limit: %v (code %q), want %q", err, c, contract.ResourceExhausted)
		}
		t.Logf("an answer over the client's limit: %v", err)
		if _, err := bcl.GetPerson(ctx, 1); err != nil {
			t.Fatalf("GetPerson after an answer over the limit (a new connection): %v", err)
		}
		// An answer over the server's own limit is not sent: the connection closes.
		small := protocoltest.Start(t, thriftrpc.Compact, "tcp", bigList{tg.Service}, protocol.ServerConfig{MaxMessageSize: 1 << 20})
		scl := small.Client(t, nil)
		_, err = scl.ListPersons(ctx)
		if err == nil || contract.CodeOf(err) != "" || !strings.Contains(err.Error(), "closed the connection") {
			t.Fatalf("ListPersons with an answer over the server's limit: %v, want the connection's closing", err)
		}
		if _, err := scl.GetPerson(ctx, 1); err != nil {
			t.Fatalf("GetPerson after an answer over the server's limit: %v", err)
		}
	})
}

// bigList answers ListPersons with 2 MiB of persons and more.
type bigList struct{ contract.Service }

func (b bigList) ListPersons(ctx context.Context) ([]contract.Person, error) {
	p, _ := b.GetPerson(ctx, 1)
	p.Email = strings.Repeat("x", 4096) + "@example.com"
	ps := make([]contract.Person, 600)
	for i := range ps {
		ps[i] = p
	}
	return ps, nil
}

func TestStreamPagesOnTheWire(t *testing.T) {
	tg := protocoltest.Start(t, thriftrpc.Compact, "tcp", nil, protocol.ServerConfig{})
	raw := dialRaw(t, tg.Addr)
	p := thrift.NewTCompactProtocolConf(thrift.NewTFramedTransportConf(thrift.NewTSocketFromConnConf(raw, nil), nil), nil)
	wb := thriftwire.NewWirebenchClient(thrift.NewTStandardClient(p, p))
	ctx := protocoltest.Context(t)

	var se *thriftwire.ServiceError
	if _, err := wb.NextTrades(ctx); !errors.As(err, &se) || se.Code != thriftwire.ErrorCode_INVALID_ARGUMENT {
		t.Fatalf("nextTrades without a stream: %v, want INVALID_ARGUMENT", err)
	}
	// 2500 trades in pages of 1000: 1000, 1000, then 500 on the last.
	var sizes []int
	page, err := wb.StreamTrades(ctx, 2500, 1000)
	for n := int64(0); err == nil; page, err = wb.NextTrades(ctx) {
		sizes = append(sizes, len(page.Trades))
		for _, tr := range page.Trades {
			if w := contract.TradeAt(n); tr.ID != w.ID || tr.Symbol != w.Symbol || tr.Price != w.Price {
				t.Fatalf("trade %d = %+v, want %+v", n, tr, w)
			}
			n++
		}
		if page.Last {
			break
		}
	}
	if err != nil || len(sizes) != 3 || sizes[0] != 1000 || sizes[1] != 1000 || sizes[2] != 500 {
		t.Fatalf("pages of 2500 trades: %v, %v; want [1000 1000 500]", sizes, err)
	}
	// Pages above MaxPageSize are cut to it; a stream of exactly one page is its last.
	if page, err = wb.StreamTrades(ctx, thriftgo.MaxPageSize, thriftgo.MaxPageSize*10); err != nil ||
		len(page.Trades) != thriftgo.MaxPageSize || !page.Last {
		t.Fatalf("one page of %d: %d trades, last %v, %v", thriftgo.MaxPageSize, len(page.Trades), page.Last, err)
	}
	// An empty stream is one empty last page.
	if page, err = wb.StreamTrades(ctx, 0, 0); err != nil || len(page.Trades) != 0 || !page.Last {
		t.Fatalf("streamTrades(0) = %+v, %v; want one empty last page", page, err)
	}
	// A stream cancelled after its first page; a new one starts from trade 0.
	if _, err := wb.StreamTrades(ctx, contract.MaxTrades, 10); err != nil {
		t.Fatal(err)
	}
	if err := wb.CancelTrades(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := wb.NextTrades(ctx); !errors.As(err, &se) {
		t.Fatalf("nextTrades after cancelTrades: %v, want INVALID_ARGUMENT", err)
	}
	if _, err := wb.StreamTrades(ctx, contract.MaxTrades, 10); err != nil {
		t.Fatal(err)
	}
	if page, err = wb.StreamTrades(ctx, 3, 0); err != nil || len(page.Trades) != 3 || page.Trades[0].ID != 0 || !page.Last {
		t.Fatalf("a stream started over another: %+v, %v", page, err)
	}
	// A refused count is the service's INVALID_ARGUMENT.
	if _, err := wb.StreamTrades(ctx, -1, 0); !errors.As(err, &se) || se.Code != thriftwire.ErrorCode_INVALID_ARGUMENT {
		t.Fatalf("streamTrades(-1): %v, want INVALID_ARGUMENT", err)
	}
}

// gate is a service whose Echo of "gate" waits until the gate opens or ctx ends.
type gate struct {
	contract.Service
	entered chan struct{}
	open    chan struct{}
}

func newGate() *gate {
	return &gate{
		Service: contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)),
		entered: make(chan struct{}, 64),
		open:    make(chan struct{}),
	}
}

func (g *gate) Echo(ctx context.Context, payload string) (string, error) {
	if payload != "gate" {
		return g.Service.Echo(ctx, payload)
	}
	g.entered <- struct{}{}
	select {
	case <-g.open:
		return payload, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func TestShutdownWaitsForCalls(t *testing.T) {
	g := newGate()
	tg := protocoltest.Start(t, thriftrpc.Binary, "unix", g, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	echoed := make(chan error, 1)
	go func() { _, err := cl.Echo(ctx, "gate"); echoed <- err }()
	<-g.entered
	shut := make(chan error, 1)
	go func() { shut <- tg.Server.Shutdown(ctx) }()
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned %v with a call in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(g.open)
	if err := <-echoed; err != nil {
		t.Errorf("call in flight during Shutdown: %v", err)
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if _, err := cl.GetPerson(ctx, 1); err == nil {
		t.Error("GetPerson after Shutdown succeeded")
	}
}

func TestShutdownDeadline(t *testing.T) {
	g := newGate()
	tg := protocoltest.Start(t, thriftrpc.Compact, "tcp", g, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	echoed := make(chan error, 1)
	go func() { _, err := cl.Echo(protocoltest.Context(t), "gate"); echoed <- err }()
	<-g.entered
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := tg.Server.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown past its deadline: %v", err)
	}
	select {
	case err := <-echoed:
		if err == nil {
			t.Error("the call cut by Shutdown succeeded")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the call cut by Shutdown did not return")
	}
}

func TestPictureAbsentVersusEmpty(t *testing.T) {
	for _, proto := range protocols {
		tg := protocoltest.Start(t, proto, "tcp", nil, protocol.ServerConfig{})
		cl := tg.Client(t, nil)
		p := contract.Person{Name: contract.PersonName{First: "A", Last: "B"}, Email: "a@b", Picture: &contract.Picture{}}
		got, err := cl.CreatePerson(protocoltest.Context(t), p)
		if err != nil || got.Picture == nil {
			t.Errorf("%s: a person with an empty picture came back as %+v, %v", proto, got.Picture, err)
		}
		p.Picture = nil
		if got, err = cl.CreatePerson(protocoltest.Context(t), p); err != nil || got.Picture != nil {
			t.Errorf("%s: a person without a picture came back as %+v, %v", proto, got.Picture, err)
		}
	}
}

func TestNewClientRefusesOtherServers(t *testing.T) {
	for name, addr := range map[string]func(testing.TB) transport.Addr{
		"http": protocoltest.HTTPPeer,
		// A Thrift server of the other encoding.
		"compact server": func(t testing.TB) transport.Addr {
			return protocoltest.Start(t, thriftrpc.Compact, "tcp", nil, protocol.ServerConfig{}).Addr
		},
	} {
		t.Run(name, func(t *testing.T) {
			p, _ := protocol.Lookup(thriftrpc.Binary)
			cl, err := p.Dial(protocoltest.Context(t), protocol.ClientConfig{Address: addr(t)})
			if err == nil {
				cl.Close()
				t.Fatal("NewClient succeeded")
			}
		})
	}
}

func TestNewClientFailsFast(t *testing.T) {
	// A listener that accepts and never answers: NewClient gives up with its ctx.
	addr := protocoltest.Peer(t, func(c net.Conn) { io.Copy(io.Discard, c) })
	p, _ := protocol.Lookup(thriftrpc.Compact)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	cl, err := p.Dial(ctx, protocol.ClientConfig{Address: addr})
	if err == nil {
		cl.Close()
		t.Fatal("NewClient to a silent server succeeded")
	}
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("NewClient to a silent server: %v after %v", err, time.Since(start))
	}
}

func TestOptionsRefused(t *testing.T) {
	opts := map[string]string{"protocol": "compact"}
	if _, err := thriftgo.NewServer(nil, thriftrpc.Binary, protocol.ServerConfig{Options: opts}); err == nil {
		t.Error("NewServer took an option")
	}
	tg := protocoltest.Start(t, thriftrpc.Binary, "tcp", nil, protocol.ServerConfig{})
	p, _ := protocol.Lookup(thriftrpc.Binary)
	if cl, err := p.Dial(protocoltest.Context(t), protocol.ClientConfig{Address: tg.Addr, Options: opts}); err == nil {
		cl.Close()
		t.Error("NewClient took an option")
	}
}

func TestPoolReusesConnections(t *testing.T) {
	g := newGate()
	tg := protocoltest.Start(t, thriftrpc.Binary, "tcp", g, protocol.ServerConfig{})
	var dials atomic.Int64
	dial := transport.Dialer(tg.Addr, nil)
	p, _ := protocol.Lookup(thriftrpc.Binary)
	cl, err := p.NewClient(protocoltest.Context(t), protocol.ClientConfig{Address: tg.Addr,
		Dial: func(ctx context.Context) (net.Conn, error) { dials.Add(1); return dial(ctx) }})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx := protocoltest.Context(t)
	// The probe's connection serves every call made one at a time, a refusal and a
	// whole stream included.
	for i := range 50 {
		if _, err := cl.GetPerson(ctx, int64(i%5+1)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cl.GetPerson(ctx, -1); contract.CodeOf(err) != contract.NotFound {
		t.Fatalf("GetPerson(-1): %v", err)
	}
	if err := cl.StreamTrades(ctx, 2500, func(*contract.Trade) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if n := dials.Load(); n != 1 {
		t.Fatalf("%d connections dialed for calls made one at a time, want 1", n)
	}
	// A call in flight holds its connection: the next one dials another.
	echoed := make(chan error, 1)
	go func() { _, err := cl.Echo(ctx, "gate"); echoed <- err }()
	<-g.entered
	if _, err := cl.Increment(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if n := dials.Load(); n != 2 {
		t.Fatalf("%d connections dialed with one call in flight, want 2", n)
	}
	close(g.open)
	if err := <-echoed; err != nil {
		t.Fatal(err)
	}
	// A call whose context has ended fails at once, taking no connection; the pool
	// keeps both.
	cut, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := cl.GetPerson(cut, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("GetPerson with a canceled context: %v", err)
	}
	for range 10 {
		if _, err := cl.GetPerson(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	if n := dials.Load(); n != 2 {
		t.Fatalf("%d connections dialed in all, want 2", n)
	}
}
