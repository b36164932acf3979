package capnpgo_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/capnprpc"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/capnpgo"
)

// expectClosed reads from c until the server closes it, failing if that takes longer
// than within.
func expectClosed(t *testing.T, c net.Conn, within time.Duration) {
	t.Helper()
	start := time.Now()
	c.SetReadDeadline(start.Add(within))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("server kept the connection open for %v", within)
	}
}

func dialRaw(t *testing.T, tg *protocoltest.Target) net.Conn {
	t.Helper()
	c, err := net.DialTimeout(tg.Addr.Network, tg.Addr.Address, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// header returns a Cap'n Proto stream frame header of one segment of the given size.
func header(segmentBytes uint32) []byte {
	h := make([]byte, 8)
	binary.LittleEndian.PutUint32(h[0:], 0) // one segment
	binary.LittleEndian.PutUint32(h[4:], segmentBytes/8)
	return h
}

func TestGarbageClosesOnlyThatConnection(t *testing.T) {
	tg := protocoltest.Start(t, capnprpc.Name, "tcp", nil, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	random := make([]byte, 64<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	for name, junk := range map[string][]byte{
		"random":       random,
		"http":         []byte("GET /persons HTTP/1.1\r\nHost: x\r\n\r\n"),
		"valid-header": append(header(64), []byte(strings.Repeat("\xff", 64))...),
		"too-many-segs": func() []byte {
			b := make([]byte, 8)
			binary.LittleEndian.PutUint32(b, 100_000)
			return b
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			raw := dialRaw(t, tg)
			raw.SetWriteDeadline(time.Now().Add(2 * time.Second))
			raw.Write(junk) // the server may close before taking it all
			expectClosed(t, raw, 2*time.Second)
			if _, err := cl.GetPerson(ctx, 1); err != nil {
				t.Fatalf("GetPerson on another connection: %v", err)
			}
		})
	}
	if _, err := tg.Client(t, nil).GetPerson(ctx, 2); err != nil {
		t.Fatalf("GetPerson on a new connection after garbage: %v", err)
	}
}

func TestHugeFrameHeaderRefused(t *testing.T) {
	tg := protocoltest.Start(t, capnprpc.Name, "tcp", nil, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	if _, err := cl.GetPerson(ctx, 1); err != nil { // warm up
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	raw := dialRaw(t, tg)
	if _, err := raw.Write(header(60 << 20)); err != nil {
		t.Fatal(err)
	}
	expectClosed(t, raw, 2*time.Second)
	runtime.ReadMemStats(&after)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("connection closed after %v", d)
	}
	// TotalAlloc only grows: a reservation of the claimed 60 MiB would show.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("the process allocated %d MiB while refusing the header", grew>>20)
	}
	if _, err := cl.GetPerson(ctx, 1); err != nil {
		t.Fatalf("GetPerson after the huge header: %v", err)
	}
}

func TestOverLimitIsResourceExhausted(t *testing.T) {
	ctx := protocoltest.Context(t)
	t.Run("request", func(t *testing.T) {
		tg := protocoltest.Start(t, capnprpc.Name, "unix", nil, protocol.ServerConfig{MaxMessageSize: 1 << 20})
		cl := tg.Client(t, nil)
		// At the limit passes (the envelope has its own slack) ...
		if _, err := cl.Echo(ctx, contract.Payload(1<<20)); err != nil {
			t.Fatalf("Echo of exactly the limit: %v", err)
		}
		// ... over it is refused with ResourceExhausted.
		_, err := cl.Echo(ctx, contract.Payload(2<<20))
		if c := contract.CodeOf(err); c != contract.ResourceExhausted {
			t.Fatalf("Echo over the server's limit: %v (code %q), want %q", err, c, contract.ResourceExhausted)
		}
		if _, err := tg.Client(t, nil).GetPerson(ctx, 1); err != nil {
			t.Fatalf("new client after over-limit: %v", err)
		}
	})
	t.Run("response", func(t *testing.T) {
		tg := protocoltest.Start(t, capnprpc.Name, "tcp", nil, protocol.ServerConfig{})
		cl := tg.ClientConfig(t, protocol.ClientConfig{MaxMessageSize: 1 << 20}, nil)
		_, err := cl.Echo(ctx, contract.Payload(2<<20))
		if c := contract.CodeOf(err); c != contract.ResourceExhausted {
			t.Fatalf("Echo with a response over the client's limit: %v (code %q), want %q", err, c, contract.ResourceExhausted)
		}
		// The connection is gone: later calls fail at once, and not as a contract error.
		start := time.Now()
		_, err = cl.GetPerson(ctx, 1)
		if err == nil || contract.CodeOf(err) != "" || time.Since(start) > time.Second {
			t.Fatalf("GetPerson on the aborted connection: %v after %v", err, time.Since(start))
		}
	})
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

func TestSlowCallsDoNotBlockOthers(t *testing.T) {
	g := newGate()
	tg := protocoltest.Start(t, capnprpc.Name, "tcp", g, protocol.ServerConfig{})
	a, b := tg.Client(t, nil), tg.Client(t, nil)
	ctx := protocoltest.Context(t)

	// A long stream whose receiver is slow: the server's push waits on flow control.
	streaming := make(chan struct{})
	resume := make(chan struct{})
	stop := errors.New("stop")
	streamDone := make(chan error, 1)
	go func() {
		n := 0
		streamDone <- a.StreamTrades(ctx, contract.MaxTrades, func(*contract.Trade) error {
			n++
			if n == 1 {
				close(streaming)
				<-resume
			}
			if n == 5000 {
				return stop
			}
			return nil
		})
	}()
	<-streaming
	// A slow call on a's connection too.
	echoed := make(chan error, 1)
	go func() { _, err := a.Echo(ctx, "gate"); echoed <- err }()
	<-g.entered

	for _, c := range []struct {
		name string
		cl   protocol.Client
	}{{"other client", b}, {"same client", a}} {
		start := time.Now()
		if _, err := c.cl.GetPerson(ctx, 3); err != nil {
			t.Fatalf("GetPerson (%s) during a stream and a slow call: %v", c.name, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("GetPerson (%s) took %v behind a stream and a slow call", c.name, d)
		}
	}
	close(resume)
	if err := <-streamDone; !errors.Is(err, stop) {
		t.Errorf("stream: %v, want the yield's error", err)
	}
	close(g.open)
	if err := <-echoed; err != nil {
		t.Errorf("slow echo: %v", err)
	}
}

func TestShutdownWaitsForCalls(t *testing.T) {
	g := newGate()
	tg := protocoltest.Start(t, capnprpc.Name, "unix", g, protocol.ServerConfig{})
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
	// No new connections once shutting down.
	if c, err := net.DialTimeout(tg.Addr.Network, tg.Addr.Address, time.Second); err == nil {
		c.Close()
		t.Error("dial succeeded after Shutdown began")
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
	tg := protocoltest.Start(t, capnprpc.Name, "tcp", g, protocol.ServerConfig{})
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
	tg := protocoltest.Start(t, capnprpc.Name, "tcp", nil, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	p := contract.Person{Name: contract.PersonName{First: "A", Last: "B"}, Email: "a@b", Picture: &contract.Picture{}}
	got, err := cl.CreatePerson(protocoltest.Context(t), p)
	if err != nil {
		t.Fatal(err)
	}
	if got.Picture == nil {
		t.Error("a person with an empty picture came back without one")
	}
	p.Picture = nil
	if got, err = cl.CreatePerson(protocoltest.Context(t), p); err != nil || got.Picture != nil {
		t.Errorf("a person without a picture came back as %+v, %v", got.Picture, err)
	}
}

func TestClientOptions(t *testing.T) {
	tg := protocoltest.Start(t, capnprpc.Name, "tcp", nil, protocol.ServerConfig{})
	p, _ := protocol.Lookup(capnprpc.Name)
	for _, opts := range []map[string]string{{"nope": "1"}, {capnpgo.OptionFlowWindow: "lots"}, {capnpgo.OptionFlowWindow: "0"}} {
		cl, err := p.Dial(protocoltest.Context(t), protocol.ClientConfig{Address: tg.Addr, Options: opts})
		if err == nil {
			cl.Close()
			t.Errorf("options %v accepted", opts)
		}
	}
	// A window smaller than one request: calls pass one at a time, never panic.
	cl := tg.ClientConfig(t, protocol.ClientConfig{Options: map[string]string{capnpgo.OptionFlowWindow: "16KiB"}}, nil)
	payload := contract.Payload(100 << 10)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				if got, err := cl.Echo(protocoltest.Context(t), payload); err != nil || got != payload {
					t.Errorf("Echo through a small window: %d bytes, %v", len(got), err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestNewClientFailsFast(t *testing.T) {
	// A listener that accepts and never answers: NewClient must give up with its ctx.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	p, _ := protocol.Lookup(capnprpc.Name)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	cl, err := p.Dial(ctx, protocol.ClientConfig{Address: transport.AddrOf(ln.Addr())})
	if err == nil {
		cl.Close()
		t.Fatal("NewClient to a silent server succeeded")
	}
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("NewClient to a silent server: %v after %v", err, time.Since(start))
	}
}

func TestNewClientRefusesOtherProtocols(t *testing.T) {
	p, _ := protocol.Lookup(capnprpc.Name)
	cl, err := p.Dial(protocoltest.Context(t), protocol.ClientConfig{Address: protocoltest.HTTPPeer(t)})
	if err == nil {
		cl.Close()
		t.Fatal("NewClient to an HTTP peer succeeded")
	}
}
