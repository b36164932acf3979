package main

import (
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
)

// benchTLSFlags put TLS between the benchmark's client and server (the "tls"
// transport). The --tls-ca, --tls-cert and --tls-key of the hosts group are another
// matter: the control channel to remote workers.
type benchTLSFlags struct {
	TLS       bool   `name:"tls" help:"${help_tls}"`
	BenchCert string `name:"tls-bench-cert" help:"With --tls or --transport quic: the benchmark server's certificate chain (PEM), with --tls-bench-key and --tls-bench-ca."`
	BenchKey  string `name:"tls-bench-key" help:"With --tls or --transport quic: the key of --tls-bench-cert (PEM)."`
	BenchCA   string `name:"tls-bench-ca" help:"With --tls or --transport quic: the CA the benchmark's clients trust (PEM); needed with --address."`
}

// load returns the TLS the flags give for a benchmark over tr (its transport): files
// read and checked, or zero for certificates made per server. The quic transport
// carries TLS without --tls.
func (f benchTLSFlags) load(tr string) (transport.TLS, error) {
	given := f.BenchCert != "" || f.BenchKey != "" || f.BenchCA != ""
	switch {
	case given && tr != spec.TLS && tr != spec.QUIC:
		return transport.TLS{}, usagef("--tls-bench-cert, --tls-bench-key and --tls-bench-ca are for --tls (or --transport quic)")
	case !given:
		return transport.TLS{}, nil
	case f.BenchCert != "" && f.BenchCA == "":
		return transport.TLS{}, usagef("--tls-bench-cert: give --tls-bench-ca too, the CA its clients trust")
	}
	tc, err := transport.LoadTLS(f.BenchCert, f.BenchKey, f.BenchCA)
	if err != nil {
		return transport.TLS{}, usageError{err}
	}
	return tc, nil
}
