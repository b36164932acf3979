package instrument_test

// Tests of the instrument client stack: the conformance suite with it as the client,
// wrong answers caught on the decode and the hash paths, and no allocation per call.

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/connectproto"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/stack/gofasthttp"
	"github.com/wirebench/wirebench/stack/instrument"
	"github.com/wirebench/wirebench/workers/go/sysstat"
)

// TestConformance runs the conformance suite with the instrument as the client,
// against every server stack of each protocol it speaks that runs in this process
// (the JVM stacks are tested with their worker).
func TestConformance(t *testing.T) {
	for _, c := range []struct{ proto, client string }{
		{httpjson.Name, instrument.Name},
		{httpjson.Name, instrument.H2Name},
		{grpcproto.Name, instrument.Name},
		{grpcavro.Name, instrument.Name},
		{connectproto.ConnectProto, instrument.Name},
		{connectproto.ConnectJSON, instrument.Name},
	} {
		for _, s := range protocol.Stacks(c.proto) {
			// The instrument speaks HTTP/1.1 and HTTP/2 over TCP, not HTTP/3; fasthttp's
			// server speaks HTTP/1.1 only, so instrument-h2 has nothing to call there.
			if c.client == instrument.H2Name && s.Name == gofasthttp.Name {
				continue
			}
			if s.Has(protocol.ServerSide) && s.NewServer != nil && !s.QUIC {
				t.Run(c.proto+"/"+c.client+"/"+s.Name, func(t *testing.T) { protocoltest.RunStacks(t, c.proto, s.Name, c.client) })
			}
		}
	}
}

// A wrong answer must fail the call or the workload's check whether the client
// decodes it (the first answer to a request) or meets it after it has remembered the
// right answer to the same request (the hash path). The servers here are small fakes
// that speak the wire format and answer from a script: test fixtures, so that each
// kind of wrong answer can be sent on purpose.

var testData = contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// answer is what a fake server sends for one call.
type answer struct {
	status int    // HTTP status (0: 200)
	body   []byte // the JSON body, or the gRPC message
	// cut > 0 sends only the first cut bytes of the body: HTTP closes the connection
	// there; gRPC sends the message prefix of the whole body, then the cut body, then
	// grpc-status 0.
	cut        int
	grpcStatus string // "" is "0"
	noTrailers bool   // gRPC: end the stream after the body, without grpc-status
	reset      bool   // HTTP/2: reset the stream after the body
	ctype      string // HTTP/2 without gRPC: the content-type, when not the fake's own
}

// script gives the answer of the n-th call (from 0).
type script func(n int) answer

// personJSON is a person as the http-json servers write it.
func personJSON(id int64) []byte {
	p, _ := testData.Person(id)
	b, _ := json.Marshal(p)
	return b
}

// httpFake serves HTTP/1.1 on loopback: every request, whatever it asks, gets the
// scripted answer.
func httpFake(t *testing.T, s script) transport.Addr {
	var calls atomic.Int64
	return protocoltest.Peer(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		for {
			for { // the request head (GET: no body)
				line, err := br.ReadString('\n')
				if err != nil {
					return
				}
				if line == "\r\n" {
					break
				}
			}
			a := s(int(calls.Add(1) - 1))
			if a.status == 0 {
				a.status = 200
			}
			fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
				a.status, http.StatusText(a.status), len(a.body))
			if a.cut > 0 {
				c.Write(a.body[:a.cut])
				return
			}
			c.Write(a.body)
		}
	})
}

// grpcFake serves gRPC over HTTP/2 in plain text (x/net's HTTP/2 server): every call
// gets the scripted answer, with contentType.
func grpcFake(t *testing.T, contentType string, s script) transport.Addr {
	var calls atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := make([]byte, 1<<10)
		for { // the request message, read whole
			if _, err := r.Body.Read(buf); err != nil {
				break
			}
		}
		a := s(int(calls.Add(1) - 1))
		w.Header().Set("Content-Type", contentType)
		if a.status != 0 && a.status != 200 {
			w.WriteHeader(a.status)
			return
		}
		w.Header().Set("Trailer", "Grpc-Status")
		w.WriteHeader(200)
		msg := binary.BigEndian.AppendUint32([]byte{0}, uint32(len(a.body)))
		body := a.body
		if a.cut > 0 {
			body = body[:a.cut]
		}
		w.Write(append(msg, body...))
		w.(http.Flusher).Flush()
		switch {
		case a.reset:
			panic(http.ErrAbortHandler) // the server resets the stream
		case a.noTrailers:
			return
		case a.grpcStatus == "":
			w.Header().Set("Grpc-Status", "0")
		default:
			w.Header().Set("Grpc-Status", a.grpcStatus)
		}
	})
	srv := &http2.Server{}
	return protocoltest.Peer(t, func(c net.Conn) { srv.ServeConn(c, &http2.ServeConnOpts{Handler: h}) })
}

// h2Fake serves HTTP/2 in plain text (x/net's HTTP/2 server, h2c with prior
// knowledge) without gRPC: every call gets the scripted answer, with contentType
// unless the answer names another. A cut answer ends after the first cut bytes of
// its body, as a complete answer.
func h2Fake(t *testing.T, contentType string, s script) transport.Addr {
	var calls atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		a := s(int(calls.Add(1) - 1))
		ct := contentType
		if a.ctype != "" {
			ct = a.ctype
		}
		w.Header().Set("Content-Type", ct)
		if a.status == 0 {
			a.status = 200
		}
		w.WriteHeader(a.status)
		body := a.body
		if a.cut > 0 {
			body = body[:a.cut]
		}
		w.Write(body)
		if a.reset {
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the server resets the stream
		}
	})
	srv := &http2.Server{}
	return protocoltest.Peer(t, func(c net.Conn) { srv.ServeConn(c, &http2.ServeConnOpts{Handler: h}) })
}

func instrumentClient(t *testing.T, proto, stack string, addr transport.Addr) protocol.Client {
	s, err := protocol.LookupStack(proto, stack, protocol.ClientSide)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := s.Dial(ctxT(t), protocol.ClientConfig{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// getPerson1 is the person.get workload's op for person 1 (sequence number 0): the
// client's answer and then the workload's check.
func getPerson1(ctx context.Context, cl protocol.Client) error {
	w, _ := contract.LookupWorkload("person.get")
	op, _ := w.New(w.Defaults, testData)
	return op(ctx, cl, 0)
}

// How a fake protocol frames its calls.
const (
	http1 = iota // HTTP/1.1
	h2           // HTTP/2, no gRPC (http-json over HTTP/2, Connect)
	grpc         // gRPC over HTTP/2
)

// wrongAnswers are the answers to GetPerson(1) that must fail, for a protocol whose
// right answer (a person's body) is encoded by body and whose calls are framed as
// framing says.
func wrongAnswers(body func(id int64) []byte, framing int) map[string]answer {
	right := body(1)
	m := map[string]answer{
		"wrong body":                {body: body(2)},
		"wrong status, right body":  {status: 500, body: right},
		"truncated":                 {body: right, cut: len(right) / 2},
		"answer to another request": {body: body(3)},
	}
	switch framing {
	case h2:
		m["not found, right body"] = answer{status: 404, body: right}
		m["reset"] = answer{body: right, reset: true}
		m["wrong content-type"] = answer{body: right, ctype: "text/plain"}
	case grpc:
		m["wrong status, right body"] = answer{body: right, grpcStatus: "13"}
		m["HTTP 503"] = answer{status: 503, body: right}
		m["no trailers"] = answer{body: right, noTrailers: true}
		m["reset"] = answer{body: right, reset: true}
		m["unknown grpc-status"] = answer{body: right, grpcStatus: "two"}
	default:
		m["not found, right body"] = answer{status: 404, body: right}
	}
	return m
}

type fakeProtocol struct {
	name    string
	stack   string // the instrument's stack of the protocol
	body    func(id int64) []byte
	framing int
	fake    func(t *testing.T, s script) transport.Addr
}

func fakes() []fakeProtocol {
	proto := func(id int64) []byte {
		p, _ := testData.Person(id)
		b, _ := new(grpcproto.WireCodec).AppendPerson(nil, &p)
		return b
	}
	avro := func(id int64) []byte {
		p, _ := testData.Person(id)
		b, _ := new(grpcavro.WireCodec).AppendPerson(nil, &p)
		return b
	}
	protoJSON := func(id int64) []byte {
		p, _ := testData.Person(id)
		b, _ := protojson.Marshal(grpcproto.ToPBPerson(&p))
		return b
	}
	h2With := func(contentType string) func(t *testing.T, s script) transport.Addr {
		return func(t *testing.T, s script) transport.Addr { return h2Fake(t, contentType, s) }
	}
	return []fakeProtocol{
		{httpjson.Name, instrument.Name, personJSON, http1, httpFake},
		{httpjson.Name, instrument.H2Name, personJSON, h2, h2With("application/json")},
		{connectproto.ConnectProto, instrument.Name, proto, h2, h2With("application/proto")},
		{connectproto.ConnectJSON, instrument.Name, protoJSON, h2, h2With("application/json")},
		{grpcproto.Name, instrument.Name, proto, grpc, func(t *testing.T, s script) transport.Addr { return grpcFake(t, "application/grpc", s) }},
		{grpcavro.Name, instrument.Name, avro, grpc, func(t *testing.T, s script) transport.Addr { return grpcFake(t, "application/grpc+avro", s) }},
	}
}

// TestWrongAnswersFail: each wrong answer fails, as the first answer to a request
// (decoded) and after right answers to the same request were remembered (met on the
// hash path); right answers pass before and after.
func TestWrongAnswersFail(t *testing.T) {
	for _, fp := range fakes() {
		for name, bad := range wrongAnswers(fp.body, fp.framing) {
			right := answer{body: fp.body(1)}
			t.Run(fp.name+"/"+fp.stack+"/"+name+"/first", func(t *testing.T) {
				cl := instrumentClient(t, fp.name, fp.stack, fp.fake(t, func(n int) answer {
					if n == 0 {
						return bad
					}
					return right
				}))
				if err := getPerson1(ctxT(t), cl); err == nil {
					t.Fatal("the wrong answer passed")
				} else {
					checkKind(t, name, err)
				}
				if err := getPerson1(ctxT(t), cl); err != nil {
					t.Errorf("a right answer after the wrong one: %v", err)
				}
			})
			t.Run(fp.name+"/"+fp.stack+"/"+name+"/remembered", func(t *testing.T) {
				cl := instrumentClient(t, fp.name, fp.stack, fp.fake(t, func(n int) answer {
					if n == 2 {
						return bad
					}
					if n == 1 && name == "answer to another request" {
						// person 3's right answer, remembered for its own request.
						return answer{body: fp.body(3)}
					}
					return right
				}))
				for i := range 4 {
					var err error
					if i == 1 && name == "answer to another request" {
						var p contract.Person
						if p, err = cl.GetPerson(ctxT(t), 3); err == nil && p.ID != 3 {
							err = fmt.Errorf("GetPerson(3) = %d", p.ID)
						}
					} else {
						err = getPerson1(ctxT(t), cl)
					}
					switch {
					case i == 2 && err == nil:
						t.Fatal("the wrong answer passed after right ones were remembered")
					case i == 2:
						checkKind(t, name, err)
					case err != nil:
						t.Errorf("right answer %d: %v", i, err)
					}
				}
			})
		}
	}
}

// TestHTTP1ServerNamed: each HTTP/2 client of the instrument, pointed at a server
// that answers in HTTP/1, fails saying so, and names no protocol it is not speaking.
func TestHTTP1ServerNamed(t *testing.T) {
	for _, fp := range fakes() {
		if fp.framing == http1 {
			continue
		}
		t.Run(fp.name+"/"+fp.stack, func(t *testing.T) {
			addr := protocoltest.HTTPPeer(t)
			s, err := protocol.LookupStack(fp.name, fp.stack, protocol.ClientSide)
			if err != nil {
				t.Fatal(err)
			}
			cl, err := s.Dial(ctxT(t), protocol.ClientConfig{Address: addr})
			if err == nil {
				err = getPerson1(ctxT(t), cl)
				cl.Close()
			}
			if err == nil {
				t.Fatal("a call to an HTTP/1 server passed")
			}
			if msg := err.Error(); !strings.Contains(msg, "speaks HTTP/1, not HTTP/2") {
				t.Errorf("error %q does not say the server speaks HTTP/1", msg)
			} else if fp.framing != grpc && strings.Contains(msg, "gRPC") {
				t.Errorf("error %q names gRPC for %s", msg, fp.name)
			}
		})
	}
}

// checkKind checks that a wrong body is caught by the workload's check, and anything
// else by the client.
func checkKind(t *testing.T, name string, err error) {
	t.Helper()
	wrong := errors.Is(err, contract.ErrWrongAnswer)
	if body := name == "wrong body" || name == "answer to another request"; body != wrong {
		t.Errorf("error %q: wrong answer %v, want %v", err, wrong, body)
	}
	if strings.Contains(err.Error(), "deadline exceeded") {
		t.Errorf("error %q: the client waited for its deadline instead of seeing the answer was wrong", err)
	}
}

// The instrument's calls must allocate nothing once their answers are remembered. The
// servers run in a child process (this test binary, re-executed by
// protocoltest.ChildServer), so that the allocations counted are the client's alone.

func TestMain(m *testing.M) {
	protocoltest.ServeChild()
	os.Exit(m.Run())
}

// countedClient is an instrument client whose bytes are counted, as the engine's are.
func countedClient(t testing.TB, name, stack string, addr transport.Addr) protocol.Client {
	s, err := protocol.LookupStack(name, stack, protocol.ClientSide)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, err := s.NewClient(ctx, protocol.ClientConfig{Address: addr, Dial: transport.Dialer(addr, new(transport.Counter))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// TestRememberedCallsAllocateNothing: the workloads whose answers repeat make no
// allocation per call once each answer was decoded, with a cancellable context as
// the engine's callers have, on each protocol but connect-json.
func TestRememberedCallsAllocateNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	for _, c := range []struct{ name, stack string }{
		{httpjson.Name, instrument.Name}, {httpjson.Name, instrument.H2Name},
		{grpcproto.Name, instrument.Name}, {grpcavro.Name, instrument.Name},
		// connect-json is not here: its requests are encoded with protojson, as
		// connect-go's client encodes them, which allocates (6 times per call of
		// person.get here).
		{connectproto.ConnectProto, instrument.Name},
	} {
		name := c.name
		t.Run(name+"/"+c.stack, func(t *testing.T) {
			cl := countedClient(t, name, c.stack, protocoltest.ChildServer(t, name, ""))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for _, wl := range []string{"person.get", "person.links", "person.list", "echo"} {
				w, _ := contract.LookupWorkload(wl)
				op, _ := w.New(w.Defaults, testData)
				seq := uint64(0)
				call := func() {
					if err := op(ctx, cl, seq); err != nil {
						t.Fatalf("%s: %v", wl, err)
					}
					seq++
				}
				for range 2 * testData.Size() { // every answer decoded once
					call()
				}
				if n := testing.AllocsPerRun(500, call); n != 0 {
					t.Errorf("%s: %v allocations per op, want 0", wl, n)
				}
			}
		})
	}
}

// BenchmarkGetPerson measures person.get ops with 16 in flight against a server in a
// child process; the CPU time of this process is the client's (client-cpu-us/op).
func BenchmarkGetPerson(b *testing.B) {
	for _, name := range []string{httpjson.Name, grpcproto.Name, grpcavro.Name} {
		b.Run(name, func(b *testing.B) {
			const inflight = 16
			cl := countedClient(b, name, instrument.Name, protocoltest.ChildServer(b, name, ""))
			w, _ := contract.LookupWorkload("person.get")
			op, _ := w.New(w.Defaults, testData)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			b.SetParallelism((inflight + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			self, err := sysstat.Self()
			if err != nil {
				b.Skip(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			s0, _ := self.Read()
			b.RunParallel(func(pb *testing.PB) {
				for seq := uint64(0); pb.Next(); seq++ {
					if err := op(ctx, cl, seq); err != nil {
						b.Error(err)
						return
					}
				}
			})
			s1, _ := self.Read()
			b.ReportMetric(float64((s1.CPU-s0.CPU).Nanoseconds())/1e3/float64(b.N), "client-cpu-us/op")
		})
	}
}
