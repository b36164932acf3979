// Package workertest holds the interop tests every worker of another language runs
// against the Go side (stack/python, stack/node): its stacks registered as declared,
// its own list of stacks, its servers held to conform.Check through the Go clients and
// the instrument, its clients' own checks against the Go servers, outside tools, and
// the driver running its stacks against Go's in both directions. A worker is a command
// line (Worker.Command) that serves `serve`, `check` and `list` as the Rust, Python and
// Node workers do.
package workertest

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/conform"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

// Worker is a worker of another language as its tests see it.
type Worker struct {
	// Kind is its protocol.Stack.Worker; Language and Version its stacks' language and
	// the runtime release recorded among their libraries (Libraries[Language]).
	Kind, Language, Version string
	// Stacks are its registered stacks.
	Stacks []*protocol.Stack
	// Command is its command line with args (skipping the test when it is not
	// installed).
	Command func(ctx context.Context, t *testing.T, args ...string) *exec.Cmd
	// Tools, when set, runs outside tools (CheckCurl, CheckGrpcurl, CheckGhz) on the
	// server of s that GoClientsAgainstServers has just started on network, before the
	// Go clients' checks: one start of the server serves both, and the tools see it
	// fresh.
	Tools func(t *testing.T, s *protocol.Stack, network string, addr transport.Addr)
}

// CheckRegistered checks that every stack is registered on its sides as a production
// stack of the worker, with no Go side.
func (w Worker) CheckRegistered(t *testing.T) {
	t.Helper()
	for _, s := range w.Stacks {
		for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
			if !s.Has(side) {
				continue
			}
			got, err := protocol.LookupStack(s.Protocol, s.Name, side)
			if err != nil {
				t.Errorf("%s %s: %v", s.Name, side, err)
				continue
			}
			if got.Worker != w.Kind || got.Language != w.Language || got.Tier != protocol.Production ||
				got.Libraries[w.Language] != w.Version || got.NewServer != nil || got.NewClient != nil {
				t.Errorf("%s: registered as %+v", s.Name, got)
			}
		}
	}
}

// CheckPins checks every stack's library versions against pins (the worker's own
// manifest, read by the caller), skipping the runtime's.
func (w Worker) CheckPins(t *testing.T, manifest string, pins map[string]string) {
	t.Helper()
	for _, s := range w.Stacks {
		for lib, v := range s.Libraries {
			if lib == w.Language {
				continue
			}
			switch pinned, ok := pins[lib]; {
			case !ok:
				t.Errorf("stack %s names %s, which %s does not pin", s.Name, lib, manifest)
			case pinned != v:
				t.Errorf("stack %s: %s is %s in the registry, %s in %s", s.Name, lib, v, pinned, manifest)
			}
		}
	}
}

// CheckList checks that the worker's `list` ("protocol/name<TAB>sides" lines) is the
// registry's.
func (w Worker) CheckList(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := w.Command(ctx, t, "list").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	var want []string
	for _, s := range w.Stacks {
		want = append(want, s.Protocol+"/"+s.Name+"\t"+s.Sides.String())
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the worker lists %q; the registry has %q", got, want)
	}
}

// Serve starts the worker's `serve` of a server stack on a fresh address of network
// and returns the address it printed; the server stops (its stdin closes) when the
// test ends.
func (w Worker) Serve(t *testing.T, proto, stack, network string) transport.Addr {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	cmd := w.Command(ctx, t, "serve", "--protocol", proto, "--stack", stack, "--listen", protocoltest.ListenAddr(t, network).String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("serve %s did not exit within 10s of its stdin closing", stack)
			cancel()
			<-done
		}
		cancel()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve %s: no address line: %v\n%s", stack, err, stderr.String())
	}
	a, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok {
		t.Fatalf("serve %s printed %q, want \"listening on ADDR\"", stack, line)
	}
	addr, err := transport.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// GoClientsAgainstServers holds every server stack of the worker to the Go side's one
// contract check (conform.Check, what `wirebench conform` runs) with the protocol's Go
// client and the instrument, over TCP and Unix sockets, after the worker's Tools on the
// same server.
func (w Worker) GoClientsAgainstServers(t *testing.T) {
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, s := range w.Stacks {
		if !s.Has(protocol.ServerSide) {
			continue
		}
		for _, network := range []string{"tcp", "unix"} {
			t.Run(s.Name+"/"+network, func(t *testing.T) {
				addr := w.Serve(t, s.Protocol, s.Name, network)
				if w.Tools != nil {
					w.Tools(t, s, network, addr)
				}
				clients := []string{""}
				if _, err := protocol.LookupStack(s.Protocol, "instrument", protocol.ClientSide); err == nil {
					clients = append(clients, "instrument")
				}
				for _, client := range clients {
					cs, err := protocol.LookupStack(s.Protocol, client, protocol.ClientSide)
					if err != nil {
						t.Fatal(err)
					}
					t.Run(cs.Name, func(t *testing.T) {
						ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
						defer cancel()
						cl, err := cs.Dial(ctx, protocol.ClientConfig{Address: addr})
						if err != nil {
							t.Fatal(err)
						}
						defer cl.Close()
						protocoltest.CheckContract(t, cl, ds, conform.OriginalRefused)
					})
				}
			})
		}
	}
}

// ClientsAgainstGoServers runs every client stack's own checks (`check`) against the
// Go server of its protocol, over TCP and Unix sockets: Go cannot make another
// language's calls, so that check is the worker's.
func (w Worker) ClientsAgainstGoServers(t *testing.T) {
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, s := range w.Stacks {
		if !s.Has(protocol.ClientSide) {
			continue
		}
		for _, network := range []string{"tcp", "unix"} {
			t.Run(s.Name+"/"+network, func(t *testing.T) {
				target := protocoltest.Start(t, s.Protocol, network, contract.NewReference(ds), protocol.ServerConfig{}).Addr.String()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				out, err := w.Command(ctx, t, "check", "--stack", s.Name, "--protocol", s.Protocol, "--address", target).CombinedOutput()
				if err != nil {
					t.Errorf("%s client against the Go %s server on %s: %v\n%s", s.Name, s.Protocol, target, err, failures(out))
				}
			})
		}
	}
}

// failures keeps the failed lines of a check's output (and its last line).
func failures(out []byte) string {
	var b strings.Builder
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "ok ") || i == len(lines)-1 {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// RunTool runs an outside tool (bounded to 30 s) and returns its standard output.
func RunTool(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout: %s\nstderr: %s", filepath.Base(bin), strings.Join(args, " "), err, out, stderr.String())
	}
	return out
}

// DriverRuns has the driver run each pair {protocol, server stack, client stack,
// workload} ("" is the protocol's Go default stack) over Unix sockets, closed and open loop, 2
// measured intervals each, and checks every interval: ops with as many latencies and
// no error, CPU on both sides, a server reading with peak RSS, a lag per op in the open
// model; with countsBytes (the worker's clients count bytes on the wire, as the Rust
// worker's do), bytes both ways too. binary is wirebench, for the Go workers of the
// mixed pairs; the caller has pointed the launcher at the worker.
//
// The runs go two at a time (-test.parallel, GOMAXPROCS): each is mostly its workers'
// starts and stops and its fixed-length slices, so one at a time they kept a slot of
// `go test -p 2` waiting (the Rust worker's twelve took 42 s for 12 s of CPU,
// 2026-11-29).
func DriverRuns(t *testing.T, binary string, countsBytes bool, pairs [][4]string) {
	for _, pair := range pairs {
		p := struct{ Protocol, Server, Client, Workload string }{pair[0], pair[1], pair[2], pair[3]}
		for _, model := range []load.Model{{Kind: load.Closed, Concurrency: 4, Connections: 2}, {Kind: load.Open, Rate: 100, Concurrency: 8}} {
			t.Run(p.Protocol+"/"+p.Server+"-"+p.Client+"/"+p.Workload+"/"+string(model.Kind), func(t *testing.T) {
				t.Parallel()
				for _, tr := range runPair(t, binary, pair, "unix", model) {
					for k, iv := range tr.Intervals {
						if iv.Ops == 0 || iv.Resp.TotalCount() != iv.Ops || iv.ErrorCount() != 0 || iv.Index != k {
							t.Errorf("interval %d: index %d, %d ops, %d latencies, errors %v", k, iv.Index, iv.Ops, iv.Resp.TotalCount(), iv.Errors)
						}
						if iv.ClientCPU <= 0 {
							t.Errorf("interval %d: client CPU %v", k, iv.ClientCPU)
						}
						if countsBytes && (iv.BytesSent <= 0 || iv.BytesReceived <= 0) {
							t.Errorf("interval %d: bytes %d/%d; want both counted", k, iv.BytesSent, iv.BytesReceived)
						}
						if iv.Server == nil || iv.ServerCPU <= 0 || iv.Server.PeakRSS <= 0 {
							t.Errorf("interval %d: server reading %+v, CPU %v", k, iv.Server, iv.ServerCPU)
						}
						if model.Kind == load.Open && (iv.Lag == nil || iv.Lag.TotalCount() != iv.Ops) {
							t.Errorf("interval %d: open model without a lag per op", k)
						}
					}
				}
			})
		}
	}
}

// Bounds of a person.get's bytes on the wire, each way, per op (an interval's bytes
// over its ops, the connect and the contract check of the first interval included):
// the smallest Person of the default data set is 99 bytes in protobuf (more in JSON),
// and a request is at least an HTTP/2 DATA frame's 9-byte header, gRPC's 5-byte prefix
// and the id (16), or HTTP/1.1's request line (more); neither comes near 8 KiB.
const (
	minRecvPerGet = 99
	minSentPerGet = 16
	maxPerGet     = 8 << 10
)

// DriverCountsBytes has the driver run each pair {protocol, server stack, client
// stack} ("" is the protocol's Go default stack) over TCP, person.get in a closed loop,
// and checks that every interval counts the client's bytes both ways, within what a
// person.get can take: a client that reports none (0, or -1 for "cannot count") fails.
func DriverCountsBytes(t *testing.T, binary string, pairs [][3]string) {
	for _, pair := range pairs {
		t.Run(pair[0]+"/"+pair[1]+"-"+pair[2], func(t *testing.T) {
			p := [4]string{pair[0], pair[1], pair[2], "person.get"}
			for _, tr := range runPair(t, binary, p, "tcp", load.Model{Kind: load.Closed, Concurrency: 4, Connections: 2}) {
				for k, iv := range tr.Intervals {
					if iv.Ops == 0 {
						t.Fatalf("interval %d: no ops", k)
					}
					sent, recv := iv.BytesSent/iv.Ops, iv.BytesReceived/iv.Ops
					if sent < minSentPerGet || recv < minRecvPerGet || sent > maxPerGet || recv > maxPerGet {
						t.Errorf("interval %d: %d ops, %d bytes sent (%d an op), %d received (%d an op); want %d to %d sent and %d to %d received an op",
							k, iv.Ops, iv.BytesSent, sent, iv.BytesReceived, recv, minSentPerGet, maxPerGet, minRecvPerGet, maxPerGet)
					}
				}
			}
		})
	}
}

// runPair has the driver run pair {protocol, server stack, client stack, workload}
// over transport under model: one fork of 2 measured intervals after a short warm-up,
// unpinned; it fails the test unless the fork ran both.
func runPair(t *testing.T, binary string, pair [4]string, network string, model load.Model) []*results.Fork {
	t.Helper()
	s := spec.Default()
	s.Protocol, s.Transport, s.ServerStack, s.ClientStack = pair[0], network, pair[1], pair[2]
	s.Workload = pair[3]
	var err error
	if s.Load, err = model.Normalize(); err != nil {
		t.Fatal(err)
	}
	s.Warmup, s.Rounds, s.SliceTime, s.Forks = 100*time.Millisecond, 2, 300*time.Millisecond, 1
	s.CallTimeout, s.ServerCPUs, s.ClientCPUs = 5*time.Second, nil, nil
	s.Method = spec.MethodSequential
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	forks, err := driver.Measure(ctx, s, driver.Options{Binary: binary})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range forks {
		if tr.Err != nil || len(tr.Intervals) != 2 {
			t.Fatalf("fork %d: %v, %d intervals", tr.Index, tr.Err, len(tr.Intervals))
		}
	}
	return forks
}
