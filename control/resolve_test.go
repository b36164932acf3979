package control

import (
	_ "github.com/wirebench/wirebench/stack/all"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/spec"
)

// A benchmark over TLS needs stacks that speak it on the sides it starts.
func TestResolveTLS(t *testing.T) {
	s := spec.Default()
	s.Protocol, s.Transport = "grpc-proto", spec.TLS
	if _, err := Resolve(s); err != nil {
		t.Errorf("grpc-proto over TLS: %v", err)
	}
	s.ServerStack = "grpc-java-netty"
	if _, err := Resolve(s); err != nil {
		t.Errorf("a JVM server that speaks TLS, over TLS: %v", err)
	}
	// The originals' Scala 2.12 stacks serve plain text only; grpc-java-okhttp's client
	// speaks TLS and its server does not.
	for _, server := range []string{"akka-grpc-0.4", "grpc-java-okhttp"} {
		s.ServerStack = server
		if _, err := Resolve(s); err == nil || !strings.Contains(err.Error(), "the "+server+" server stack of grpc-proto does not speak TLS") {
			t.Errorf("the %s server over TLS: %v, want refused by name", server, err)
		}
	}
	s.ServerStack, s.ClientStack = "", "grpc-java-okhttp"
	if _, err := Resolve(s); err != nil {
		t.Errorf("the grpc-java-okhttp client over TLS: %v", err)
	}
	s.ClientStack = ""
	s.ServerStack, s.Address = "", "unix:///tmp/x.sock"
	if _, err := Resolve(s); err == nil || !strings.Contains(err.Error(), "TLS is for TCP") {
		t.Errorf("a unix target over TLS: %v, want refused", err)
	}
	s.Address = "tcp://127.0.0.1:9"
	if r, err := Resolve(s); err != nil || r.Spec.Transport != spec.TLS {
		t.Errorf("a tcp target over TLS: transport %q, %v; want tls", r.Spec.Transport, err)
	}
}

// HTTP/3 stacks run over the quic transport and nothing else, and quic carries
// nothing else; a udp target is QUIC's.
func TestResolveQUIC(t *testing.T) {
	s := spec.Default()
	s.Protocol, s.Transport = "http-json", spec.QUIC
	s.ServerStack, s.ClientStack = "go-quicgo-json-h3", "go-quicgo-json-h3"
	if _, err := Resolve(s); err != nil {
		t.Errorf("the HTTP/3 stacks over quic: %v", err)
	}
	for _, c := range []struct {
		name           string
		server, client string
		transport      string
		want           string
	}{
		{"HTTP/3 over tcp", "go-quicgo-json-h3", "go-quicgo-json-h3", spec.TCP, "over QUIC only: use the quic transport"},
		{"HTTP/3 over tls", "go-quicgo-json-h3", "go-quicgo-json-h3", spec.TLS, "over QUIC only"},
		{"an HTTP/1.1 client over quic", "go-quicgo-json-h3", "go-nethttp-json", spec.QUIC, "go-nethttp-json client stack"},
		{"an HTTP/1.1 server over quic", "go-nethttp-json", "go-quicgo-json-h3", spec.QUIC, "http-json's HTTP/3 stacks: go-quicgo-json-h3"},
	} {
		s := s
		s.ServerStack, s.ClientStack, s.Transport = c.server, c.client, c.transport
		if _, err := Resolve(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
	g := spec.Default()
	g.Protocol, g.Transport = "grpc-proto", spec.QUIC
	if _, err := Resolve(g); err == nil || !strings.Contains(err.Error(), "grpc-proto has no HTTP/3 stack") {
		t.Errorf("grpc-proto over quic: %v, want refused", err)
	}
	s.Address = "udp://127.0.0.1:9"
	s.Transport = spec.TCP // the address says
	if r, err := Resolve(s); err != nil || r.Spec.Transport != spec.QUIC {
		t.Errorf("a udp target: transport %q, %v; want quic", r.Spec.Transport, err)
	}
	s.Transport, s.Address = spec.QUIC, "tcp://127.0.0.1:9"
	if _, err := Resolve(s); err == nil || !strings.Contains(err.Error(), "udp://HOST:PORT") {
		t.Errorf("a tcp target over quic: %v, want refused", err)
	}
}

// A stream of the original's trade needs stacks that carry it on the sides it
// starts; the others are refused by name, never run with the compact trade.
func TestResolveTradeShape(t *testing.T) {
	s := spec.Default()
	s.Protocol, s.Workload, s.Params = "grpc-proto", "stream", contract.Params{Trades: 10, Trade: contract.TradeOriginal}
	if _, err := Resolve(s); err != nil {
		t.Errorf("grpc-go, trade: original: %v", err)
	}
	s.Protocol = "connect-proto"
	if _, err := Resolve(s); err == nil || !strings.Contains(err.Error(), "the connect-go client stack of connect-proto does not carry the original trade shape (trade: original)") {
		t.Errorf("connect-go, trade: original: %v, want refused by name", err)
	}
	// A JVM stack that carries it (its announcement says so), and one that does not:
	// refused here, before a JVM starts.
	s.Protocol, s.ServerStack = "grpc-proto", "grpc-java-netty"
	if _, err := Resolve(s); err != nil {
		t.Errorf("a grpc-java-netty server, trade: original: %v", err)
	}
	s.ServerStack = "akka-grpc-0.4"
	if _, err := Resolve(s); err == nil || !strings.Contains(err.Error(), "the akka-grpc-0.4 server stack of grpc-proto does not carry the original trade shape") {
		t.Errorf("an akka-grpc-0.4 server, trade: original: %v, want refused by name", err)
	}
	s.Protocol, s.ServerStack = "http-json", "go-fasthttp-easyjson"
	if _, err := Resolve(s); err == nil || !strings.Contains(err.Error(), "the go-fasthttp-easyjson server stack of http-json does not carry the original trade shape") {
		t.Errorf("a go-fasthttp-easyjson server, trade: original: %v, want refused by name", err)
	}
	// An outside target's server is not wirebench's to judge.
	s.ServerStack, s.Address = "", "tcp://127.0.0.1:9"
	if _, err := Resolve(s); err != nil {
		t.Errorf("an outside target, trade: original: %v", err)
	}
	s.Address, s.Params.Trade = "", contract.TradeCompact
	s.Protocol, s.ServerStack = "connect-proto", ""
	if _, err := Resolve(s); err != nil {
		t.Errorf("connect-go, trade: compact: %v", err)
	}
}
