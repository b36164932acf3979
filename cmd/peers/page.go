package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wirebench/wirebench/internal/host"
	"github.com/wirebench/wirebench/protocol"
	_ "github.com/wirebench/wirebench/stack/all" // the stacks' registry
)

// machine is what the page says about where it was measured.
type machine struct {
	date, cpu, kernel, goVersion string
	cores                        int
	versions                     map[string]string
}

func readMachine() machine {
	h := host.ReadHost()
	m := machine{date: time.Now().UTC().Format("2006-01-02"), cores: runtime.NumCPU(),
		goVersion: runtime.Version(), versions: map[string]string{}, cpu: h.CPUModel, kernel: h.Kernel}
	first := func(name string, args ...string) string {
		out, _ := exec.Command(name, args...).CombinedOutput()
		l, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		return strings.TrimSpace(l)
	}
	m.versions["wrk"] = strings.Join(strings.Fields(first("wrk", "-v"))[:min(2, len(strings.Fields(first("wrk", "-v"))))], " ")
	m.versions["h2load"] = first("h2load", "--version")
	m.versions["fortio"] = "fortio " + first("fortio", "version")
	if p, err := exec.LookPath("ghz"); err == nil {
		for _, l := range strings.Split(first2("go", "version", "-m", p), "\n") {
			if f := strings.Fields(l); len(f) >= 3 && f[0] == "mod" {
				m.versions["ghz"] = "ghz " + f[2]
			}
		}
	}
	return m
}

func first2(name string, args ...string) string {
	out, _ := exec.Command(name, args...).CombinedOutput()
	return string(out)
}

func printTable(w io.Writer, rs []*result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "protocol\tclient\tin flight\trequests/s\tclient CPU µs/req\tclient core\tserver core\terrors\t")
	for _, r := range rs {
		if r.err != nil {
			fmt.Fprintf(tw, "%s\t%s\t%d\tfailed\t\t\t\t\t\n", r.protocol, r.tool, r.inflight)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f (%.0f–%.0f)\t%.1f (%.1f–%.1f)\t%.0f%%\t%.0f%%\t%d\t\n", r.protocol, r.tool, r.inflight,
			r.rate, r.rateMin, r.rateMax, r.cpuPerReq(), r.cpuMin, r.cpuMax, r.clientBusy()*100, r.serverBusy*100, r.errors)
	}
	tw.Flush()
}

// clientBusy is the client's CPU time over the run (1 = one core saturated).
func (r *result) clientBusy() float64 { return r.busy }

// writePage replaces the part of the page between the markers (or creates the page).
func writePage(o *options, rs []*result) error {
	var b strings.Builder
	m := o.machine
	fmt.Fprintf(&b, "%s\n\nMeasured %s by `make peers` (cmd/peers): %s, %d CPUs, Linux %s, %s; %s.\n",
		beginMarker, m.date, m.cpu, m.cores, m.kernel, m.goVersion,
		strings.Join([]string{m.versions["wrk"], m.versions["h2load"], m.versions["fortio"], m.versions["ghz"]}, ", "))
	fmt.Fprintf(&b, "Server: `taskset -c %d bin/wirebench serve -p PROTOCOL --listen tcp://127.0.0.1:PORT`; "+
		"every client pinned to CPU %d, %v per run, one run at a time; each client ran %d times, "+
		"the runs going round the clients, and each figure is the median of its runs, with the "+
		"lowest and highest in brackets.\n"+
		"Client CPU = user + system time of the client process ÷ requests (wirebench: its client "+
		"worker over the measured slices, as its results report it); client and server core = "+
		"CPU time ÷ wall time (100 %% = one core busy); errors are summed over the runs.\n",
		o.serverCPU, o.clientCPU, o.duration, o.repeat)
	fmt.Fprintf(&b, "Server stacks (each protocol's default): %s.\n\n", serverStacks(rs))
	b.WriteString("| protocol | client | in flight | requests/s | client CPU µs/req | client core | server core | errors |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rs {
		if r.err != nil {
			fmt.Fprintf(&b, "| %s | %s | %d | failed: %s | | | | |\n", r.protocol, r.tool, r.inflight,
				strings.ReplaceAll(firstLine(r.err.Error()), "|", "\\|"))
			continue
		}
		note := ""
		if r.failed > 0 {
			note = fmt.Sprintf(" (%d of %d runs failed)", r.failed, r.repeats)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s (%s–%s) | %.1f (%.1f–%.1f) | %.0f %% | %.0f %% | %d%s |\n", r.protocol, r.tool, r.inflight,
			thousands(r.rate), thousands(r.rateMin), thousands(r.rateMax), r.cpuPerReq(), r.cpuMin, r.cpuMax,
			r.clientBusy()*100, r.serverBusy*100, r.errors, note)
	}
	b.WriteString("\nTargets (wirebench ÷ the peer, same protocol and calls in flight; wirebench is the protocol's default client stack, wirebench-instrument the instrument):\n\n")
	b.WriteString(targets(rs))
	b.WriteString("\nCommands (N = calls in flight):\n\n```sh\n")
	seen := map[string]bool{}
	for _, r := range rs {
		if r.inflight != o.inflight[len(o.inflight)-1] || seen[r.protocol+r.tool] {
			continue
		}
		seen[r.protocol+r.tool] = true
		b.WriteString(strings.ReplaceAll(r.command, o.workDir, "$DIR"))
		if r.note != "" {
			b.WriteString("   # " + r.note)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "```\n\n%s\n", endMarker)

	old, err := os.ReadFile(o.out)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	page := string(old)
	i, j := strings.Index(page, beginMarker), strings.Index(page, endMarker)
	switch {
	case i >= 0 && j > i:
		page = page[:i] + b.String() + page[j+len(endMarker)+1:]
	default:
		page = "# wirebench against wrk, h2load, fortio and ghz\n\n" + b.String() + page
	}
	return os.WriteFile(o.out, []byte(page), 0o644)
}

// serverStacks names the default server stack of each protocol measured: what
// `wirebench serve -p PROTOCOL` starts.
func serverStacks(rs []*result) string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rs {
		if seen[r.protocol] {
			continue
		}
		seen[r.protocol] = true
		name := "?"
		if s, err := protocol.LookupStack(wireProtocol(r.protocol), "", protocol.ServerSide); err == nil {
			name = s.Name
		}
		out = append(out, r.protocol+" "+name)
	}
	return strings.Join(out, ", ")
}

// targets states the issues' targets per in-flight count, for each wirebench row:
// client CPU per request against wrk's (http-json, both clients), against 0.2 × ghz's
// (grpc-proto, the default client) or against 1.3 × h2load's and 0.1 × ghz's
// (grpc-proto, the instrument), against h2load's with no target (http-json over h2c),
// and the rate against the best peer's where the server was the bottleneck.
func targets(rs []*result) string {
	var b strings.Builder
	find := func(proto, tool string, n int) *result {
		for _, r := range rs {
			if r.protocol == proto && r.tool == tool && r.inflight == n && r.err == nil {
				return r
			}
		}
		return nil
	}
	cpu := func(r, p *result, bound float64, name string) string {
		ratio := r.cpuPerReq() / p.cpuPerReq()
		if r.tool == instrumentTool && r.protocol == "grpc-proto" && r.inflight < 16 {
			// The instrument's gRPC targets are set at 16 and 64 calls in flight.
			return fmt.Sprintf("CPU/req %.2f × %s's (no target at %d in flight)", ratio, name, r.inflight)
		}
		return fmt.Sprintf("CPU/req %.2f × %s's (target ≤ %g: %s)", ratio, name, bound, met(ratio <= bound))
	}
	for _, r := range rs {
		if !isWirebench(r.tool) || r.err != nil {
			continue
		}
		parts := []string{}
		switch r.protocol {
		case "http-json":
			if p := find(r.protocol, "wrk", r.inflight); p != nil {
				parts = append(parts, cpu(r, p, 1, "wrk"))
				if f := find(r.protocol, "floor", r.inflight); f != nil {
					parts = append(parts, fmt.Sprintf("the floor client costs %.2f × wrk's", f.cpuPerReq()/p.cpuPerReq()))
				}
			}
		case jsonH2c:
			if p := find(r.protocol, "h2load", r.inflight); p != nil {
				parts = append(parts, fmt.Sprintf("CPU/req %.2f × h2load's (no target set)", r.cpuPerReq()/p.cpuPerReq()))
			}
		case "grpc-proto":
			if p := find(r.protocol, "h2load", r.inflight); p != nil && r.tool == instrumentTool {
				parts = append(parts, cpu(r, p, 1.3, "h2load"))
			}
			if p := find(r.protocol, "ghz", r.inflight); p != nil {
				bound := 0.2
				if r.tool == instrumentTool {
					bound = 0.1
				}
				parts = append(parts, cpu(r, p, bound, "ghz"))
			}
		}
		var best *result
		for _, p := range rs {
			if p.protocol == r.protocol && p.inflight == r.inflight && !isWirebench(p.tool) && p.tool != "floor" && p.err == nil && (best == nil || p.rate > best.rate) {
				best = p
			}
		}
		if best != nil {
			s := fmt.Sprintf("rate %.2f × the fastest peer's (%s)", r.rate/best.rate, best.tool)
			if best.serverBusy >= 0.9 {
				// The server was the bottleneck for that peer: wirebench must reach it
				// (within the run-to-run noise of a few per cent).
				s += fmt.Sprintf(", server-bound at %.0f %%: %s", best.serverBusy*100, met(r.rate >= 0.97*best.rate))
				if r.rate < 0.97*best.rate && r.rateMax >= best.rateMin {
					s += fmt.Sprintf(" (the runs' ranges overlap: %s–%s against %s–%s)",
						thousands(r.rateMin), thousands(r.rateMax), thousands(best.rateMin), thousands(best.rateMax))
				}
			} else {
				s += fmt.Sprintf(", server %.0f %% busy: not server-bound", best.serverBusy*100)
			}
			parts = append(parts, s)
		}
		fmt.Fprintf(&b, "- %s, %s, %d in flight: %s.\n", r.tool, r.protocol, r.inflight, strings.Join(parts, "; "))
	}
	return b.String()
}

// instrumentTool is the row of wirebench with the instrument client stack.
const instrumentTool = "wirebench-instrument"

func isWirebench(tool string) bool { return tool == "wirebench" || tool == instrumentTool }

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func thousands(f float64) string {
	s := fmt.Sprintf("%.0f", f)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
