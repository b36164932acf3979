package protocoltest

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/conform"
	"github.com/wirebench/wirebench/protocol/transport"
)

// Run runs the whole conformance suite for the named protocol's default stacks over
// every transport.
func Run(t *testing.T, name string) { RunStacks(t, name, "", "") }

// RunStacks runs the whole conformance suite for the named server stack called by the
// named client stack of a protocol ("" for the protocol's default of a side) over
// every transport.
func RunStacks(t *testing.T, name, server, client string) {
	p, err := protocol.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	networks := Networks
	switch {
	case p.InProcess:
		networks = []string{"inproc"}
	case speaksQUIC(t, name, server, client):
		networks = []string{QUICNetwork}
	case speaksTLS(t, name, server, client):
		networks = append(slices.Clone(networks), TLSNetwork)
	}
	for _, network := range networks {
		t.Run(network, func(t *testing.T) {
			tg := StartStacks(t, name, server, client, network, nil, protocol.ServerConfig{})
			cl := tg.Client(t, nil)
			t.Run("Contract", func(t *testing.T) { testContract(t, tg, cl, carriesOriginal(t, name, server, client)) })
			t.Run("ContextErrors", func(t *testing.T) { testContextErrors(t, tg, cl) })
			t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, tg, cl) })
			t.Run("ClosedClient", func(t *testing.T) { testClosedClient(t, tg) })
			if p.InProcess {
				return
			}
			t.Run("BytesCounted", func(t *testing.T) { testBytesCounted(t, tg) })
			if carriesMessages(t, name, server, client) {
				t.Run("Message", func(t *testing.T) { testMessage(t, tg) })
			}
			if network == QUICNetwork {
				t.Run("GarbageDatagrams", func(t *testing.T) { testGarbageDatagrams(t, tg, cl) })
			} else {
				t.Run("GarbageBytes", func(t *testing.T) { testGarbage(t, tg, cl) })
			}
			t.Run("OverLimit", func(t *testing.T) { testOverLimit(t, tg) })
			t.Run("ServerCloseInFlight", func(t *testing.T) { testServerCloseInFlight(t, tg) })
			switch network {
			case TLSNetwork:
				t.Run("TLS", func(t *testing.T) { testTLS(t, tg) })
			case QUICNetwork:
				t.Run("QUIC", func(t *testing.T) { testQUIC(t, tg) })
			}
		})
	}
}

// stackPair looks up the named server and client stacks of a protocol ("" for its
// defaults), failing t when either is not registered.
func stackPair(t *testing.T, name, server, client string) (s, c *protocol.Stack) {
	t.Helper()
	s, err := protocol.LookupStack(name, server, protocol.ServerSide)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = protocol.LookupStack(name, client, protocol.ClientSide); err != nil {
		t.Fatal(err)
	}
	return s, c
}

// speaksTLS reports whether both stacks take TLS, and says so in the log when not.
func speaksTLS(t *testing.T, name, server, client string) bool {
	s, c := stackPair(t, name, server, client)
	ok := s.SpeaksTLS(protocol.ServerSide) && c.SpeaksTLS(protocol.ClientSide)
	if !ok {
		t.Logf("%s: %s server and %s client: no TLS, so no run over TLS", name, s.Name, c.Name)
	}
	return ok
}

// testContract runs the contract check every server is held to (conform.Check, what
// `wirebench conform` and the other workers' interop tests run): every operation,
// every answer compared field by field, the refusals, the streams trade by trade, a
// stream stopped by its receiver, and three ops of every workload.
func testContract(t *testing.T, tg *Target, cl protocol.Client, carried bool) {
	original := conform.OriginalRefused
	if carried {
		original = conform.OriginalCarried
	}
	CheckContract(t, cl, tg.Dataset, original)
}

// CheckContract runs conform.Check against the server behind cl, which serves ds, and
// fails the test with each difference.
func CheckContract(t *testing.T, cl contract.Service, ds *contract.Dataset, original conform.Original) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	diffs, err := conform.Check(ctx, cl, ds, conform.Options{CallTimeout: 20 * time.Second, Original: original, Workloads: true})
	for _, d := range diffs {
		t.Error(d)
	}
	if err != nil {
		t.Fatalf("the check ended early: %v", err)
	}
}

// carriesOriginal reports whether the server and the client stack of a protocol both
// carry the original's trade (protocol.Stack.OriginalTrades).
func carriesOriginal(t *testing.T, name, server, client string) bool {
	c, err := protocol.LookupStack(name, client, protocol.ClientSide)
	if err != nil {
		t.Fatal(err)
	}
	s, err := protocol.LookupStack(name, server, protocol.ServerSide)
	if err != nil {
		t.Fatal(err)
	}
	return c.OriginalTrades && s.OriginalTrades
}

func testContextErrors(t *testing.T, tg *Target, cl protocol.Client) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cl.GetPerson(canceled, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("GetPerson with a canceled context: %v, want errors.Is(err, context.Canceled)", err)
	}
	// A deadline that passes while the server is working on the call.
	blk := newBlocking(tg.Service)
	slow := tg.again(t, blk, protocol.ServerConfig{})
	scl := slow.Client(t, nil)
	ctx, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	start := time.Now()
	_, err := scl.Echo(ctx, blockPayload)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Echo past its deadline: %v, want errors.Is(err, context.DeadlineExceeded)", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Echo past a 200ms deadline returned after %v", d)
	}
	blk.release()
	// The client works again for calls with time left.
	if _, err := scl.GetPerson(Context(t), 1); err != nil {
		t.Errorf("GetPerson after a timed-out call: %v", err)
	}
}

func testConcurrent(t *testing.T, tg *Target, cl protocol.Client) {
	ctx := Context(t)
	const goroutines, calls = 32, 50
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			for i := range calls {
				id := int64((g*calls+i)%tg.Dataset.Size() + 1)
				want, _ := tg.Dataset.Person(id)
				var err error
				switch i % 4 {
				case 0:
					var p contract.Person
					if p, err = cl.GetPerson(ctx, id); err == nil && !p.Equal(want) {
						err = fmt.Errorf("GetPerson(%d) = %+v", id, p)
					}
				case 1:
					payload := fmt.Sprintf("g%d-i%d-%s", g, i, contract.Payload(g*37))
					var got string
					if got, err = cl.Echo(ctx, payload); err == nil && got != payload {
						err = fmt.Errorf("Echo(%q) = %q", payload, got)
					}
				case 2:
					var n int64
					if n, err = cl.Increment(ctx, id); err == nil && n != id+1 {
						err = fmt.Errorf("Increment(%d) = %d", id, n)
					}
				case 3:
					var k int64
					err = cl.StreamTrades(ctx, 20, func(tr *contract.Trade) error {
						if *tr != contract.TradeAt(k) {
							return fmt.Errorf("trade %d = %+v", k, *tr)
						}
						k++
						return nil
					})
				}
				if err != nil {
					errs <- fmt.Errorf("goroutine %d call %d: %w", g, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func testClosedClient(t *testing.T, tg *Target) {
	cl := tg.Client(t, nil)
	ctx := Context(t)
	if _, err := cl.GetPerson(ctx, 1); err != nil {
		t.Fatalf("GetPerson: %v", err)
	}
	if err := cl.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := cl.GetPerson(ctx, 1); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("GetPerson after Close succeeded, want an error")
		}
	case <-time.After(5 * time.Second):
		t.Error("GetPerson after Close hung")
	}
	cl.Close() // a second Close must be harmless
}

func testBytesCounted(t *testing.T, tg *Target) {
	var c transport.Counter
	cl := tg.Client(t, &c)
	payload := contract.Payload(10 << 10)
	if _, err := cl.Echo(Context(t), payload); err != nil {
		t.Fatal(err)
	}
	// Both directions carry the payload plus framing; less means a connection escaped
	// the counting dialer.
	if c.Sent() < int64(len(payload)) || c.Received() < int64(len(payload)) {
		t.Errorf("counted %d bytes sent and %d received for a %d-byte echo", c.Sent(), c.Received(), len(payload))
	}
}

func testGarbage(t *testing.T, tg *Target, cl protocol.Client) {
	raw := tg.rawConn(t)
	junk := bytes.Repeat([]byte("\x00\xffgarbage\r\n\x7f\x01wirebench"), 4096)
	raw.SetDeadline(time.Now().Add(5 * time.Second))
	raw.Write(junk) // the server may close before taking it all
	// The server must close the connection (it may answer first, as HTTP does with a
	// 400); a timeout here means it kept a broken connection open.
	_, err := io.Copy(io.Discard, raw)
	if err != nil && !isConnClosedErr(err) {
		t.Errorf("server kept a garbage connection open: %v", err)
	}
	if _, err := cl.GetPerson(Context(t), 1); err != nil {
		t.Errorf("GetPerson on another connection after garbage: %v", err)
	}
}

func isConnClosedErr(err error) bool {
	s := err.Error()
	return strings.Contains(s, "reset by peer") || strings.Contains(s, "broken pipe")
}

func testOverLimit(t *testing.T, base *Target) {
	tg := base.again(t, nil, protocol.ServerConfig{MaxMessageSize: 1 << 20})
	cl := tg.Client(t, nil)
	ctx := Context(t)
	if _, err := cl.Echo(ctx, contract.Payload(2<<20)); err == nil {
		t.Error("Echo of 2 MiB to a server limited to 1 MiB succeeded, want it refused")
	}
	// The server keeps serving, on a new client and (where the protocol keeps it) the old.
	if _, err := tg.Client(t, nil).GetPerson(ctx, 1); err != nil {
		t.Errorf("GetPerson on a new client after an over-limit request: %v", err)
	}
	if got, err := cl.Echo(ctx, "small"); err != nil {
		t.Logf("the connection that sent the over-limit request no longer works: %v", err)
	} else if got != "small" {
		t.Errorf("Echo after over-limit = %q", got)
	}
}

func testServerCloseInFlight(t *testing.T, base *Target) {
	baseline := runtime.NumGoroutine()
	func() {
		blk := newBlocking(contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)))
		defer blk.release()
		tg := base.again(t, blk, protocol.ServerConfig{})
		cl := tg.Client(t, nil)
		const inflight = 8
		errs := make(chan error, inflight+1)
		ctx := Context(t)
		for range inflight {
			go func() { _, err := cl.Echo(ctx, blockPayload); errs <- err }()
		}
		// The stream is in flight once its first trade arrived: a call that starts
		// after the server closed is another case (over QUIC it waits for a
		// handshake timeout, since a UDP port without a server refuses nothing).
		streaming := make(chan struct{})
		var once sync.Once
		go func() {
			errs <- cl.StreamTrades(ctx, contract.MaxTrades, func(*contract.Trade) error {
				once.Do(func() { close(streaming) })
				return nil
			})
		}()
		blk.waitEntered(t, inflight)
		select {
		case <-streaming:
		case err := <-errs:
			t.Fatalf("the stream ended before the server closed: %v", err)
		case <-time.After(5 * time.Second):
			t.Fatal("no trade of the stream arrived within 5s")
		}
		if err := tg.Server.Close(); err != nil {
			t.Errorf("server Close: %v", err)
		}
		for range inflight + 1 {
			select {
			case err := <-errs:
				if err == nil {
					t.Error("a call in flight when the server closed succeeded, want an error")
				}
			case <-time.After(5 * time.Second):
				t.Fatal("a call in flight when the server closed did not return within 5s")
			}
		}
		cl.Close()
	}()
	waitGoroutines(t, baseline)
}

// waitGoroutines waits for the goroutine count to fall back to baseline, and fails with
// the stacks of what is left after 15 s: a leak never ends, while some libraries'
// housekeeping goroutines end on their own timers after the server or client they
// served is closed (fasthttp's worker-pool and connection cleaners sleep 10 s, their
// default idle durations, between passes).
func waitGoroutines(t *testing.T, baseline int) {
	deadline := time.Now().Add(15 * time.Second)
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("%d goroutines left, %d before the server started:\n%s", runtime.NumGoroutine(), baseline, buf)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// blockPayload makes a blocking service's Echo wait for release or its context.
const blockPayload = "block"

type blocking struct {
	contract.Service
	entered  chan struct{}
	released chan struct{}
	once     sync.Once
}

func newBlocking(s contract.Service) *blocking {
	return &blocking{Service: s, entered: make(chan struct{}, 1024), released: make(chan struct{})}
}

func (b *blocking) Echo(ctx context.Context, payload string) (string, error) {
	if payload != blockPayload {
		return b.Service.Echo(ctx, payload)
	}
	b.entered <- struct{}{}
	select {
	case <-b.released:
		return payload, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (b *blocking) release() { b.once.Do(func() { close(b.released) }) }

func (b *blocking) waitEntered(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-b.entered:
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d of %d calls reached the server", i, n)
		}
	}
}

// testTLS checks that the server speaks TLS 1.3 with its certificate, and that the
// client checks the server's: a client trusting another CA fails its first call.
func testTLS(t *testing.T, tg *Target) {
	cfg, err := tg.TLS.ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	cfg.ServerName = "localhost"
	d := tls.Dialer{Config: cfg}
	c, err := d.DialContext(Context(t), "tcp", tg.Addr.Address)
	if err != nil {
		t.Fatalf("TLS handshake with the server, trusting its CA: %v", err)
	}
	if v := c.(*tls.Conn).ConnectionState().Version; v != tls.VersionTLS13 {
		t.Errorf("TLS version %x, want TLS 1.3", v)
	}
	c.Close()

	other, err := transport.EphemeralTLS()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, err := tg.ClientStack.NewClient(ctx, protocol.ClientConfig{Address: tg.Addr, Dial: transport.Dialer(tg.Addr, nil),
		TLS: transport.TLS{CAPEM: other.CAPEM}})
	if err == nil {
		defer cl.Close()
		_, err = cl.GetPerson(ctx, 1)
	}
	if err == nil {
		t.Error("a client trusting another CA called the server, want a certificate error")
	}
}
