package launch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Process is a child process of the driver's (a worker) or of a worker's (its link
// proxy).
//
// Lifetime: the child is started from an OS thread locked for the purpose, whose CPU
// affinity is first set to the child's CPU set, so the child and every thread it makes
// inherit the set (pinning a running Go process afterwards would miss the threads it
// already has). The same thread then waits for the child, which keeps it alive: the
// child's parent-death signal (SIGKILL) fires when that thread ends, so the child dies
// with the driver on every exit path, kill -9 included. The child runs in its own
// process group, so a Ctrl-C at the terminal reaches only the driver, which then stops
// the run in order. A worker that cannot have a parent-death signal (a JVM) exits
// when its standard input, a pipe the driver holds, reaches end of file: that also
// happens when the driver dies.
type Process struct {
	role   string // "server worker", "client worker"
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *tail
	Addr   string        // the control address the worker printed
	exited chan struct{} // closed when the child has exited
	err    error         // its exit error, set before exited is closed
}

// StartProcess starts argv pinned to cpus (none: not pinned), and waits up to timeout
// for its first stdout line, "listening on ADDR".
func StartProcess(ctx context.Context, role string, argv []string, cpus []int, timeout time.Duration) (*Process, error) {
	p := &Process{role: role, stderr: newTail(8 << 10), exited: make(chan struct{})}
	p.cmd = exec.Command(argv[0], argv[1:]...)
	p.cmd.Stderr = p.stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// Never unlocked: the thread's affinity was changed, so it ends with this
		// goroutine instead of going back to the scheduler.
		if len(cpus) > 0 {
			var set unix.CPUSet
			for _, c := range cpus {
				set.Set(c)
			}
			if err := unix.SchedSetaffinity(0, &set); err != nil {
				started <- fmt.Errorf("pinning %s to CPUs %v: %w", role, cpus, err)
				close(p.exited)
				return
			}
		}
		if err := p.cmd.Start(); err != nil {
			started <- fmt.Errorf("starting %s: %w", role, err)
			close(p.exited)
			return
		}
		started <- nil
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		s, _ := r.ReadString('\n')
		line <- s
		io.Copy(io.Discard, r) // keep the pipe drained
	}()
	select {
	case s := <-line:
		if a, ok := strings.CutPrefix(strings.TrimSpace(s), "listening on "); ok {
			p.Addr = a
			return p, nil
		}
		p.Kill()
		return nil, p.Failure(fmt.Errorf("it printed %q instead of its address", s))
	case <-time.After(timeout):
		p.Kill()
		return nil, p.Failure(fmt.Errorf("it did not report its address within %v", timeout))
	case <-ctx.Done():
		p.Kill()
		return nil, ctx.Err()
	}
}

// Kill kills the child and waits for it to be reaped.
func (p *Process) Kill() {
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
	<-p.exited
	p.stdin.Close()
}

// Stop waits up to grace for the child to exit by itself (after Quit), then kills it.
func (p *Process) Stop(grace time.Duration) {
	select {
	case <-p.exited:
		p.stdin.Close()
	case <-time.After(grace):
		p.Kill()
	}
}

// Pid is the child's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed when the child has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Stderr is the end of what the child wrote to its standard error (its last 8 KiB).
func (p *Process) Stderr() string { return p.stderr.String() }

// Dead reports whether the child has exited.
func (p *Process) Dead() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// Failure describes what went wrong with the child: err, its exit status if it
// died, and the end of its stderr.
func (p *Process) Failure(err error) error {
	pid := 0
	if p.cmd.Process != nil {
		pid = p.cmd.Process.Pid
	}
	msg := fmt.Sprintf("%s (pid %d)", p.role, pid)
	if p.Dead() {
		status := "exited"
		if p.err != nil {
			status = p.err.Error()
		}
		msg += " died (" + status + ")"
	}
	if err != nil {
		msg += ": " + err.Error()
	}
	if t := strings.TrimSpace(p.stderr.String()); t != "" {
		msg += "\n--- end of its stderr ---\n" + t
	}
	return errors.New(msg)
}

// tail keeps the last max bytes written to it. Safe for concurrent use.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
