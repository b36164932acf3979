package gotunedjson_test

// BenchmarkGetPersonTCP measures whole GetPerson calls over loopback TCP with 50 calls
// in flight. The server runs in a child process (this test binary, re-executed), so
// the CPU time of this process is the client's: it is reported as client-cpu-us/op,
// the figure wirebench's own reports put next to wrk's.

import (
	"context"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/gotunedjson"
)

func TestMain(m *testing.M) {
	protocoltest.ServeChild()
	os.Exit(m.Run())
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkGetPersonTCP(b *testing.B) {
	const inflight = 50
	addr := protocoltest.ChildServer(b, httpjson.Name, gotunedjson.Name)
	ctx, cancel := context.WithCancel(context.Background()) // cancellable, as the engine's are
	defer cancel()
	cl, err := gotunedjson.NewClient(ctx, protocol.ClientConfig{Address: addr, Dial: transport.Dialer(addr, nil)})
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	b.SetParallelism((inflight + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p, err := cl.GetPerson(ctx, 7)
			if err != nil || p.ID != 7 {
				b.Errorf("GetPerson(7) = %+v, %v", p, err)
				return
			}
		}
	})
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "client-cpu-us/op")
}
