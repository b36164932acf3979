package instrument_test

// The instrument's calls must allocate nothing once their answers are remembered. The
// servers run in a child process (this test binary, re-executed), so that the
// allocations counted are the client's alone.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/transport"
)

// serverEnv makes the test binary serve the protocol it names instead of testing.
const serverEnv = "WIREBENCH_INSTRUMENT_TEST_SERVER"

func TestMain(m *testing.M) {
	if name := os.Getenv(serverEnv); name != "" {
		serve(name)
		return
	}
	os.Exit(m.Run())
}

// serve serves the protocol's default server stack on a loopback port, prints the
// address, and stops when its stdin closes (the parent ended or died).
func serve(name string) {
	p, err := protocol.Lookup(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv, err := p.NewServer(contract.NewReference(testData), protocol.ServerConfig{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go srv.Serve(ln)
	fmt.Println(ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
	os.Exit(0)
}

// serverProcess starts a child serving the protocol and returns its address.
func serverProcess(t testing.TB, name string) transport.Addr {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serverEnv+"="+name)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("server process: %v", err)
	}
	return transport.Addr{Network: "tcp", Address: strings.TrimSpace(line)}
}

// countedClient is an instrument client whose bytes are counted, as the engine's are.
func countedClient(t testing.TB, name string, addr transport.Addr) protocol.Client {
	s, err := protocol.LookupStack(name, "instrument", protocol.ClientSide)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, err := s.NewClient(ctx, protocol.ClientConfig{Target: addr, Dial: transport.Dialer(addr, new(transport.Counter))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// TestRememberedCallsAllocateNothing: the workloads whose answers repeat make no
// allocation per call once each answer was decoded, with a cancellable context as
// the engine's callers have, on each protocol.
func TestRememberedCallsAllocateNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	for _, name := range []string{httpjson.Name, grpcproto.Name, grpcavro.Name} {
		t.Run(name, func(t *testing.T) {
			cl := countedClient(t, name, serverProcess(t, name))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for _, wl := range []string{"person.get", "person.links", "person.list", "echo"} {
				w, _ := contract.LookupWorkload(wl)
				op, _ := w.New(w.Defaults, testData)
				seq := uint64(0)
				call := func() {
					if err := op(ctx, cl, seq); err != nil {
						t.Fatalf("%s: %v", wl, err)
					}
					seq++
				}
				for range 2 * testData.Size() { // every answer decoded once
					call()
				}
				if n := testing.AllocsPerRun(500, call); n != 0 {
					t.Errorf("%s: %v allocations per op, want 0", wl, n)
				}
			}
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGetPerson measures person.get ops with 16 in flight against a server in a
// child process; the CPU time of this process is the client's (client-cpu-us/op).
func BenchmarkGetPerson(b *testing.B) {
	for _, name := range []string{httpjson.Name, grpcproto.Name, grpcavro.Name} {
		b.Run(name, func(b *testing.B) {
			const inflight = 16
			cl := countedClient(b, name, serverProcess(b, name))
			w, _ := contract.LookupWorkload("person.get")
			op, _ := w.New(w.Defaults, testData)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			b.SetParallelism((inflight + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for seq := uint64(0); pb.Next(); seq++ {
					if err := op(ctx, cl, seq); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/1e3/float64(b.N), "client-cpu-us/op")
		})
	}
}
