//go:build linux

package freeze

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func open(prefix string) (Freezer, error) {
	name := fmt.Sprintf("%s-%d", prefix, os.Getpid())
	var why []string
	for _, m := range []Method{CgroupV2, CgroupV1} {
		f, err := openCgroup(m, name)
		if err == nil {
			f.why = why
			return f, nil
		}
		why = append(why, fmt.Sprintf("%s: %v", m, err))
	}
	return &signalFreezer{why: why}, nil
}

// cgroupFreezer makes one cgroup per group under a cgroup of its own.
type cgroupFreezer struct {
	method Method
	// home is the cgroup this process was in (its processes go back there on
	// Close); dir is the freezer's own, under home.
	home, dir string
	why       []string
}

func openCgroup(m Method, name string) (*cgroupFreezer, error) {
	mnt, own, err := mountOf(m)
	if err != nil {
		return nil, err
	}
	home := filepath.Join(mnt, own)
	prefix, _, _ := strings.Cut(name, "-")
	releaseStale(m, home, prefix+"-")
	dir := filepath.Join(home, name)
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, err
	}
	f := &cgroupFreezer{method: m, home: home, dir: dir}
	if _, err := os.Stat(filepath.Join(dir, f.stateFile())); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("no %s in %s (a kernel older than 5.2 has no cgroup v2 freezer)", f.stateFile(), dir)
	}
	return f, nil
}

// releaseStale thaws and removes what a freezer of an earlier process left under home
// (cgroups named prefix + the pid of a process that no longer runs): a driver killed
// with SIGKILL cannot thaw its targets, and a frozen JVM worker, which exits when its
// standard input closes, would stay frozen for ever. Once thawed, its processes see
// their driver gone and exit; a cgroup they still populate is left for the next time.
func releaseStale(m Method, home, prefix string) {
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		pid, err := strconv.Atoi(strings.TrimPrefix(e.Name(), prefix))
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) || err != nil || pid <= 0 {
			continue
		}
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
			continue // its freezer's process still runs
		}
		dir := filepath.Join(home, e.Name())
		groups, _ := os.ReadDir(dir)
		for _, g := range groups {
			if g.IsDir() {
				(&cgroupGroup{f: &cgroupFreezer{method: m, home: home}, dir: filepath.Join(dir, g.Name())}).Thaw()
				os.Remove(filepath.Join(dir, g.Name()))
			}
		}
		os.Remove(dir)
	}
}

func (f *cgroupFreezer) Method() Method    { return f.method }
func (f *cgroupFreezer) reasons() []string { return f.why }

func (f *cgroupFreezer) stateFile() string {
	if f.method == CgroupV2 {
		return "cgroup.freeze"
	}
	return "freezer.state"
}

func (f *cgroupFreezer) NewGroup(name string) (Group, error) {
	dir := filepath.Join(f.dir, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("freeze: %w", err)
	}
	return &cgroupGroup{f: f, dir: dir}, nil
}

func (f *cgroupFreezer) Close() error {
	return removeCgroup(f.dir)
}

// removeCgroup removes an empty cgroup; a process that has just exited may still be
// counted for a moment, so it tries for a while.
func removeCgroup(dir string) error {
	var err error
	for range 50 {
		if err = os.Remove(dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("freeze: removing %s: %w", dir, err)
}

type cgroupGroup struct {
	f   *cgroupFreezer
	dir string
}

// Add moves pid and the processes it has started so far into the group's cgroup;
// those it starts later are born in it.
func (g *cgroupGroup) Add(pid int) error {
	if err := writeFile(filepath.Join(g.dir, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
		return err
	}
	for _, c := range descendants(pid) {
		// One that exits meanwhile (ESRCH) needs no freezing.
		if err := writeFile(filepath.Join(g.dir, "cgroup.procs"), strconv.Itoa(c)); err != nil && !errors.Is(err, syscall.ESRCH) {
			return err
		}
	}
	return nil
}

func (g *cgroupGroup) Freeze() error {
	if g.f.method == CgroupV2 {
		if err := writeFile(filepath.Join(g.dir, "cgroup.freeze"), "1"); err != nil {
			return err
		}
		events := filepath.Join(g.dir, "cgroup.events")
		return waitUntil("freezing "+g.dir, func() (bool, error) {
			b, err := os.ReadFile(events)
			return bytes.Contains(b, []byte("frozen 1")), err
		})
	}
	if err := writeFile(filepath.Join(g.dir, "freezer.state"), "FROZEN"); err != nil {
		return err
	}
	state := filepath.Join(g.dir, "freezer.state")
	return waitUntil("freezing "+g.dir, func() (bool, error) {
		b, err := os.ReadFile(state)
		return strings.TrimSpace(string(b)) == "FROZEN", err
	})
}

func (g *cgroupGroup) Thaw() error {
	if g.f.method == CgroupV2 {
		return writeFile(filepath.Join(g.dir, "cgroup.freeze"), "0")
	}
	return writeFile(filepath.Join(g.dir, "freezer.state"), "THAWED")
}

// Close thaws the group, moves the processes still in it back to the freezer's
// home cgroup and removes it.
func (g *cgroupGroup) Close() error {
	err := g.Thaw()
	b, rerr := os.ReadFile(filepath.Join(g.dir, "cgroup.procs"))
	if rerr != nil {
		return errors.Join(err, rerr)
	}
	for _, f := range strings.Fields(string(b)) {
		// A process that exits meanwhile cannot be moved (ESRCH): it leaves anyway.
		if werr := writeFile(filepath.Join(g.f.home, "cgroup.procs"), f); werr != nil && !errors.Is(werr, syscall.ESRCH) {
			err = errors.Join(err, werr)
		}
	}
	return errors.Join(err, removeCgroup(g.dir))
}

func writeFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("freeze: %w", err)
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("freeze: writing %q to %s: %w", s, path, err)
	}
	return nil
}

// mountOf finds where the hierarchy of m is mounted (/proc/self/mountinfo) and this
// process's cgroup in it (/proc/self/cgroup).
func mountOf(m Method) (mnt, own string, err error) {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", "", err
	}
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", "", err
	}
	return findMount(m, mi, cg)
}

// findMount is mountOf on the two files' contents.
func findMount(m Method, mountinfo, cgroup []byte) (mnt, own string, err error) {
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	for sc.Scan() {
		// 41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 || f[3] != "/" {
			continue // a bind mount of a part of a hierarchy: not its root
		}
		switch {
		case m == CgroupV2 && g[0] == "cgroup2":
			mnt = unescape(f[4])
		case m == CgroupV1 && g[0] == "cgroup" && slices.Contains(strings.Split(g[2], ","), "freezer"):
			mnt = unescape(f[4])
		}
		if mnt != "" {
			break
		}
	}
	if mnt == "" {
		return "", "", fmt.Errorf("no %s hierarchy is mounted", m)
	}
	for line := range strings.SplitSeq(string(cgroup), "\n") {
		// 0::/path (v2) or 6:freezer:/path (v1)
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if (m == CgroupV2 && parts[0] == "0" && parts[1] == "") ||
			(m == CgroupV1 && slices.Contains(strings.Split(parts[1], ","), "freezer")) {
			return mnt, parts[2], nil
		}
	}
	return "", "", fmt.Errorf("this process is in no %s cgroup", m)
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// signalFreezer stops groups with SIGSTOP and resumes them with SIGCONT.
type signalFreezer struct{ why []string }

func (f *signalFreezer) Method() Method                 { return Signals }
func (f *signalFreezer) reasons() []string              { return f.why }
func (f *signalFreezer) NewGroup(string) (Group, error) { return &signalGroup{}, nil }
func (f *signalFreezer) Close() error                   { return nil }

type signalGroup struct {
	pids    []int
	stopped []int // what the last Freeze stopped, resumed by Thaw
}

func (g *signalGroup) Add(pid int) error {
	g.pids = append(g.pids, pid)
	if g.stopped != nil {
		return g.stop([]int{pid})
	}
	return nil
}

// Freeze stops every process of the group and their descendants (found now, so
// that a child started since the last Freeze is stopped too).
func (g *signalGroup) Freeze() error {
	var all []int
	for _, p := range g.pids {
		all = append(all, p)
		all = append(all, descendants(p)...)
	}
	g.stopped = []int{}
	return g.stop(all)
}

func (g *signalGroup) stop(pids []int) error {
	var live []int
	for _, p := range pids {
		if err := syscall.Kill(p, syscall.SIGSTOP); err == nil {
			live = append(live, p)
		}
	}
	g.stopped = append(g.stopped, live...)
	return waitUntil("stopping processes", func() (bool, error) {
		for _, p := range live {
			if s := procState(p); s != 'T' && s != 't' && s != 'Z' && s != 0 {
				return false, nil
			}
		}
		return true, nil
	})
}

func (g *signalGroup) Thaw() error {
	for _, p := range g.stopped {
		syscall.Kill(p, syscall.SIGCONT)
	}
	g.stopped = nil
	return nil
}

func (g *signalGroup) Close() error { return g.Thaw() }

// procState is the state letter of /proc/PID/stat (0: the process is gone).
func procState(pid int) byte {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) S ...: comm may hold spaces and parentheses; the state follows
	// the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return 0
	}
	return b[i+2]
}

// descendants are the processes pid started, and theirs (/proc/PID/task/TID/children).
func descendants(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
				out = append(out, descendants(c)...)
			}
		}
	}
	return out
}
