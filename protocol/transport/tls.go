package transport

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"slices"
	"time"
)

// TLS is what one benchmark's TLS needs, as PEM: the server's certificate chain and
// key, and the certificate authority clients trust. It travels from the driver to the
// workers in their setup messages; a zero TLS means plain text.
type TLS struct {
	// CertPEM is the server's certificate chain, leaf first; KeyPEM its private key.
	CertPEM, KeyPEM []byte
	// CAPEM holds the certificates clients accept a server certificate from.
	CAPEM []byte
	// ServerName is the name clients check the server's certificate against (and send
	// as SNI); empty means the host of the address dialled.
	ServerName string
}

// Enabled reports whether t asks for TLS.
func (t TLS) Enabled() bool { return len(t.CertPEM) > 0 || len(t.CAPEM) > 0 }

// EphemeralTLS makes a certificate authority and a server certificate signed by it,
// both ECDSA P-256 and valid for a day, for a server reached as localhost, 127.0.0.1,
// ::1 or any of hosts (names or IP addresses). The CA's key is dropped: nothing else
// can be signed with it, so trusting it trusts this one server certificate.
func EphemeralTLS(hosts ...string) (TLS, error) {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return TLS{}, err
	}
	ca := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: "wirebench ephemeral CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, MaxPathLenZero: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return TLS{}, err
	}
	if ca, err = x509.ParseCertificate(caDER); err != nil {
		return TLS{}, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return TLS{}, err
	}
	leaf := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: "wirebench server"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			leaf.IPAddresses = append(leaf.IPAddresses, ip)
		} else if h != "" && !slices.Contains(leaf.DNSNames, h) {
			leaf.DNSNames = append(leaf.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		return TLS{}, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return TLS{}, err
	}
	return TLS{
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
		CAPEM:   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
	}, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return n
}

// LoadTLS reads PEM files: a server's certificate chain and key (both or neither),
// and the CA clients trust (may be empty when only a server is set up). The pair is
// checked here, so a wrong file fails before any process starts.
func LoadTLS(certFile, keyFile, caFile string) (TLS, error) {
	var t TLS
	var err error
	if (certFile == "") != (keyFile == "") {
		return TLS{}, errors.New("TLS: a certificate and its key go together: give both files or neither")
	}
	if certFile != "" {
		if t.CertPEM, err = os.ReadFile(certFile); err != nil {
			return TLS{}, fmt.Errorf("TLS certificate: %w", err)
		}
		if t.KeyPEM, err = os.ReadFile(keyFile); err != nil {
			return TLS{}, fmt.Errorf("TLS key: %w", err)
		}
		if _, err := tls.X509KeyPair(t.CertPEM, t.KeyPEM); err != nil {
			return TLS{}, fmt.Errorf("TLS certificate %s and key %s: %w", certFile, keyFile, err)
		}
	}
	if caFile != "" {
		if t.CAPEM, err = os.ReadFile(caFile); err != nil {
			return TLS{}, fmt.Errorf("TLS CA: %w", err)
		}
		if !x509.NewCertPool().AppendCertsFromPEM(t.CAPEM) {
			return TLS{}, fmt.Errorf("TLS CA %s: no PEM certificate in it", caFile)
		}
	}
	return t, nil
}

// ServerConfig returns the server's TLS configuration: TLS 1.3 only, offering the
// application protocols alpn by ALPN (a client that offers ALPN and none of them is
// refused, as crypto/tls does). It fails when t has no certificate.
func (t TLS) ServerConfig(alpn ...string) (*tls.Config, error) {
	if len(t.CertPEM) == 0 {
		return nil, errors.New("TLS: the server has no certificate")
	}
	cert, err := tls.X509KeyPair(t.CertPEM, t.KeyPEM)
	if err != nil {
		return nil, fmt.Errorf("TLS server certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS13, NextProtos: alpn}, nil
}

// ClientConfig returns a client's TLS configuration: TLS 1.3 only, trusting CAPEM
// alone, offering alpn. It fails when t has no CA.
func (t TLS) ClientConfig(alpn ...string) (*tls.Config, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(t.CAPEM) {
		return nil, errors.New("TLS: the client has no CA certificate to trust")
	}
	return &tls.Config{RootCAs: pool, ServerName: t.ServerName, MinVersion: tls.VersionTLS13, NextProtos: alpn}, nil
}

// HandshakeTimeout bounds a TLS handshake, on either side, that the protocol's own
// timeouts do not.
const HandshakeTimeout = 10 * time.Second

// TLSDialer returns a DialFunc that dials with dial and makes the TLS handshake over
// the connection, within ctx (and HandshakeTimeout), before returning it: a pooled
// client thus pays the handshake when it opens a connection, never inside a call on
// an open one. cfg's ServerName, when empty, is the host of addr. When the server
// and client both offer ALPN, the connection's protocol must be one of cfg's.
func TLSDialer(dial DialFunc, addr Addr, cfg *tls.Config) DialFunc {
	cfg = cfg.Clone()
	if cfg.ServerName == "" {
		host, _, err := net.SplitHostPort(addr.Address)
		if err != nil {
			host = "localhost" // a Unix socket: the name the ephemeral certificate holds
		}
		cfg.ServerName = host
	}
	return func(ctx context.Context) (net.Conn, error) {
		raw, err := dial(ctx)
		if err != nil {
			return nil, err
		}
		hctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
		defer cancel()
		c := tls.Client(raw, cfg)
		if err := c.HandshakeContext(hctx); err != nil {
			raw.Close()
			return nil, fmt.Errorf("TLS handshake with %s: %w", addr, err)
		}
		return c, nil
	}
}
