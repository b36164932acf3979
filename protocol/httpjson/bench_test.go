package httpjson_test

// BenchmarkGetPersonTCP measures whole GetPerson calls over loopback TCP with 50 calls
// in flight. The server runs in a child process (this test binary, re-executed), so
// the CPU time of this process is the client's: it is reported as client-cpu-us/op,
// the figure wirebench's own reports put next to wrk's.

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
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/transport"
)

// benchServerEnv makes the test binary run a server instead of the tests.
const benchServerEnv = "WIREBENCH_HTTPJSON_BENCH_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(benchServerEnv) != "" {
		runBenchServer()
		return
	}
	os.Exit(m.Run())
}

// runBenchServer serves on a loopback port, prints the address, and stops when its
// stdin closes (the parent ended or died).
func runBenchServer() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := httpjson.NewServer(contract.NewReference(testData), protocol.ServerConfig{})
	go srv.Serve(ln)
	fmt.Println(ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
	os.Exit(0)
}

// startServerProcess starts the child server and returns its address.
func startServerProcess(b *testing.B) transport.Addr {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), benchServerEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
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
		b.Fatalf("server process: %v", err)
	}
	return transport.Addr{Network: "tcp", Address: strings.TrimSpace(line)}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkGetPersonTCP(b *testing.B) {
	const inflight = 50
	addr := startServerProcess(b)
	cl := newClient(b, httpjson.TunedStack, addr, protocol.ClientConfig{})
	ctx, cancel := context.WithCancel(context.Background()) // cancellable, as the engine's are
	defer cancel()
	want, _ := testData.Person(7)
	b.SetParallelism((inflight + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p, err := cl.GetPerson(ctx, 7)
			if err != nil || p.ID != want.ID {
				b.Errorf("GetPerson(7) = %+v, %v", p, err)
				return
			}
		}
	})
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "client-cpu-us/op")
}
