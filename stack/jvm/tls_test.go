package jvm_test

// TLS with the JVM stacks: which sides speak it (refused by name, before anything
// starts, for those that do not), and a certificate the other side does not trust
// failing clearly, in time, both ways between Go and Java.

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/stack/jvm"
)

// TestTLSRefusedForStacksWithout: a benchmark over tls with a JVM side that speaks no
// TLS is refused by control.Resolve, naming the stack; one whose sides speak it resolves.
func TestTLSRefusedForStacksWithout(t *testing.T) {
	cases := []struct {
		proto, server, client string
		refused               string // "" when it resolves
	}{
		{"http-json", "akka-http-10.1", "", "the akka-http-10.1 server stack of http-json does not speak TLS"},
		{"http-json", "http4s-blaze", "", "the http4s-blaze server stack of http-json does not speak TLS"},
		{"grpc-proto", "akka-grpc-0.4", "", "the akka-grpc-0.4 server stack of grpc-proto does not speak TLS"},
		{"grpc-proto", "grpc-java-okhttp", "", "the grpc-java-okhttp server stack of grpc-proto does not speak TLS"},
		{"grpc-proto", "grpc-java-netty", "grpc-java-okhttp", ""},
		{"grpc-proto", "akka-grpc", "grpc-java-netty", ""},
		{"http-json", "jetty-jackson", "java-httpclient", ""},
		{"http-json", "http4s-circe", "", ""},
		{"grpc-avro", "grpc-java-avro", "grpc-java-avro", ""},
	}
	for _, c := range cases {
		s := spec.Default()
		s.Protocol, s.ServerStack, s.ClientStack, s.Transport = c.proto, c.server, c.client, spec.TLS
		_, err := control.Resolve(s)
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s %s/%s over tls: %v, want it resolved", c.proto, c.server, c.client, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s %s over tls: %v, want %q", c.proto, c.server, err, c.refused)
		}
	}
	// The TLS flags agree with the sides: a side that is not there speaks nothing.
	for _, s := range jvm.Stacks {
		for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
			if s.SpeaksTLS(side) && !s.Has(side) {
				t.Errorf("%s speaks TLS on a side it does not have", s.Name)
			}
		}
	}
}

// TestJavaTLSClientRefusesUntrustedServer: a Java client given a CA that did not sign
// the Go server's certificate fails its check, non-zero and saying why, within its
// time, and never falls back to plain text.
func TestJavaTLSClientRefusesUntrustedServer(t *testing.T) {
	jar := workerJar(t)
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, s := range jvm.Stacks {
		if !s.SpeaksTLS(protocol.ClientSide) || s.Family != "" {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			p, err := protocol.Lookup(s.Protocol)
			if err != nil {
				t.Fatal(err)
			}
			srv, err := p.NewServer(contract.NewReference(ds), protocol.ServerConfig{TLS: ephemeralTLS(t)})
			if err != nil {
				t.Fatal(err)
			}
			addr, served, err := protocol.ServeAt(srv, transport.Addr{Network: "tcp", Address: "127.0.0.1:0"})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { srv.Close(); <-served }()
			_, _, otherCA := writeTLS(t, ephemeralTLS(t)) // another run's CA
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, "java", "-jar", jar, "check", "--stack", s.Name, "--protocol", s.Protocol,
				"--address", addr.String(), "--tls-ca", otherCA).CombinedOutput()
			if ctx.Err() != nil {
				t.Fatalf("check did not end within 2 minutes:\n%s", out)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || !strings.Contains(string(out), "PKIX") {
				t.Errorf("%s trusting another CA: %v, want a failed check naming the certificate path (PKIX)\n%s", s.Name, err, out)
			}
		})
	}
}

// untrustedChecked are the JVM servers on which TestGoClientsAgainstJavaServers checks,
// over tls, that a Go client trusting another CA is refused: one per protocol whose Go
// client reports it differently.
var untrustedChecked = map[string]bool{"grpc-java-netty": true, "jetty-jackson": true}

// goClientRefusesUntrusted: a Go client trusting another CA than the JVM server's at
// addr fails, in time.
func goClientRefusesUntrusted(t *testing.T, s *protocol.Stack, addr transport.Addr) {
	cs, err := protocol.LookupStack(s.Protocol, "", protocol.ClientSide)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	other := ephemeralTLS(t)
	cl, err := cs.Dial(ctx, protocol.ClientConfig{Address: addr, TLS: transport.TLS{CAPEM: other.CAPEM}})
	if err == nil {
		defer cl.Close()
		_, err = cl.GetPerson(ctx, 1)
	}
	// grpc-go's client reports a failed connection without its TLS reason; the
	// net/http one names the certificate.
	if err == nil || (s.Protocol == "http-json" && !strings.Contains(err.Error(), "certificate")) {
		t.Errorf("the Go %s client trusting another CA: %v, want it refused (naming the certificate over http-json)", cs.Name, err)
	}
}
