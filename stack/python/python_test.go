package python_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/conform"
	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/launch"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/stack/python"
	"github.com/wirebench/wirebench/transport"
)

// workerDir returns the Python worker's directory with its venv, or skips the test
// (fails it in CI).
func workerDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(launch.PythonWorkerEnv)
	if dir == "" {
		dir = filepath.Join("..", "..", filepath.FromSlash(launch.PythonWorkerPath))
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".venv", "bin", "python")); err != nil {
		testtool.Missing(t, "the Python worker has no venv in %s (run `make python`; needs Python 3.11+)", dir)
	}
	return dir
}

// workerCommand is the Python worker's command line with args, as the launcher runs it.
func workerCommand(ctx context.Context, t *testing.T, args ...string) *exec.Cmd {
	dir := workerDir(t)
	return exec.CommandContext(ctx, filepath.Join(dir, ".venv", "bin", "python"), append([]string{filepath.Join(dir, "worker.py")}, args...)...)
}

// requirementPins reads the exact versions workers/python/requirements.txt pins.
func requirementPins(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "workers", "python", "requirements.txt"))
	if err != nil {
		t.Fatal(err)
	}
	pins := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, v, ok := strings.Cut(line, "==")
		if !ok {
			t.Errorf("requirements.txt: %q is not pinned with ==", line)
			continue
		}
		pins[strings.ToLower(strings.ReplaceAll(name, "_", "-"))] = v
	}
	return pins
}

func TestVersionsMatchRequirements(t *testing.T) {
	pins := requirementPins(t)
	for _, s := range python.Stacks {
		for lib, v := range s.Libraries {
			if lib == "python" {
				continue
			}
			switch pinned, ok := pins[lib]; {
			case !ok:
				t.Errorf("stack %s names %s, which workers/python/requirements.txt does not pin", s.Name, lib)
			case pinned != v:
				t.Errorf("stack %s: %s is %s in python.go, ==%s in requirements.txt", s.Name, lib, v, pinned)
			}
		}
	}
}

func TestStacksRegistered(t *testing.T) {
	for _, s := range python.Stacks {
		for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
			if !s.Has(side) {
				continue
			}
			got, err := protocol.LookupStack(s.Protocol, s.Name, side)
			if err != nil {
				t.Errorf("%s %s: %v", s.Name, side, err)
				continue
			}
			if got.Worker != protocol.WorkerPython || got.Language != "python" || got.Tier != protocol.Production ||
				got.Libraries["python"] != python.Python || got.NewServer != nil || got.NewClient != nil {
				t.Errorf("%s: registered as %+v", s.Name, got)
			}
		}
	}
	if _, err := launch.For(protocol.WorkerPython); err != nil {
		t.Error(err)
	}
}

// The worker's own list of stacks is the registry's.
func TestWorkerListsTheRegisteredStacks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := workerCommand(ctx, t, "list").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	var want []string
	for _, s := range python.Stacks {
		want = append(want, s.Protocol+"/"+s.Name+"\t"+s.Sides.String())
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the worker lists %q; python.go registers %q", got, want)
	}
}

// servePython starts `serve` of a Python server stack and returns the address it
// printed; the server stops when the test ends (its standard input closes).
func servePython(t *testing.T, proto, stack, network string) transport.Addr {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := workerCommand(ctx, t, "serve", "--protocol", proto, "--stack", stack, "--listen", protocoltest.ListenAddr(t, network).String())
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

// Every Python server passes the Go side's one contract check (conform.Check, what
// `wirebench conform` runs) with the protocol's Go client and with the instrument,
// over TCP and Unix sockets.
func TestGoClientsAgainstPythonServers(t *testing.T) {
	workerDir(t)
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, s := range python.Stacks {
		if !s.Has(protocol.ServerSide) {
			continue
		}
		for _, network := range []string{"tcp", "unix"} {
			t.Run(s.Name+"/"+network, func(t *testing.T) {
				addr := servePython(t, s.Protocol, s.Name, network)
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
						cl, err := cs.Dial(ctx, protocol.ClientConfig{Target: addr})
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

// Every Python client passes its own contract checks (`worker.py check`) against the Go
// server of its protocol.
func TestPythonClientsAgainstGoServers(t *testing.T) {
	workerDir(t)
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, s := range python.Stacks {
		if !s.Has(protocol.ClientSide) {
			continue
		}
		for _, network := range []string{"tcp", "unix"} {
			t.Run(s.Name+"/"+network, func(t *testing.T) {
				target := protocoltest.Start(t, s.Protocol, network, contract.NewReference(ds), protocol.ServerConfig{}).Addr.String()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				out, err := workerCommand(ctx, t, "check", "--stack", s.Name, "--protocol", s.Protocol, "--target", target).CombinedOutput()
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
