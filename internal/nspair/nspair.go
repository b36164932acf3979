// Package nspair makes two network stacks on one machine joined by a link wirebench
// owns: two network namespaces (or one and the root namespace) and a veth pair
// between them, with an address at each end. The kernel then shapes that link: tbf
// limits its rate and an iptables statistic rule drops a share of its packets (this
// kernel has no netem, so delay comes from link/proxy instead). It runs ip, tc and
// iptables, as a person setting it up by hand would, so the commands in
// docs/distributed.md are the ones used here. Everything needs root.
package nspair

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
)

// End is one end of the link: a network namespace ("" for the root one), the veth
// device in it and its address (a /30 shared with the other end).
type End struct {
	Netns string
	Dev   string
	Addr  netip.Addr
}

// Pair is a link between two ends. Close removes what New made. Owned by one
// goroutine.
type Pair struct {
	A, B End
}

// Available says why pairs cannot be made here (nil when they can): not root, or ip
// missing.
func Available() error {
	if os.Geteuid() != 0 {
		return errors.New("network namespaces need root: run as root, or start workers on two hosts and give their URLs (docs/distributed.md)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return errors.New("network namespaces need the ip command (iproute2)")
	}
	return nil
}

var seq atomic.Uint32

// New makes a pair: end A in a new namespace, end B in another new one, or in the
// root namespace with rootB. Names and the /30 subnet derive from the process id and
// a counter, so concurrent runs and tests do not meet; a subnet already routed in
// the root namespace is skipped.
func New(rootB bool) (*Pair, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	pid := os.Getpid()
	for range 64 {
		n := seq.Add(1)
		name := fmt.Sprintf("wb%d-%d", pid%1_000_000, n%1000)
		// 10.128.0.0/9 split into /30s by (pid, n): 2^21 subnets.
		idx := (uint32(pid)<<6 | n%64) % (1 << 21)
		base := netip.AddrFrom4([4]byte{10, 128 | byte(idx>>14), byte(idx >> 6), byte(idx%64) << 2})
		p := &Pair{
			A: End{Netns: name + "a", Dev: name + "a", Addr: base.Next()},
			B: End{Netns: name + "b", Dev: name + "b", Addr: base.Next().Next()},
		}
		if rootB {
			p.B.Netns = ""
			if out, _ := run("", "ip", "-o", "addr", "show", "to", base.String()+"/30"); strings.TrimSpace(out) != "" {
				continue // some interface of this machine has it already
			}
		}
		if err := p.create(); err != nil {
			p.Close()
			return nil, err
		}
		return p, nil
	}
	return nil, errors.New("nspair: no free subnet found")
}

func (p *Pair) create() error {
	steps := [][]string{
		{"ip", "netns", "add", p.A.Netns},
		{"ip", "link", "add", p.A.Dev, "type", "veth", "peer", "name", p.B.Dev},
		{"ip", "link", "set", p.A.Dev, "netns", p.A.Netns},
	}
	if p.B.Netns != "" {
		steps = append(steps, []string{"ip", "netns", "add", p.B.Netns}, []string{"ip", "link", "set", p.B.Dev, "netns", p.B.Netns})
	}
	for _, s := range steps {
		if _, err := run("", s...); err != nil {
			return err
		}
	}
	for _, e := range []End{p.A, p.B} {
		cmds := [][]string{
			{"ip", "addr", "add", e.Addr.String() + "/30", "dev", e.Dev},
			{"ip", "link", "set", e.Dev, "up"},
		}
		if e.Netns != "" {
			cmds = append(cmds, []string{"ip", "link", "set", "lo", "up"})
		}
		for _, c := range cmds {
			if _, err := run(e.Netns, c...); err != nil {
				return err
			}
		}
	}
	return nil
}

// Shape limits the rate of each direction of the link to bits per second: a tbf
// qdisc at each end's egress. The bucket holds 4 ms at the rate, at least 64 KiB
// (a veth hands tbf TSO segments of up to 64 KiB), and a packet may queue 50 ms
// before it is dropped, as a router's buffer would.
func (p *Pair) Shape(bits int64) error {
	burst := max(bits/8/250, 64<<10)
	for _, e := range []End{p.A, p.B} {
		if _, err := run(e.Netns, "tc", "qdisc", "replace", "dev", e.Dev, "root", "tbf",
			"rate", strconv.FormatInt(bits, 10)+"bit", "burst", strconv.FormatInt(burst, 10), "latency", "50ms"); err != nil {
			return err
		}
	}
	return nil
}

// Drop drops each packet leaving either end with probability loss (an iptables rule
// with the statistic match in each namespace, so both ends must be namespaces: a
// rule in the root namespace would be the machine's).
func (p *Pair) Drop(loss float64) error {
	if p.A.Netns == "" || p.B.Netns == "" {
		return errors.New("nspair: loss needs both ends in namespaces of their own")
	}
	if _, err := exec.LookPath("iptables"); err != nil {
		return errors.New("loss needs iptables (Debian: apt-get install iptables); this kernel has no netem to drop packets")
	}
	for _, e := range []End{p.A, p.B} {
		if _, err := run(e.Netns, "iptables", "-w", "-A", "OUTPUT", "-o", e.Dev, "-m", "statistic", "--mode", "random",
			"--probability", strconv.FormatFloat(loss, 'f', -1, 64), "-j", "DROP"); err != nil {
			return err
		}
	}
	return nil
}

// Exec returns argv to run inside e's namespace (argv itself for the root one).
// `ip netns exec` execs the program in place, so its pid, CPU affinity and
// parent-death signal are those the caller gives the child.
func Exec(e End, argv []string) []string {
	if e.Netns == "" {
		return argv
	}
	return append([]string{"ip", "netns", "exec", e.Netns}, argv...)
}

// Close removes the namespaces (their veth ends go with them) and a veth end left in
// the root namespace. A process still inside a namespace keeps it alive, unnamed,
// until it exits.
func (p *Pair) Close() error {
	var errs []error
	for _, e := range []End{p.A, p.B} {
		if e.Netns != "" {
			if _, err := run("", "ip", "netns", "del", e.Netns); err != nil && !strings.Contains(err.Error(), "No such file") {
				errs = append(errs, err)
			}
		}
	}
	if p.B.Netns == "" {
		run("", "ip", "link", "del", p.B.Dev) // gone already with its peer's namespace, usually
	}
	return errors.Join(errs...)
}

// run runs a command in namespace ns ("" for this one) and returns its output, or an
// error with its stderr.
func run(ns string, argv ...string) (string, error) {
	if ns != "" {
		argv = Exec(End{Netns: ns}, argv)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}
