package launch_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/internal/testbin"
	"github.com/wirebench/wirebench/protocol"
)

var binary string

func TestMain(m *testing.M) { testbin.Main(m, "../cmd/wirebench", &binary) }

// A worker language added from outside the driver: a launcher registered here, under
// a worker kind no file of the driver or of launch names, is what Start (the one way
// the driver spawns a worker) uses for a stack of that kind. It is told the control
// socket, profile path and CPUs the driver chose, the worker it starts answers the
// control API, and its runtime options are what results record of the stack. The
// new language's worker is a shell script that runs the Go worker, as another
// language's worker would be an executable of its own.
func TestRegisteredLauncher(t *testing.T) {
	const kind = "test-lang"
	var (
		mu  sync.Mutex
		got []launch.Command
	)
	launch.Register(kind, launch.Launcher{
		Command: func(c launch.Command) ([]string, error) {
			mu.Lock()
			got = append(got, c)
			mu.Unlock()
			return []string{"/bin/sh", "-c", `exec "$0" worker --listen "unix://$1"`, c.Binary, c.Socket}, nil
		},
		StartFactor: 2,
		RuntimeArgs: func(user []string, cpus int) []string { return append([]string{"--cpus", "n"}, user...) },
	})
	st := &protocol.Stack{Name: "echo-tl", Protocol: "grpc-proto", Worker: kind}
	dir, prof := t.TempDir(), t.TempDir()
	opt := launch.Options{Binary: binary, StartTimeout: 10 * time.Second, ProfileDir: prof}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w, err := launch.Start(ctx, "server worker", st, opt, dir, "server-0-0", nil, nspair.End{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := w.Client.Info(ctx, &controlpb.InfoRequest{})
	w.Close()
	if err != nil {
		t.Fatalf("the new language's worker did not answer Info: %v", err)
	}
	if !strings.HasPrefix(info.Runtime, "go") || w.Pid() == 0 {
		t.Errorf("worker runtime %q, pid %d; want the Go worker the script ran, spawned here", info.Runtime, w.Pid())
	}
	if len(got) != 1 {
		t.Fatalf("the launcher was asked %d times, want once", len(got))
	}
	c := got[0]
	if c.Stack != st || c.Socket != filepath.Join(dir, "server-0-0.sock") || c.Profile != filepath.Join(prof, "server-0-0") || c.Binary != binary {
		t.Errorf("the launcher was told stack %v, socket %q, profile %q, binary %q; want the stack, %s, %s and %s",
			c.Stack, c.Socket, c.Profile, c.Binary, filepath.Join(dir, "server-0-0.sock"), filepath.Join(prof, "server-0-0"), binary)
	}
	if args := launch.RuntimeArgs(st, []string{"-x"}, 2); !slices.Equal(args, []string{"--cpus", "n", "-x"}) {
		t.Errorf("runtime options %q, want the launcher's then the user's", args)
	}
}

// A stack whose worker kind has no launcher is refused before anything starts, with
// the kinds that have one.
func TestNoLauncher(t *testing.T) {
	st := &protocol.Stack{Name: "x", Protocol: "grpc-proto", Worker: "cobol"}
	_, err := launch.Start(context.Background(), "client worker", st, launch.Options{Binary: binary, StartTimeout: time.Second}, t.TempDir(), "client-0-0", nil, nspair.End{})
	if err == nil || !strings.Contains(err.Error(), `no launcher for workers of kind "cobol"`) || !strings.Contains(err.Error(), "go java rust") {
		t.Errorf("a stack of an unknown worker kind: %v; want refused with the kinds known", err)
	}
}

// Go, Java and Rust register their launchers; a second launcher for a kind, or one
// without a command, is a programming error.
func TestRegisterRefuses(t *testing.T) {
	for _, kind := range []string{protocol.WorkerGo, protocol.WorkerJava, protocol.WorkerRust} {
		if _, err := launch.For(kind); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
	for name, reg := range map[string]func(){
		"a second Go launcher": func() {
			launch.Register(protocol.WorkerGo, launch.Launcher{Command: func(launch.Command) ([]string, error) { return nil, nil }})
		},
		"no kind": func() {
			launch.Register("", launch.Launcher{Command: func(launch.Command) ([]string, error) { return nil, nil }})
		},
		"no command": func() { launch.Register("test-none", launch.Launcher{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: registered", name)
				}
			}()
			reg()
		}()
	}
}
