package control

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
)

// A worker that listens where others can reach it is the remote control of a
// process that starts servers and load generators: it takes a token, mutual TLS, or
// both. The token travels as gRPC metadata "authorization: Bearer TOKEN" on every
// call; without TLS it crosses the network in clear, so TLS is the choice on a
// network that is not trusted.

// MinTokenLen is the shortest token a worker accepts (`openssl rand -hex 32` gives 64).
const MinTokenLen = 16

// ReadToken reads a token file: its content without surrounding white space.
func ReadToken(file string) ([]byte, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	tok := []byte(strings.TrimSpace(string(b)))
	if len(tok) < MinTokenLen {
		return nil, fmt.Errorf("token file %s: the token has %d characters, want at least %d (e.g. openssl rand -hex 32 > %s)", file, len(tok), MinTokenLen, file)
	}
	return tok, nil
}

// NeedsAuth reports whether a worker listening on addr can be reached from other
// hosts: anything but a Unix socket or a loopback address. A host name other than
// localhost counts as reachable: what it resolves to is not known here for sure.
func NeedsAuth(addr transport.Addr) bool {
	if addr.Network == "unix" {
		return false
	}
	host, _, err := net.SplitHostPort(addr.Address)
	if err != nil {
		return true
	}
	if host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

// ServerAuth is a worker's guard: the token it wants (nil: none) and a log of
// refused calls (nil: none). Calls without the token are refused with
// Unauthenticated and logged with the peer's address and the method, never with
// what the peer sent.
type ServerAuth struct {
	Token []byte
	Log   io.Writer
}

// Options returns the server options that enforce a: a unary and a stream
// interceptor (none without a token).
func (a ServerAuth) Options() []grpc.ServerOption {
	if len(a.Token) == 0 {
		return nil
	}
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			if err := a.check(ctx, info.FullMethod); err != nil {
				return nil, err
			}
			return h(ctx, req)
		}),
		grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
			if err := a.check(ss.Context(), info.FullMethod); err != nil {
				return err
			}
			return h(srv, ss)
		}),
	}
}

const bearer = "Bearer "

func (a ServerAuth) check(ctx context.Context, method string) error {
	var got []byte
	md, _ := metadata.FromIncomingContext(ctx)
	vals := md.Get("authorization")
	if len(vals) == 1 && strings.HasPrefix(vals[0], bearer) {
		got = []byte(vals[0][len(bearer):])
	}
	// ConstantTimeCompare returns at once on a length mismatch, which tells a
	// guesser the length only; the content is compared in constant time.
	if subtle.ConstantTimeCompare(got, a.Token) == 1 {
		return nil
	}
	reason, told := "no token", "this worker wants a token (--token-file on the driver)"
	if len(vals) > 0 {
		reason, told = "a wrong token", "this worker's token is not the one the driver sent (--token-file names a file of another token)"
	}
	if a.Log != nil {
		from := "unknown peer"
		if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
			from = p.Addr.String()
		}
		fmt.Fprintf(a.Log, "wirebench worker: refused %s from %s: %s\n", method, from, reason)
	}
	return status.Error(codes.Unauthenticated, told)
}

// ServerTLS returns the transport credentials of a worker with mutual TLS: its
// certificate and key, and the CA that signs the drivers' certificates (every
// driver must present one).
func ServerTLS(certFile, keyFile, clientCAFile string) (credentials.TransportCredentials, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate: %w", err)
	}
	pool, err := certPool(clientCAFile)
	if err != nil {
		return nil, err
	}
	return credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}, ClientCAs: pool,
		ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS13}), nil
}

func certPool(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("TLS CA: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("TLS CA %s: no PEM certificate in it", file)
	}
	return pool, nil
}

// DialOptions are the options of a control connection to a remote worker.
func DialOptions(a spec.ClientAuth) ([]grpc.DialOption, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	var opts []grpc.DialOption
	if a.TLS() {
		pool, err := certPool(a.CAFile)
		if err != nil {
			return nil, err
		}
		cfg := &tls.Config{RootCAs: pool, ServerName: a.ServerName, MinVersion: tls.VersionTLS13}
		if a.CertFile != "" {
			cert, err := tls.LoadX509KeyPair(a.CertFile, a.KeyFile)
			if err != nil {
				return nil, fmt.Errorf("TLS certificate: %w", err)
			}
			cfg.Certificates = []tls.Certificate{cert}
		}
		opts = append(opts, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	} else {
		opts = append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))
	}
	if a.TokenFile != "" {
		tok, err := ReadToken(a.TokenFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, grpc.WithPerRPCCredentials(tokenCreds{tok: string(tok), secure: a.TLS()}))
	}
	return opts, nil
}

// tokenCreds sends the token with every call. It does not insist on TLS: a token
// over a trusted network (or a veth) is the point of the plain mode.
type tokenCreds struct {
	tok    string
	secure bool
}

func (t tokenCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": bearer + t.tok}, nil
}

func (t tokenCreds) RequireTransportSecurity() bool { return t.secure }
