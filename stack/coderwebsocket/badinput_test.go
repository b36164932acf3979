package coderwebsocket_test

// Bad input on the server's port beyond the conformance suite's: bad messages on an
// open WebSocket, frames by hand (a header claiming far more than the limit, frames
// that break the protocol), a client that sends and never reads, and one that holds
// more calls in flight than the server takes at once.

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/websocketproto"
)

// dialWS opens a WebSocket to the target with coder/websocket itself, for messages
// the adapter's client would never send.
func dialWS(t *testing.T, tg *protocoltest.Target) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(protocoltest.Context(t), "ws://"+tg.Addr.Address+websocketproto.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(-1)
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

// answer is a server message as a test reads it.
type answer struct {
	ID    uint64 `json:"id"`
	Body  map[string]any
	Error *struct{ Code, Message string }
}

func TestBadMessages(t *testing.T) {
	tg := protocoltest.Start(t, websocketproto.Name, "tcp", nil, protocol.ServerConfig{})
	ctx := protocoltest.Context(t)

	t.Run("refusals", func(t *testing.T) {
		ws := dialWS(t, tg)
		for _, c := range []struct {
			request, code string
		}{
			{`{"id":1,"op":"fly"}`, "invalid_argument"},
			{`{"id":2,"op":"getPerson"}`, "invalid_argument"},
			{`{"id":3,"op":"getPerson","body":{"id":"three"}}`, "invalid_argument"},
			{`{"id":4,"op":"getPerson","body":{}}`, "invalid_argument"},
			{`{"id":5,"op":"echo","body":{"payload":null}}`, "invalid_argument"},
			{`{"id":6,"op":"increment","body":[1]}`, "invalid_argument"},
			{`{"id":7,"op":"streamTrades","body":{"count":-1}}`, "invalid_argument"},
			{`{"id":8,"op":"getPerson","body":{"id":99999}}`, "not_found"},
			{`{"id":9,"op":"createPerson","body":{"name":{"first":"A"},"email":"a@example.com"}}`, "invalid_argument"},
		} {
			if err := ws.Write(ctx, websocket.MessageText, []byte(c.request)); err != nil {
				t.Fatal(err)
			}
			var a answer
			if err := wsjson.Read(ctx, ws, &a); err != nil {
				t.Fatalf("%s: %v", c.request, err)
			}
			if a.Error == nil || a.Error.Code != c.code || a.Body != nil {
				t.Errorf("%s answered %+v, want error %s", c.request, a, c.code)
			}
		}
		// The connection still serves calls, in binary messages too.
		if err := ws.Write(ctx, websocket.MessageBinary, []byte(`{"id":10,"op":"getPerson","body":{"id":1}}`)); err != nil {
			t.Fatal(err)
		}
		var a answer
		if err := wsjson.Read(ctx, ws, &a); err != nil || a.ID != 10 || a.Body["id"] != float64(1) {
			t.Errorf("getPerson after refusals: %+v, %v", a, err)
		}
	})

	for _, c := range []struct {
		name, message string
		status        websocket.StatusCode
	}{
		{"not JSON", "\x00garbage{", websocket.StatusInvalidFramePayloadData},
		{"not an object", `[1,2]`, websocket.StatusInvalidFramePayloadData},
		{"no id", `{"op":"stats"}`, websocket.StatusPolicyViolation},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := dialWS(t, tg)
			if err := ws.Write(ctx, websocket.MessageText, []byte(c.message)); err != nil {
				t.Fatal(err)
			}
			_, _, err := ws.Read(ctx)
			if got := websocket.CloseStatus(err); got != c.status {
				t.Errorf("after %q the server closed with %v (%v), want %v", c.message, got, err, c.status)
			}
		})
	}
	if _, err := tg.Client(t, nil).GetPerson(ctx, 1); err != nil {
		t.Fatalf("GetPerson after bad messages: %v", err)
	}
}

func TestOverLimitIsResourceExhausted(t *testing.T) {
	ctx := protocoltest.Context(t)
	t.Run("request", func(t *testing.T) {
		tg := protocoltest.Start(t, websocketproto.Name, "tcp", nil, protocol.ServerConfig{MaxMessageSize: 1 << 20})
		cl := tg.Client(t, nil)
		// Within the limit, envelope included, passes ...
		if _, err := cl.Echo(ctx, contract.Payload(1<<20-100)); err != nil {
			t.Fatalf("Echo just within the limit: %v", err)
		}
		// ... over it fails with resource_exhausted (status 1009 closes the connection).
		_, err := cl.Echo(ctx, contract.Payload(2<<20))
		if c := contract.CodeOf(err); c != contract.ResourceExhausted {
			t.Fatalf("Echo over the server's limit: %v (code %q), want %q", err, c, contract.ResourceExhausted)
		}
		// The client opens a new connection for the next call.
		if got, err := cl.Echo(ctx, "small"); err != nil || got != "small" {
			t.Fatalf("Echo after the over-limit one: %q, %v", got, err)
		}
	})
	t.Run("answer", func(t *testing.T) {
		tg := protocoltest.Start(t, websocketproto.Name, "unix", nil, protocol.ServerConfig{})
		cl := tg.ClientConfig(t, protocol.ClientConfig{MaxMessageSize: 1 << 20}, nil)
		_, err := cl.Echo(ctx, contract.Payload(2<<20))
		if c := contract.CodeOf(err); c != contract.ResourceExhausted {
			t.Fatalf("Echo with an answer over the client's limit: %v (code %q), want %q", err, c, contract.ResourceExhausted)
		}
		if _, err := cl.GetPerson(ctx, 1); err != nil {
			t.Fatalf("GetPerson after the over-limit answer: %v", err)
		}
	})
}

// rawWS opens a TCP connection to the target and makes the WebSocket handshake by
// hand; the caller writes frames of its own making.
func rawWS(t *testing.T, tg *protocoltest.Target) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.DialTimeout("tcp", tg.Addr.Address, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", websocketproto.Path, tg.Addr.Address)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake answered %s", resp.Status)
	}
	return c, br
}

// frameHeader is the header of a final, masked (with a zero key, so the payload goes
// as it is) client frame of opcode claiming length bytes.
func frameHeader(opcode byte, length uint64) []byte {
	h := []byte{0x80 | opcode, 0x80 | 127}
	h = binary.BigEndian.AppendUint64(h, length)
	return append(h, 0, 0, 0, 0)
}

// closeStatus reads frames until a close frame and returns its status; -1 when the
// connection ends without one.
func closeStatus(br *bufio.Reader) int {
	for {
		var h [2]byte
		if _, err := io.ReadFull(br, h[:]); err != nil {
			return -1
		}
		n := int(h[1] & 0x7f)
		if n >= 126 {
			return -1 // the server sends no long frames here
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(br, p); err != nil {
			return -1
		}
		if h[0]&0x0f == 0x8 && n >= 2 {
			return int(binary.BigEndian.Uint16(p))
		}
	}
}

func TestHugeFrameHeader(t *testing.T) {
	const limit = 1 << 20
	tg := protocoltest.Start(t, websocketproto.Name, "tcp", nil, protocol.ServerConfig{MaxMessageSize: limit})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	c, br := rawWS(t, tg)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	// A frame claiming 60 MiB: memory follows the bytes that come, not the claim.
	if _, err := c.Write(frameHeader(0x1, 60<<20)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte(`{"id":1,"op":"echo","body":{"payload":"`)); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.GetPerson(ctx, 1); err != nil {
		t.Fatalf("GetPerson while a huge frame is under way: %v", err)
	}
	// Past the limit the server stops reading and closes with 1009.
	go c.Write(make([]byte, 2*limit)) // the server stops taking it at the limit
	if got := closeStatus(br); got != int(websocket.StatusMessageTooBig) {
		t.Errorf("the server closed with %d, want %d (message too big)", got, websocket.StatusMessageTooBig)
	}
	runtime.ReadMemStats(&after)
	// TotalAlloc only grows: a reservation of the claimed 60 MiB would show.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("the process allocated %d MiB for a frame claiming 60 MiB with a limit of 1 MiB", grew>>20)
	}
	if _, err := cl.GetPerson(ctx, 1); err != nil {
		t.Fatalf("GetPerson after the huge frame: %v", err)
	}
}

func TestBrokenFrames(t *testing.T) {
	tg := protocoltest.Start(t, websocketproto.Name, "tcp", nil, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	for name, frames := range map[string][]byte{
		// RFC 6455: a client's frames must be masked.
		"unmasked":           {0x81, 0x02, '{', '}'},
		"unknown opcode":     append(frameHeader(0x3, 1), 'x'),
		"continuation first": append(frameHeader(0x0, 1), 'x'),
		"garbage":            []byte(strings.Repeat("\x00\xffgarbage\r\n", 1000)),
	} {
		t.Run(name, func(t *testing.T) {
			c, br := rawWS(t, tg)
			c.Write(frames) // the server may close before taking them all
			closeStatus(br)
			if _, err := io.Copy(io.Discard, br); err != nil && !errors.Is(err, net.ErrClosed) && !strings.Contains(err.Error(), "reset by peer") {
				t.Errorf("the server kept the connection open: %v", err)
			}
			if _, err := cl.GetPerson(protocoltest.Context(t), 1); err != nil {
				t.Fatalf("GetPerson on another connection: %v", err)
			}
		})
	}
}

// gate is a service whose ListPersons waits until the gate opens, counting the calls
// inside at once.
type gate struct {
	contract.Service
	open         chan struct{}
	inside, most atomic.Int64
	entered      chan struct{}
}

func (g *gate) ListPersons(ctx context.Context) ([]contract.Person, error) {
	n := g.inside.Add(1)
	defer g.inside.Add(-1)
	for m := g.most.Load(); n > m && !g.most.CompareAndSwap(m, n); m = g.most.Load() {
	}
	g.entered <- struct{}{}
	select {
	case <-g.open:
		return g.Service.ListPersons(ctx)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func TestCallsInFlightBounded(t *testing.T) {
	const sent, bound = 1000, 250 // bound: the server's calls per connection
	g := &gate{Service: contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)),
		open: make(chan struct{}), entered: make(chan struct{}, sent)}
	tg := protocoltest.Start(t, websocketproto.Name, "tcp", g, protocol.ServerConfig{})
	ctx := protocoltest.Context(t)
	ws := dialWS(t, tg)
	for i := range sent {
		if err := wsjson.Write(ctx, ws, map[string]any{"id": i, "op": "listPersons"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range bound {
		select {
		case <-g.entered:
		case <-ctx.Done():
			t.Fatalf("only %d calls reached the service", i)
		}
	}
	// Other connections are served meanwhile.
	if _, err := tg.Client(t, nil).GetPerson(ctx, 1); err != nil {
		t.Fatalf("GetPerson beside a connection at its bound: %v", err)
	}
	if m := g.most.Load(); m > bound {
		t.Errorf("%d calls of one connection in the service at once, want at most %d", m, bound)
	}
	close(g.open)
	got := map[uint64]bool{}
	for len(got) < sent {
		var a answer
		if err := wsjson.Read(ctx, ws, &a); err != nil {
			t.Fatalf("after %d answers: %v", len(got), err)
		}
		if a.Error != nil || len(a.Body["persons"].([]any)) != contract.DefaultSize {
			t.Fatalf("answer %d: %+v", a.ID, a)
		}
		got[a.ID] = true
	}
	if m := g.most.Load(); m > bound {
		t.Errorf("%d calls of one connection in the service at once, want at most %d", m, bound)
	}
}

func TestClientThatDoesNotRead(t *testing.T) {
	const bound = 250 // the server's calls per connection
	tg := protocoltest.Start(t, websocketproto.Name, "tcp", nil, protocol.ServerConfig{})
	ctx := protocoltest.Context(t)
	other := tg.Client(t, nil)
	if _, err := other.GetPerson(ctx, 1); err != nil {
		t.Fatal(err)
	}
	baseline := runtime.NumGoroutine()
	c, _ := rawWS(t, tg)
	// 4,000 listPersons of ~8 KiB answers each, 32 MiB: far more than the socket
	// buffers hold, so the server's writes wait for a reader that never comes, and
	// its calls stay at their bound.
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 4000 {
			req := fmt.Appendf(nil, `{"id":%d,"op":"listPersons"}`, i)
			if _, err := c.Write(append(frameHeader(0x1, uint64(len(req))), req...)); err != nil {
				return
			}
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() < baseline+bound && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine() - baseline; n < bound {
		t.Fatalf("%d goroutines more than before; the server's calls should have filled their bound of %d", n, bound)
	}
	if _, err := other.GetPerson(ctx, 1); err != nil {
		t.Fatalf("GetPerson beside a client that does not read: %v", err)
	}
	if n := runtime.NumGoroutine() - baseline; n > bound+10 {
		t.Errorf("%d goroutines more than before for one connection, want at most its %d calls and a few", n, bound)
	}
	c.Close()
	wg.Wait()
	// Closing the connection ends its calls, whose writes were waiting.
	deadline = time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseline {
		t.Errorf("%d goroutines left after the client went, %d before", n, baseline)
	}
}
