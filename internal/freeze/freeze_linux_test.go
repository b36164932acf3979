//go:build linux

package freeze

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The mountinfo and cgroup files of this machine kind's hybrid layout (cgroup v1
// controllers under a tmpfs, the v2 hierarchy at /sys/fs/cgroup/unified), and of a
// pure v2 one inside a systemd slice.
const (
	hybridMounts = `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`
	hybridCgroup = "9:name=systemd:/\n6:freezer:/\n1:cpu:/\n0::/\n"
	pureMounts   = `25 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate
90 25 0:22 /user.slice /mnt/with\040space rw - cgroup2 cgroup2 rw
`
	pureCgroup = "0::/user.slice/session-3.scope\n"
)

func TestFindMount(t *testing.T) {
	for _, c := range []struct {
		m                Method
		mounts, cgroup   string
		wantMnt, wantOwn string
		wantErr          bool
	}{
		// Hybrid: each hierarchy at its own mount, the process at the root of both.
		{CgroupV2, hybridMounts, hybridCgroup, "/sys/fs/cgroup/unified", "/", false},
		{CgroupV1, hybridMounts, hybridCgroup, "/sys/fs/cgroup/freezer", "/", false},
		// Pure v2: the second mount is a bind of a sub-tree (its root is not "/"), so
		// the first is the hierarchy's; there is no v1 freezer.
		{CgroupV2, pureMounts, pureCgroup, "/sys/fs/cgroup", "/user.slice/session-3.scope", false},
		{CgroupV1, pureMounts, pureCgroup, "", "", true},
	} {
		mnt, own, err := findMount(c.m, []byte(c.mounts), []byte(c.cgroup))
		if (err != nil) != c.wantErr || mnt != c.wantMnt || own != c.wantOwn {
			t.Errorf("findMount(%s) = %q, %q, %v; want %q, %q, error %v", c.m, mnt, own, err, c.wantMnt, c.wantOwn, c.wantErr)
		}
	}
	if got := unescape(`/mnt/with\040space`); got != "/mnt/with space" {
		t.Errorf("unescape = %q", got)
	}
}

// cpuTicks is the user+system CPU of pid in clock ticks (/proc/PID/stat).
func cpuTicks(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	// After the state (f[0]): utime and stime are fields 14 and 15 of stat, 12 and 13 here.
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

// freezers are the mechanisms this machine offers, each forced.
func freezers(t *testing.T) []Freezer {
	name := "wirebench-test-" + strconv.Itoa(os.Getpid())
	out := []Freezer{&signalFreezer{}}
	for _, m := range []Method{CgroupV2, CgroupV1} {
		f, err := openCgroup(m, name+"-"+string(m))
		if err != nil {
			t.Logf("%s: not here: %v", m, err)
			continue
		}
		out = append(out, f)
	}
	return out
}

// A busy process stops using CPU while its group is frozen and uses it again once
// thawed, whatever the mechanism; a child it started is frozen with it; Close lets
// it run on outside any group and removes the group's cgroup.
func TestFreezeStopsAndThawResumes(t *testing.T) {
	for _, f := range freezers(t) {
		t.Run(string(f.Method()), func(t *testing.T) {
			defer func() {
				if err := f.Close(); err != nil {
					t.Error(err)
				}
			}()
			// The shell spins and has a spinning child of its own.
			cmd := exec.Command("sh", "-c", "sh -c 'while :; do :; done' & while :; do :; done")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				for _, c := range descendants(cmd.Process.Pid) {
					syscallKill(c)
				}
				cmd.Process.Kill()
				cmd.Wait()
			}()
			var child int
			waitFor(t, "the child to start", func() bool {
				d := descendants(cmd.Process.Pid)
				if len(d) > 0 {
					child = d[0]
				}
				return child != 0
			})
			g, err := f.NewGroup("busy")
			if err != nil {
				t.Fatal(err)
			}
			closed := false
			defer func() {
				if !closed {
					g.Close() // a frozen process takes no signal under cgroup v1's freezer
				}
			}()
			if err := g.Add(cmd.Process.Pid); err != nil { // the child was started before: Add takes it too
				t.Fatal(err)
			}
			if err := g.Freeze(); err != nil {
				t.Fatal(err)
			}
			p0, c0 := cpuTicks(t, cmd.Process.Pid), cpuTicks(t, child)
			time.Sleep(300 * time.Millisecond) // 30 clock ticks: a spinning process would use some
			if p1, c1 := cpuTicks(t, cmd.Process.Pid), cpuTicks(t, child); p1 != p0 || c1 != c0 {
				t.Fatalf("frozen, the processes used CPU: parent %d → %d ticks, child %d → %d", p0, p1, c0, c1)
			}
			if err := g.Thaw(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the thawed processes to use CPU", func() bool {
				return cpuTicks(t, cmd.Process.Pid) > p0 && cpuTicks(t, child) > c0
			})
			closed = true
			if err := g.Close(); err != nil {
				t.Fatal(err)
			}
			if cg, ok := g.(*cgroupGroup); ok {
				if _, err := os.Stat(cg.dir); !os.IsNotExist(err) {
					t.Errorf("the group's cgroup %s is still there: %v", cg.dir, err)
				}
			}
			p2 := cpuTicks(t, cmd.Process.Pid)
			waitFor(t, "the released process to run on", func() bool { return cpuTicks(t, cmd.Process.Pid) > p2 })
		})
	}
}

// A group whose processes have exited closes cleanly (a target whose worker died).
func TestCloseAfterExit(t *testing.T) {
	for _, f := range freezers(t) {
		t.Run(string(f.Method()), func(t *testing.T) {
			defer f.Close()
			cmd := exec.Command("sleep", "30")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			g, err := f.NewGroup("gone")
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Add(cmd.Process.Pid); err != nil {
				t.Fatal(err)
			}
			if err := g.Freeze(); err != nil {
				t.Fatal(err)
			}
			if err := g.Thaw(); err != nil { // a process frozen by cgroup v1 takes no signal, not even SIGKILL
				t.Fatal(err)
			}
			cmd.Process.Kill()
			cmd.Wait()
			if err := g.Close(); err != nil {
				t.Fatal(err)
			}
			if cf, ok := f.(*cgroupFreezer); ok {
				if err := cf.Close(); err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(filepath.Dir(cf.dir + "/x")); !os.IsNotExist(err) {
					t.Errorf("the freezer's cgroup %s is still there", cf.dir)
				}
			}
		})
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func syscallKill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// BenchmarkFreezeThaw is what isolating a target costs a slice: one Thaw before it
// and one Freeze (waiting until every thread is stopped) after it, for a process of
// 40 idle threads (a JVM worker has 30 to 40), by each mechanism here. Run alone,
// under the CPU lock (docs/method.md, "Isolation"):
//
//	flock /tmp/wirebench-cpu.lock go test -run '^$' -bench FreezeThaw ./internal/freeze
func BenchmarkFreezeThaw(b *testing.B) {
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("needs python3 for a process of many threads")
	}
	name := "wirebench-bench-" + strconv.Itoa(os.Getpid())
	fs := []Freezer{&signalFreezer{}}
	for _, m := range []Method{CgroupV2, CgroupV1} {
		if f, err := openCgroup(m, name+"-"+string(m)); err == nil {
			fs = append(fs, f)
		}
	}
	for _, f := range fs {
		b.Run(string(f.Method()), func(b *testing.B) {
			defer f.Close()
			cmd := exec.Command(py, "-c", "import threading,time\nfor _ in range(39): threading.Thread(target=time.sleep,args=(600,),daemon=True).start()\ntime.sleep(600)")
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			defer func() { cmd.Process.Kill(); cmd.Wait() }()
			time.Sleep(300 * time.Millisecond) // its threads started
			g, err := f.NewGroup("bench")
			if err != nil {
				b.Fatal(err)
			}
			defer g.Close()
			if err := g.Add(cmd.Process.Pid); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if err := g.Thaw(); err != nil {
					b.Fatal(err)
				}
				if err := g.Freeze(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// What a killed driver left frozen is thawed by the next freezer opened: a frozen
// process of a freezer whose process is gone runs again, and its empty cgroups go.
func TestOpenReleasesStaleFreezers(t *testing.T) {
	mnt, own, err := mountOf(CgroupV2)
	if err != nil {
		t.Skipf("no cgroup v2 hierarchy: %v", err)
	}
	// A pid no process has: the highest possible, not running.
	stale := filepath.Join(mnt, own, "wbstale-4194303")
	if _, err := os.Stat("/proc/4194303"); err == nil {
		t.Skip("pid 4194303 runs")
	}
	if err := os.MkdirAll(filepath.Join(stale, "t0-f0"), 0o755); err != nil {
		t.Skipf("cannot make a cgroup here: %v", err)
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	g := &cgroupGroup{f: &cgroupFreezer{method: CgroupV2, home: filepath.Join(mnt, own)}, dir: filepath.Join(stale, "t0-f0")}
	defer g.Close()
	if err := g.Add(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if err := g.Freeze(); err != nil {
		t.Fatal(err)
	}
	f, err := openCgroup(CgroupV2, "wbstale-"+strconv.Itoa(os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ev, _ := os.ReadFile(filepath.Join(stale, "t0-f0", "cgroup.events"))
	if strings.Contains(string(ev), "frozen 1") {
		t.Errorf("the stale group is still frozen: %s", ev)
	}
	// Still populated by the sleeping process, so it stays; empty, it would go.
	g.Close()
	f2, err := openCgroup(CgroupV2, "wbstale-"+strconv.Itoa(os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	f2.Close()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale freezer's empty cgroup %s is still there: %v", stale, err)
	}
}
