package spec

import (
	"errors"
	"fmt"
	"slices"

	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec/link"
)

// Hosts says where a run's workers are and what lies between them. The zero Hosts
// is a local run: one server worker and one client worker spawned here, pinned to
// the spec's CPU sets.
//
// A remote worker (a control URL) is used as it is: the driver does not start, pin
// or stop it, and opens a fresh RunServer or RunClient stream on it per fork.
// Spawned workers are started per fork, pinned, and die with the driver.
type Hosts struct {
	// Server is the control URL of a remote server worker (tcp://HOST:PORT or
	// unix:///PATH); "" spawns one here.
	Server string
	// Clients are the control URLs of remote client workers, which share the load;
	// none spawns LocalClients here (0 means 1), all pinned to the client CPUs.
	Clients      []string
	LocalClients int
	// Auth is how the driver proves itself to remote workers.
	Auth ClientAuth
	// ServerListenHost is the host the benchmark server listens on, which the
	// clients must reach. Default: the host of the server worker's URL for a remote
	// server, the namespace's address with Netns, else 127.0.0.1.
	ServerListenHost string
	// Netns spawns the server worker and the client workers in two network
	// namespaces joined by a veth pair, which carries the link (root only).
	Netns bool
	// Link is put between the clients and the server: delay and jitter by a proxy
	// beside each client, rate by tbf on the veth with Netns (else by the proxy, per
	// connection), loss by iptables on the veth (Netns only).
	Link link.Profile
}

// MaxClientWorkers bounds the client workers of a run.
const MaxClientWorkers = 256

// Remote reports whether any worker is remote.
func (h Hosts) Remote() bool { return h.Server != "" || len(h.Clients) > 0 }

// ClientCount is the number of client workers.
func (h Hosts) ClientCount() int {
	if len(h.Clients) > 0 {
		return len(h.Clients)
	}
	return max(h.LocalClients, 1)
}

// Validate checks h on its own, without looking at this machine.
func (h Hosts) Validate() error {
	for _, u := range append([]string{h.Server}, h.Clients...) {
		if u == "" {
			continue
		}
		if _, err := transport.ParseStream(u); err != nil {
			return fmt.Errorf("worker URL: %w", err)
		}
	}
	switch {
	case slices.Contains(h.Clients, ""):
		return errors.New("a client worker URL is empty")
	case len(h.Clients) > 0 && h.LocalClients > 1:
		return errors.New("give client worker URLs or a number of local client workers, not both")
	case h.LocalClients < 0 || h.ClientCount() > MaxClientWorkers:
		return fmt.Errorf("%d client workers, want 1 to %d", h.ClientCount(), MaxClientWorkers)
	case h.Netns && h.Remote():
		return errors.New("network namespaces are for workers spawned here, not remote ones")
	case h.Link.Loss > 0 && !h.Netns:
		return errors.New("link loss needs a link the kernel shapes (network namespaces, as root): a proxy over TCP sees a byte stream and cannot drop packets, and this kernel has no netem")
	}
	return h.Auth.Check()
}

// ClientAuth is how a driver proves itself to remote workers: a token file, and for
// workers with TLS, the CA that signed their certificates and the driver's own
// certificate and key (all "" for none).
type ClientAuth struct {
	TokenFile                 string
	CAFile, CertFile, KeyFile string
	// ServerName, when set, is the name the workers' certificates must carry (by
	// default the host of each worker's URL).
	ServerName string
}

// TLS reports whether the workers are reached over TLS.
func (a ClientAuth) TLS() bool { return a.CAFile != "" }

// Check says what in a cannot work together.
func (a ClientAuth) Check() error {
	if (a.CertFile == "") != (a.KeyFile == "") {
		return errors.New("TLS: give the driver's certificate and its key together")
	}
	if a.CertFile != "" && a.CAFile == "" {
		return errors.New("TLS: a client certificate needs the CA of the workers' certificates too (--tls-ca)")
	}
	if a.ServerName != "" && a.CAFile == "" {
		return errors.New("TLS: a server name needs --tls-ca")
	}
	return nil
}
