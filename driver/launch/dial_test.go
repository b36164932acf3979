package launch_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/workers/go"
)

// syncBuffer is a log written by the server's goroutines and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveWorker serves a worker's control API on loopback with opts and returns its URL.
func serveWorker(t *testing.T, opts ...grpc.ServerOption) string {
	t.Helper()
	w, err := worker.New("test")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(opts...)
	w.Register(s)
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	return "tcp://" + ln.Addr().String()
}

func writeToken(t *testing.T, tok string) string {
	f := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(f, []byte(tok+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// A worker with a token refuses calls without it or with another one, unary and
// streaming alike, logs who and what without the token, and serves the right one.
func TestTokenAuth(t *testing.T) {
	const secret = "s3cret-token-0123456789"
	log := &syncBuffer{}
	url := serveWorker(t, control.ServerAuth{Token: []byte(secret), Log: log}.Options()...)
	ctx := context.Background()
	for _, tc := range []struct{ name, token string }{{"no token", ""}, {"a wrong token", "wrong-token-0123456789"}, {"a prefix", secret[:16]}} {
		auth := spec.ClientAuth{}
		if tc.token != "" {
			auth.TokenFile = writeToken(t, tc.token)
		}
		_, _, err := launch.Dial(ctx, "server worker", url, auth)
		if err == nil || !strings.Contains(err.Error(), "refused the driver") || !strings.Contains(err.Error(), url) {
			t.Errorf("%s: Info answered %v; want a refusal naming the worker", tc.name, err)
		}
		// The driver is told which mistake it made: no token, or another token.
		why := "wants a token"
		if tc.token != "" {
			why = "not the one the driver sent"
		}
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: Info answered %v; want it to say %q", tc.name, err, why)
		}
		opts, _ := control.DialOptions(auth)
		conn, _ := grpc.NewClient("passthrough:///"+strings.TrimPrefix(url, "tcp://"), opts...)
		stream, err := controlpb.NewWorkerClient(conn).RunServer(ctx)
		if err == nil {
			_, err = stream.Recv()
		}
		if status.Code(err) != codes.Unauthenticated {
			t.Errorf("%s: RunServer gave %v; want Unauthenticated", tc.name, err)
		}
		conn.Close()
	}
	w, info, err := launch.Dial(ctx, "server worker", url, spec.ClientAuth{TokenFile: writeToken(t, secret)})
	if err != nil {
		t.Fatalf("the right token: %v", err)
	}
	w.Close()
	if info.GetPid() == 0 {
		t.Error("Info with the right token answered no pid")
	}
	logged := log.String()
	if strings.Count(logged, "refused") != 6 || !strings.Contains(logged, "/wirebench.control.v1.Worker/Info from 127.0.0.1:") ||
		!strings.Contains(logged, "/wirebench.control.v1.Worker/RunServer") || !strings.Contains(logged, "a wrong token") {
		t.Errorf("log:\n%s\nwant 6 refusals with method and peer", logged)
	}
	if strings.Contains(logged, secret[:8]) || strings.Contains(logged, "wrong-token") {
		t.Errorf("the log shows a token:\n%s", logged)
	}
}

// Mutual TLS: a driver with a certificate the worker's client CA signed is served;
// one without a certificate, or trusting another CA, is not.
func TestMutualTLS(t *testing.T) {
	dir := t.TempDir()
	ca, caKey := newCA(t, dir, "ca")
	newCert(t, dir, "worker", ca, caKey, false)
	newCert(t, dir, "driver", ca, caKey, true)
	other, otherKey := newCA(t, dir, "other-ca")
	newCert(t, dir, "stranger", other, otherKey, true)
	creds, err := control.ServerTLS(filepath.Join(dir, "worker.pem"), filepath.Join(dir, "worker.key"), filepath.Join(dir, "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	url := serveWorker(t, grpc.Creds(creds))
	ctx := context.Background()
	good := spec.ClientAuth{CAFile: filepath.Join(dir, "ca.pem"), CertFile: filepath.Join(dir, "driver.pem"), KeyFile: filepath.Join(dir, "driver.key")}
	w, _, err := launch.Dial(ctx, "client worker", url, good)
	if err != nil {
		t.Fatalf("a driver with a signed certificate: %v", err)
	}
	w.Close()
	for name, auth := range map[string]spec.ClientAuth{
		"no certificate":      {CAFile: good.CAFile},
		"another CA's driver": {CAFile: good.CAFile, CertFile: filepath.Join(dir, "stranger.pem"), KeyFile: filepath.Join(dir, "stranger.key")},
		"plain text":          {},
	} {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if _, _, err := launch.Dial(cctx, "client worker", url, auth); err == nil {
			t.Errorf("%s: served; want refused", name)
		}
		cancel()
	}
	if err := (spec.ClientAuth{CertFile: "x.pem"}).Check(); err == nil {
		t.Error("a certificate without its key was accepted")
	}
}

func newCA(t *testing.T, dir, name string) (*x509.Certificate, *ecdsa.PrivateKey) {
	return writeCert(t, dir, name, &x509.Certificate{Subject: pkix.Name{CommonName: name}, IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}, nil, nil)
}

func newCert(t *testing.T, dir, name string, ca *x509.Certificate, caKey *ecdsa.PrivateKey, client bool) {
	tmpl := &x509.Certificate{Subject: pkix.Name{CommonName: name}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	if client {
		tmpl.ExtKeyUsage, tmpl.IPAddresses = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, nil
	}
	writeCert(t, dir, name, tmpl, ca, caKey)
}

// writeCert signs tmpl with parent's key (itself when parent is nil) and writes
// NAME.pem and NAME.key into dir.
func writeCert(t *testing.T, dir, name string, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl.SerialNumber = big.NewInt(time.Now().UnixNano())
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, name+".pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(filepath.Join(dir, name+".key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}
