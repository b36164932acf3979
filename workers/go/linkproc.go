package worker

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec/link"
	"github.com/wirebench/wirebench/workers/go/sysstat"
)

// linkProc is the link proxy a client worker runs beside itself: `wirebench link`,
// a child process of the worker (on the worker's CPUs, dying with it), so that the
// proxy's CPU is read apart from the load generator's and its goroutines do not
// share the generator's scheduler and garbage collector. Owned by one goroutine.
type linkProc struct {
	proc *launch.Process
	stat *sysstat.Proc
	// cpu is the last reading; phaseCPU returns the difference from it.
	cpu time.Duration
}

// startLink starts a proxy to target (a tcp:// address) with lp's delay, jitter and
// rate, and returns it with the address to dial instead.
func startLink(ctx context.Context, target string, lp *controlpb.LinkProfile) (*linkProc, string, error) {
	a, err := transport.Parse(target)
	if err != nil {
		return nil, "", err
	}
	if a.Network != "tcp" {
		return nil, "", fmt.Errorf("a link needs a tcp target, not %s", target)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	prof := link.Profile{Delay: time.Duration(lp.DelayNanos), Jitter: time.Duration(lp.JitterNanos), RateBits: lp.RateBitsPerSecond}
	argv := []string{exe, "link", "--listen", "tcp://127.0.0.1:0", "--upstream", a.String(), "--link", prof.String()}
	p, err := launch.StartProcess(ctx, "link proxy", argv, nil, 10*time.Second)
	if err != nil {
		return nil, "", err
	}
	st, err := sysstat.Open(p.Pid())
	if err != nil {
		p.Kill()
		return nil, "", fmt.Errorf("link proxy: reading its statistics: %w", err)
	}
	return &linkProc{proc: p, stat: st}, p.Addr, nil
}

// phaseCPU returns the proxy's CPU since the last call.
func (l *linkProc) phaseCPU() (time.Duration, error) {
	if l.proc.Dead() {
		return 0, l.proc.Failure(nil)
	}
	s, err := l.stat.Read()
	if err != nil {
		return 0, fmt.Errorf("link proxy: %w", err)
	}
	d := s.CPU - l.cpu
	l.cpu = s.CPU
	return d, nil
}

func (l *linkProc) close() { l.proc.Kill() }
