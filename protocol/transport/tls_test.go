package transport_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/protocol/transport"
)

func TestEphemeralTLSCertificate(t *testing.T) {
	tc, err := transport.EphemeralTLS("bench.example", "10.1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(tc.CertPEM)
	leaf, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(tc.CAPEM)
	// The names a loopback or remote server is reached by verify; another does not.
	for _, name := range []string{"localhost", "127.0.0.1", "::1", "bench.example", "10.1.2.3"} {
		if _, err := leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: pool}); err != nil {
			t.Errorf("certificate for %s: %v", name, err)
		}
	}
	if _, err := leaf.Verify(x509.VerifyOptions{DNSName: "other.example", Roots: pool}); err == nil {
		t.Error("the certificate verified for other.example")
	}
}

// serve accepts one TLS connection with cfg and completes its handshake.
func serve(t *testing.T, cfg *tls.Config) transport.Addr {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		tls.Server(c, cfg).Handshake()
	}()
	return transport.AddrOf(ln.Addr())
}

func TestTLSDialer(t *testing.T) {
	tc, err := transport.EphemeralTLS()
	if err != nil {
		t.Fatal(err)
	}
	scfg, err := tc.ServerConfig("h2")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	addr := serve(t, scfg)
	ccfg, err := tc.ClientConfig("h2")
	if err != nil {
		t.Fatal(err)
	}
	c, err := transport.TLSDialer(transport.Dialer(addr, nil), addr, ccfg)(ctx)
	if err != nil {
		t.Fatalf("TLS dial: %v", err)
	}
	st := c.(*tls.Conn).ConnectionState()
	if !st.HandshakeComplete || st.Version != tls.VersionTLS13 || st.NegotiatedProtocol != "h2" {
		t.Errorf("connection state: handshake %v, version %x, ALPN %q; want done, TLS 1.3, h2", st.HandshakeComplete, st.Version, st.NegotiatedProtocol)
	}
	c.Close()

	// A client offering only a protocol the server does not speak is refused in the
	// handshake (crypto/tls lets an offer of http/1.1 alone through, for old clients).
	addr = serve(t, scfg)
	ccfg, _ = tc.ClientConfig("capnp")
	if _, err := transport.TLSDialer(transport.Dialer(addr, nil), addr, ccfg)(ctx); err == nil || !strings.Contains(err.Error(), "TLS handshake") {
		t.Errorf("ALPN mismatch: %v, want a failed TLS handshake", err)
	}
}

func TestLoadTLS(t *testing.T) {
	tc, err := transport.EphemeralTLS()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cert, key, ca := write("cert.pem", tc.CertPEM), write("key.pem", tc.KeyPEM), write("ca.pem", tc.CAPEM)
	got, err := transport.LoadTLS(cert, key, ca)
	if err != nil || string(got.CertPEM) != string(tc.CertPEM) || string(got.CAPEM) != string(tc.CAPEM) {
		t.Fatalf("LoadTLS: %v", err)
	}
	other, _ := transport.EphemeralTLS()
	for _, c := range []struct{ name, cert, key, ca, want string }{
		{"cert without key", cert, "", ca, "give both"},
		{"key of another certificate", cert, write("other.pem", other.KeyPEM), "", "private key does not match"},
		{"missing file", filepath.Join(dir, "none.pem"), key, "", "no such file"},
		{"CA with no certificate", "", "", write("empty.pem", []byte("nothing")), "no PEM certificate"},
	} {
		if _, err := transport.LoadTLS(c.cert, c.key, c.ca); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}
