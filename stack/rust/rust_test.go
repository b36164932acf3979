package rust_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/internal/workertest"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/conform"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/stack/rust"
)

// worker returns the built Rust worker, or skips the test (fails it in CI).
func worker(t *testing.T) string {
	t.Helper()
	// $WIREBENCH_RUST_WORKER names it, as the driver finds it; else the build's place
	// in this tree.
	path := os.Getenv(launch.RustWorkerEnv)
	if path == "" {
		path = filepath.Join("..", "..", filepath.FromSlash(launch.RustWorkerPath))
	}
	bin, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		testtool.Missing(t, "%s is not built (run `make rust`; needs cargo)", bin)
	}
	return bin
}

// cargoPins reads the exact versions workers/rust/worker/Cargo.toml pins ("=x.y.z")
// and its rust-version.
func cargoPins(t *testing.T) (pins map[string]string, rustVersion string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "workers", "rust", "worker", "Cargo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	pins = map[string]string{}
	dep := regexp.MustCompile(`^([A-Za-z0-9_-]+)\s*=\s*(?:\{\s*version\s*=\s*)?"=([0-9.]+)"`)
	for _, line := range strings.Split(string(b), "\n") {
		if m := dep.FindStringSubmatch(line); m != nil {
			pins[m[1]] = m[2]
		}
		if v, ok := strings.CutPrefix(line, "rust-version = "); ok {
			rustVersion = strings.Trim(v, `"`)
		}
	}
	return pins, rustVersion
}

func TestVersionsMatchCargoToml(t *testing.T) {
	pins, rv := cargoPins(t)
	if rv != rust.Rust {
		t.Errorf("Cargo.toml says rust-version %q, rust.go %q", rv, rust.Rust)
	}
	for _, s := range rust.Stacks {
		for lib, v := range s.Libraries {
			if lib == "rust" {
				continue
			}
			switch pinned, ok := pins[lib]; {
			case !ok:
				t.Errorf("stack %s names %s, which workers/rust/worker/Cargo.toml does not pin", s.Name, lib)
			case pinned != v:
				t.Errorf("stack %s: %s is %s in rust.go, =%s in Cargo.toml", s.Name, lib, v, pinned)
			}
		}
	}
}

func TestStacksRegistered(t *testing.T) {
	for _, s := range rust.Stacks {
		for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
			if !s.Has(side) {
				continue
			}
			got, err := protocol.LookupStack(s.Protocol, s.Name, side)
			if err != nil {
				t.Errorf("%s %s: %v", s.Name, side, err)
				continue
			}
			if got.Worker != protocol.WorkerRust || got.Language != "rust" || got.Tier != protocol.Production ||
				got.Libraries["rust"] != rust.Rust || got.NewServer != nil || got.NewClient != nil {
				t.Errorf("%s: registered as %+v", s.Name, got)
			}
		}
	}
	// A Rust stack is never a protocol's default.
	for _, p := range []string{"http-json", "grpc-proto"} {
		for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
			if st, err := protocol.LookupStack(p, "", side); err != nil || st.Worker != protocol.WorkerGo {
				t.Errorf("default %s %s stack: %v %v", p, side, st, err)
			}
		}
	}
}

// The worker's own list of stacks is the registry's.
func TestWorkerListsTheRegisteredStacks(t *testing.T) {
	out, err := exec.Command(worker(t), "list").Output()
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		got = append(got, line)
	}
	for _, s := range rust.Stacks {
		want = append(want, s.Protocol+"/"+s.Name+"\t"+s.Sides.String())
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the worker lists %q; rust.go registers %q", got, want)
	}
}

// serveRust starts `serve` of a Rust server stack and returns the address it printed
// (workertest.Worker.Serve).
func serveRust(t *testing.T, proto, stack, network string) transport.Addr {
	t.Helper()
	w := workertest.Worker{Command: func(ctx context.Context, t *testing.T, args ...string) *exec.Cmd {
		return exec.CommandContext(ctx, worker(t), args...)
	}}
	return w.Serve(t, proto, stack, network)
}

// Every Rust server passes the Go side's one contract check (conform.Check, what
// `wirebench conform` runs; three ops of every workload among its checks) with the
// protocol's Go client and with the instrument (where the protocol has it), over TCP
// and Unix sockets.
func TestGoClientsAgainstRustServers(t *testing.T) {
	worker(t)
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, s := range rust.Stacks {
		if !s.Has(protocol.ServerSide) {
			continue
		}
		for _, network := range []string{"tcp", "unix"} {
			t.Run(s.Name+"/"+network, func(t *testing.T) {
				addr := serveRust(t, s.Protocol, s.Name, network)
				clients := []string{""} // the protocol's Go client, and the instrument where it has one
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
						original := conform.OriginalRefused
						if s.OriginalTrades && cs.OriginalTrades {
							original = conform.OriginalCarried
						}
						protocoltest.CheckContract(t, cl, ds, original)
					})
				}
			})
		}
	}
}

// Every Rust client passes its own contract checks (`wirebench-worker check`) against
// the Go server of its protocol: Go cannot make a Rust client's calls, so that check
// stays in Rust (workers/rust/worker/src/check.rs).
func TestRustClientsAgainstGoServers(t *testing.T) {
	bin := worker(t)
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, s := range rust.Stacks {
		if !s.Has(protocol.ClientSide) {
			continue
		}
		for _, network := range []string{"tcp", "unix"} {
			t.Run(s.Name+"/"+network, func(t *testing.T) {
				target := protocoltest.Start(t, s.Protocol, network, contract.NewReference(ds), protocol.ServerConfig{}).Addr.String()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				out, err := exec.CommandContext(ctx, bin, "check", "--stack", s.Name, "--protocol", s.Protocol, "--address", target).CombinedOutput()
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
