package driver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/host"
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
)

// CheckHosts validates h (spec.Hosts.Validate) and that this machine can do what it
// asks.
func CheckHosts(h spec.Hosts) error {
	if err := h.Validate(); err != nil {
		return err
	}
	if h.ServerListenHost != "" && net.ParseIP(h.ServerListenHost) == nil {
		if _, err := net.LookupHost(h.ServerListenHost); err != nil {
			return fmt.Errorf("server listen host %q: %v", h.ServerListenHost, err)
		}
	}
	if h.Netns {
		if err := nspair.Available(); err != nil {
			return fmt.Errorf("network namespaces: %w", err)
		}
	}
	return nil
}

// checkSpec says what in s cannot run on h.
func checkSpec(h spec.Hosts, r control.Resolved) error {
	s := r.Spec
	switch {
	case s.Transport == spec.Unix && (h.Remote() || h.Netns):
		return errors.New("a unix socket does not cross hosts or namespaces: use tcp with remote workers or --netns")
	case s.Transport == spec.Unix && !h.Link.IsZero():
		return errors.New("a link is a TCP proxy or a veth: use tcp with --link")
	case s.Transport == spec.QUIC && linkSetup(h, r) != nil:
		return errors.New("a link's delay (and its rate without --netns) is a TCP proxy, which QUIC's UDP does not pass through: use --netns with a rate or loss alone (the veth's qdisc shapes UDP too)")
	case s.Address != "" && (h.Server != "" || h.Netns):
		return errors.New("an outside server has no server worker: drop --server-worker and --netns")
	}
	return nil
}

// serverListen is the address the benchmark server of r listens on.
func serverListen(h spec.Hosts, r control.Resolved, pair *nspair.Pair, unixPath string) (string, error) {
	if r.Spec.Transport == spec.Unix {
		return "unix://" + unixPath, nil
	}
	host := h.ServerListenHost
	switch {
	case host != "":
	case pair != nil:
		host = pair.A.Addr.String()
	case h.Server != "":
		a, _ := transport.Parse(h.Server)
		if a.Network != "tcp" {
			return "", errors.New("a server worker reached over a unix socket is on this host: its clients reach it at 127.0.0.1, or set --server-listen-host")
		}
		host, _, _ = net.SplitHostPort(a.Address)
	case len(h.Clients) > 0:
		return "", errors.New("remote client workers cannot reach a server on this host's loopback: set --server-listen-host to an address of this host they can reach")
	default:
		host = "127.0.0.1"
	}
	scheme := "tcp://"
	if r.Spec.Transport == spec.QUIC {
		scheme = "udp://"
	}
	return scheme + net.JoinHostPort(host, "0"), nil
}

// linkSetup is what a client worker is told of the link (nil for none): the proxy's
// part, without what the kernel does on a veth.
func linkSetup(h spec.Hosts, r control.Resolved) *controlpb.LinkProfile {
	if r.Protocol.InProcess || h.Link.IsZero() {
		return nil
	}
	m := &controlpb.LinkProfile{DelayNanos: int64(h.Link.Delay), JitterNanos: int64(h.Link.Jitter)}
	if !h.Netns {
		m.RateBitsPerSecond = h.Link.RateBits
	}
	if m.DelayNanos == 0 && m.JitterNanos == 0 && m.RateBitsPerSecond == 0 {
		return nil
	}
	return m
}

// Describe returns the hosts of a run's workers for its results: for a remote worker
// what its Info says, with the round-trip time of a control call from here; for a
// spawned one this host, pinned to serverCPUs or clientCPUs. It dials every remote
// worker, so a wrong address or token fails before anything runs.
func Describe(ctx context.Context, h spec.Hosts, serverCPUs, clientCPUs []int) ([]results.WorkerHost, error) {
	if err := CheckHosts(h); err != nil {
		return nil, err
	}
	here := localHost()
	var out []results.WorkerHost
	add := func(role, worker, url string, cpus []int, netns string) error {
		if url == "" {
			wh := here
			wh.Role, wh.CPUs, wh.Netns = role, cpuset.FormatCPUList(cpus), netns
			out = append(out, wh)
			return nil
		}
		w, info, err := launch.Dial(ctx, worker, url, h.Auth)
		if err != nil {
			return err
		}
		defer w.Close()
		wh := hostOfInfo(info)
		wh.Role, wh.URL = role, url
		var rtts []time.Duration
		for range 5 {
			start := time.Now()
			if _, err := w.Client.Info(ctx, &controlpb.InfoRequest{}); err != nil {
				return w.Explain(err)
			}
			rtts = append(rtts, time.Since(start))
		}
		slices.Sort(rtts)
		wh.ControlRTTUs = float64(rtts[len(rtts)/2].Nanoseconds()) / 1e3
		out = append(out, wh)
		return nil
	}
	srvNS, cliNS := "", ""
	if h.Netns {
		srvNS, cliNS = "the server's namespace", "the clients' namespace"
	}
	if err := add("server", "server worker", h.Server, serverCPUs, srvNS); err != nil {
		return nil, err
	}
	for i := range h.ClientCount() {
		url := ""
		if len(h.Clients) > 0 {
			url = h.Clients[i]
		}
		n := h.ClientCount()
		if err := add(clientRole(i, n, "client"), clientRole(i, n, "client worker"), url, clientCPUs, cliNS); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// clientRole names client worker i of n: "client worker", or "client worker 2".
func clientRole(i, n int, base string) string {
	if n == 1 {
		return base
	}
	return fmt.Sprintf("%s %d", base, i+1)
}

func localHost() results.WorkerHost {
	h := host.ReadHost()
	name, _ := os.Hostname()
	return results.WorkerHost{Hostname: name, CPUModel: h.CPUModel, Cores: h.Cores, MemoryBytes: h.MemoryBytes,
		Kernel: h.Kernel, OS: h.OS, Runtime: runtime.Version()}
}

func hostOfInfo(info *controlpb.InfoReply) results.WorkerHost {
	h := info.GetHost()
	return results.WorkerHost{Hostname: h.GetHostname(), CPUModel: h.GetCpuModel(), Cores: int(h.GetCores()),
		MemoryBytes: h.GetMemoryBytes(), Kernel: h.GetKernel(), OS: h.GetOs(), CPUs: h.GetCpus(),
		Runtime: info.GetRuntime(), Version: info.GetVersion()}
}

// LinkOf describes h's link for results (nil without one): the profile and what
// made each part of it.
func LinkOf(h spec.Hosts) *results.Link {
	if h.Link.IsZero() && !h.Netns {
		return nil
	}
	l := &results.Link{Profile: h.Link.String(), DelayUs: float64(h.Link.Delay.Nanoseconds()) / 1e3,
		JitterUs: float64(h.Link.Jitter.Nanoseconds()) / 1e3, RateBitsPerSecond: h.Link.RateBits, LossPercent: h.Link.Loss * 100}
	l.Between = "loopback"
	switch {
	case h.Netns:
		l.Between = "two network namespaces joined by a veth pair"
	case h.Remote():
		l.Between = "the network between the hosts"
	}
	if h.Link.NeedsProxy() {
		l.Made = append(l.Made, "delay: toxiproxy in a link process beside each client worker, in each direction")
	}
	switch {
	case h.Link.RateBits > 0 && h.Netns:
		l.Made = append(l.Made, "rate: tbf on each end of the veth (shared by every connection)")
	case h.Link.RateBits > 0:
		l.Made = append(l.Made, "rate: toxiproxy bandwidth toxic, per connection and direction")
	}
	if h.Link.Loss > 0 {
		l.Made = append(l.Made, "loss: iptables statistic drop at each end of the veth")
	}
	return l
}
