// Package grpcxtest holds the tests that every gRPC adapter passes beyond the
// conformance suite: what they share through grpcx (options, errors, server life
// cycle, one connection per client), checked end to end on a real server.
package grpcxtest

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
)

// Run runs every test for the gRPC adapter registered as name, whose requests carry
// the content-subtype subtype ("proto", "avro").
func Run(t *testing.T, name, subtype string) {
	t.Run("MalformedRequest", func(t *testing.T) { testMalformed(t, name, subtype) })
	t.Run("Options", func(t *testing.T) { testOptions(t, name) })
	t.Run("SeveralListeners", func(t *testing.T) { testSeveralListeners(t, name) })
	t.Run("ShutdownWaits", func(t *testing.T) { testShutdownWaits(t, name) })
	t.Run("ShutdownDeadline", func(t *testing.T) { testShutdownDeadline(t, name) })
	t.Run("NewClientFailsFast", func(t *testing.T) { testNewClientFailsFast(t, name) })
	t.Run("AnswerOverClientLimit", func(t *testing.T) { testAnswerOverClientLimit(t, name) })
	t.Run("PictureAbsentVersusEmpty", func(t *testing.T) { testPicture(t, name) })
	t.Run("StreamStopReachesServer", func(t *testing.T) { testStreamStop(t, name) })
	t.Run("OneConnectionPerClient", func(t *testing.T) { testOneConnection(t, name) })
}

// rawCodec sends and receives bytes as they are, under a content-subtype.
type rawCodec string

func (c rawCodec) Name() string { return string(c) }
func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*[]byte))}, nil
}
func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*[]byte) = data.Materialize()
	return nil
}

// testMalformed sends bytes that are no valid message of any method's request type
// and expects INTERNAL, the server serving on. (grpc-go writes that status itself
// when the codec fails, before the handler could choose another code.)
func testMalformed(t *testing.T, name, subtype string) {
	tg := protocoltest.Start(t, name, "tcp", nil, protocol.ServerConfig{})
	cc, err := grpc.NewClient("passthrough:///"+tg.Addr.Address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx := protocoltest.Context(t)
	// A field with wire type 7 (no such type in protobuf); in Avro a long (zig-zag
	// varint) that never ends.
	junk := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	opt := grpc.ForceCodecV2(rawCodec(subtype))
	for _, m := range []string{"/wirebench.v1.PersonService/GetPerson", "/wirebench.v1.PersonService/CreatePerson", "/wirebench.v1.EchoService/Echo"} {
		var out []byte
		err := cc.Invoke(ctx, m, &junk, &out, opt)
		if status.Code(err) != codes.Internal {
			t.Errorf("%s with junk: %v, want Internal", m, err)
		}
	}
	desc := &grpc.StreamDesc{StreamName: "StreamTrades", ServerStreams: true}
	s, err := cc.NewStream(ctx, desc, "/wirebench.v1.TradeService/StreamTrades", opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SendMsg(&junk); err != nil {
		t.Fatal(err)
	}
	s.CloseSend()
	var out []byte
	if err := s.RecvMsg(&out); status.Code(err) != codes.Internal {
		t.Errorf("StreamTrades with junk: %v, want Internal", err)
	}
	if _, err := tg.Client(t, nil).GetPerson(ctx, 1); err != nil {
		t.Errorf("GetPerson after malformed requests: %v", err)
	}
}

var allServerOptions = map[string]string{
	"initial_window_size": "1MiB", "initial_conn_window_size": "4MiB",
	"read_buffer_size": "64KiB", "write_buffer_size": "0", "num_stream_workers": "2",
}

var allClientOptions = map[string]string{
	"initial_window_size": "1MiB", "initial_conn_window_size": "4MiB",
	"read_buffer_size": "0", "write_buffer_size": "64KiB",
}

// testOptions runs calls with every option set on both sides, and checks that
// unknown or bad options are refused by name.
func testOptions(t *testing.T, name string) {
	tg := protocoltest.Start(t, name, "tcp", nil, protocol.ServerConfig{Options: allServerOptions})
	cl := tg.ClientConfig(t, protocol.ClientConfig{Options: allClientOptions}, nil)
	ctx := protocoltest.Context(t)
	payload := contract.Payload(3 << 20) // more than the windows: flow control at work
	if got, err := cl.Echo(ctx, payload); err != nil || got != payload {
		t.Errorf("Echo of 3MiB with options: %d bytes, %v", len(got), err)
	}
	var n int64
	if err := cl.StreamTrades(ctx, 5000, func(*contract.Trade) error { n++; return nil }); err != nil || n != 5000 {
		t.Errorf("StreamTrades(5000) with options: %d trades, %v", n, err)
	}

	p, _ := protocol.Lookup(name)
	svc := contract.NewReference(tg.Dataset)
	for opt, val := range map[string]string{"bogus": "1", "initial_window_size": "1KiB", "num_stream_workers": "many"} {
		_, err := p.NewServer(svc, protocol.ServerConfig{Options: map[string]string{opt: val}})
		if err == nil || !strings.Contains(err.Error(), opt) {
			t.Errorf("server option %s=%s: error %v, want one naming the option", opt, val, err)
		}
	}
	for opt, val := range map[string]string{"bogus": "1", "read_buffer_size": "big", "num_stream_workers": "2"} {
		_, err := p.Dial(ctx, protocol.ClientConfig{Address: tg.Addr, Options: map[string]string{opt: val}})
		if err == nil || !strings.Contains(err.Error(), opt) {
			t.Errorf("client option %s=%s: error %v, want one naming the option", opt, val, err)
		}
	}
}

// testSeveralListeners serves TCP and Unix at once from one server; after Close,
// every Serve returns nil, and a Serve after Close returns nil at once.
func testSeveralListeners(t *testing.T, name string) {
	p, _ := protocol.Lookup(name)
	srv, err := p.NewServer(contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)), protocol.ServerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	served := make(chan error, 2)
	var addrs []transport.Addr
	for _, network := range protocoltest.Networks {
		ln, err := transport.Listen(protocoltest.ListenAddr(t, network))
		if err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, transport.AddrOf(ln.Addr()))
		go func() { served <- srv.Serve(ln) }()
	}
	ctx := protocoltest.Context(t)
	for _, a := range addrs {
		cl, err := p.Dial(ctx, protocol.ClientConfig{Address: a})
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		if _, err := cl.GetPerson(ctx, 1); err != nil {
			t.Errorf("GetPerson over %s: %v", a, err)
		}
		cl.Close()
	}
	srv.Close()
	for range addrs {
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("Serve after Close: %v, want nil", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Serve did not return within 5s of Close")
		}
	}
	ln, err := transport.Listen(protocoltest.ListenAddr(t, "tcp"))
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(ln); err != nil {
		t.Errorf("Serve on a closed server: %v, want nil", err)
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("Serve on a closed server left its listener open")
	}
	srv.Close() // a second Close is harmless
	srv.Shutdown(ctx)
}

// gate is a service whose Echo of "gate" waits until the gate opens or its context
// ends.
type gate struct {
	contract.Service
	entered chan struct{}
	open    chan struct{}
	once    sync.Once
}

func newGate() *gate {
	return &gate{
		Service: contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)),
		entered: make(chan struct{}, 64), open: make(chan struct{}),
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

func (g *gate) release() { g.once.Do(func() { close(g.open) }) }

func (g *gate) waitEntered(t *testing.T) {
	t.Helper()
	select {
	case <-g.entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not reach the server")
	}
}

// testShutdownWaits: Shutdown lets a call in flight finish and returns nil.
func testShutdownWaits(t *testing.T, name string) {
	g := newGate()
	defer g.release()
	tg := protocoltest.Start(t, name, "tcp", g, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	res := make(chan error, 1)
	go func() { _, err := cl.Echo(ctx, "gate"); res <- err }()
	g.waitEntered(t)
	shut := make(chan error, 1)
	go func() { shut <- tg.Server.Shutdown(ctx) }()
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned %v with a call in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	g.release()
	if err := <-res; err != nil {
		t.Errorf("the call in flight during Shutdown failed: %v", err)
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

// testShutdownDeadline: Shutdown whose ctx ends first closes at once and returns the
// ctx error; the call in flight fails.
func testShutdownDeadline(t *testing.T, name string) {
	g := newGate()
	defer g.release()
	tg := protocoltest.Start(t, name, "tcp", g, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	res := make(chan error, 1)
	go func() { _, err := cl.Echo(protocoltest.Context(t), "gate"); res <- err }()
	g.waitEntered(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := tg.Server.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown past its deadline: %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Shutdown with a 100ms deadline took %v", d)
	}
	select {
	case err := <-res:
		if err == nil {
			t.Error("the call in flight succeeded after the server was stopped")
		}
	case <-time.After(5 * time.Second):
		t.Error("the call in flight did not fail within 5s of the stop")
	}
}

// testNewClientFailsFast: NewClient fails, within its ctx, on an address where no
// server listens and on a server that is no gRPC server.
func testNewClientFailsFast(t *testing.T, name string) {
	p, _ := protocol.Lookup(name)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := transport.AddrOf(ln.Addr())
	ln.Close()

	for what, a := range map[string]transport.Addr{"no server": dead, "not gRPC": protocoltest.HTTPPeer(t)} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		start := time.Now()
		cl, err := p.Dial(ctx, protocol.ClientConfig{Address: a})
		cancel()
		if err == nil {
			cl.Close()
			t.Errorf("%s: NewClient succeeded", what)
		} else if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: NewClient took %v to fail: %v", what, d, err)
		}
	}
}

// testAnswerOverClientLimit: an answer over the client's limit is ResourceExhausted,
// and the client stays usable.
func testAnswerOverClientLimit(t *testing.T, name string) {
	tg := protocoltest.Start(t, name, "tcp", nil, protocol.ServerConfig{})
	cl := tg.ClientConfig(t, protocol.ClientConfig{MaxMessageSize: 1 << 10}, nil)
	ctx := protocoltest.Context(t)
	if _, err := cl.Echo(ctx, contract.Payload(4<<10)); contract.CodeOf(err) != contract.ResourceExhausted {
		t.Errorf("Echo of 4KiB with a 1KiB client limit: %v, want ResourceExhausted", err)
	}
	if _, err := cl.GetPerson(ctx, 1); err != nil {
		t.Errorf("GetPerson after an answer over the limit: %v", err)
	}
}

// testPicture: a present but empty picture stays present; an absent one stays absent.
func testPicture(t *testing.T, name string) {
	tg := protocoltest.Start(t, name, "tcp", nil, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	p := contract.Person{Name: contract.PersonName{First: "A", Last: "B"}, Email: "a@b", Picture: &contract.Picture{}}
	got, err := cl.CreatePerson(ctx, p)
	if err != nil || got.Picture == nil || *got.Picture != (contract.Picture{}) {
		t.Errorf("CreatePerson with an empty picture = %+v, %v; want the empty picture", got.Picture, err)
	}
	p.Picture = nil
	got, err = cl.CreatePerson(ctx, p)
	if err != nil || got.Picture != nil {
		t.Errorf("CreatePerson without a picture = %+v, %v; want none", got.Picture, err)
	}
}

// streamWatch records when the service's StreamTrades returns.
type streamWatch struct {
	contract.Service
	done chan error
}

func (s *streamWatch) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	err := s.Service.StreamTrades(ctx, count, yield)
	s.done <- err
	return err
}

// testStreamStop: a yield error stops the server's stream too, not only the client's.
func testStreamStop(t *testing.T, name string) {
	w := &streamWatch{
		Service: contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)),
		done:    make(chan error, 1),
	}
	tg := protocoltest.Start(t, name, "tcp", w, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	stop := errors.New("stop")
	n := 0
	err := cl.StreamTrades(protocoltest.Context(t), contract.MaxTrades, func(*contract.Trade) error {
		if n++; n == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("StreamTrades = %v, want the yield's error", err)
	}
	select {
	case err := <-w.done:
		if err == nil {
			t.Error("the server's stream finished all trades after the client stopped")
		}
	case <-time.After(5 * time.Second):
		t.Error("the server's stream was still running 5s after the client stopped")
	}
}

// testOneConnection: one client is one connection, through the config's dialer,
// whatever the number of concurrent calls.
func testOneConnection(t *testing.T, name string) {
	tg := protocoltest.Start(t, name, "tcp", nil, protocol.ServerConfig{})
	var dials atomic.Int64
	dial := transport.Dialer(tg.Addr, nil)
	p, _ := protocol.Lookup(name)
	ctx := protocoltest.Context(t)
	cl, err := p.NewClient(ctx, protocol.ClientConfig{Address: tg.Addr, Dial: func(ctx context.Context) (net.Conn, error) {
		dials.Add(1)
		return dial(ctx)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			for range 10 {
				if _, err := cl.Increment(ctx, 1); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := dials.Load(); n != 1 {
		t.Errorf("%d connections dialed for one client, want 1", n)
	}
}
