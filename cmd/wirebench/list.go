package main

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
)

type listCmd struct {
	Wide bool `help:"One line per stack, with its every library and its description, however wide."`
}

// listWidth is what the stacks' lines of `wirebench list` fit without --wide: an
// 80-column terminal. The other tables' lines are a little wider (under 100).
const listWidth = 80

// listedStack is one stack's row of `wirebench list`.
type listedStack struct {
	cells     []string // PROTOCOL, STACK, SIDES, LANGUAGE, TIER
	summary   string
	libraries []string
	// missing says why its worker cannot start here ("": it can).
	missing string
}

func (c listCmd) Run(e *env) error {
	// bufio keeps the first write error, and Flush returns it.
	out := bufio.NewWriter(e.stdout)
	w := tabwriter.NewWriter(out, 2, 8, 2, ' ', 0)
	fmt.Fprintln(w, "PROTOCOL\tDESCRIPTION")
	for _, p := range protocol.All() {
		fmt.Fprintf(w, "%s\t%s\n", p.Name, p.Summary)
	}
	fmt.Fprintln(w)
	var stacks []listedStack
	opt := launchOptions()
	for _, p := range protocol.All() {
		for _, st := range protocol.Stacks(p.Name) {
			name := st.Name
			if st.Name == p.DefaultServer || st.Name == p.DefaultClient {
				name += " (default)"
			}
			missing := ""
			if err := workerMissing(st, opt); err != nil {
				missing = err.Error()
			}
			stacks = append(stacks, listedStack{[]string{p.Name, name, st.Sides.String(), st.Language, string(st.Tier)},
				st.Summary, libraries(st.Libraries), missing})
		}
	}
	if c.Wide {
		fmt.Fprintln(w, "PROTOCOL\tSTACK\tSIDES\tLANGUAGE\tTIER\tLIBRARIES\tDESCRIPTION")
		for _, st := range stacks {
			desc := st.summary
			if st.missing != "" {
				desc = "NOT BUILT here: " + st.missing + "; " + desc
			}
			fmt.Fprintf(w, "%s\t%s\t%s\n", strings.Join(st.cells, "\t"), strings.Join(st.libraries, " "), desc)
		}
	} else {
		if err := w.Flush(); err != nil {
			return err
		}
		writeStacks(out, stacks)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "WORKLOAD\tPARAMETERS\tDESCRIPTION")
	for _, wl := range append(contract.Workloads(), contract.CallWorkload) {
		fmt.Fprintf(w, "%s\t%s\t%s\n", wl.Name, workloadParams(wl), wl.Summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "TRANSPORT\tADDRESS")
	fmt.Fprintln(w, "tcp\ttcp://HOST:PORT")
	fmt.Fprintln(w, "tls\ttcp://HOST:PORT (TLS 1.3 on TCP: --tls or --transport tls)")
	fmt.Fprintln(w, "unix\tunix:///PATH")
	fmt.Fprintln(w, "quic\tudp://HOST:PORT (HTTP/3 stacks only: --transport quic)")
	if err := w.Flush(); err != nil {
		return err
	}
	return out.Flush()
}

// writeStacks writes the stacks as a table of their short cells, each row followed
// by the stack's description and libraries, indented and wrapped to listWidth.
func writeStacks(w io.Writer, stacks []listedStack) {
	head := []string{"PROTOCOL", "STACK", "SIDES", "LANGUAGE", "TIER"}
	widths := make([]int, len(head))
	for _, cells := range append([][]string{head}, cellsOf(stacks)...) {
		for i, c := range cells {
			widths[i] = max(widths[i], len(c))
		}
	}
	row := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			fmt.Fprintf(&b, "%-*s  ", widths[i], c)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	const indent, libs = "    ", "    libraries: "
	row(head)
	for _, st := range stacks {
		row(st.cells)
		for _, l := range wrap(strings.Fields(st.summary), listWidth-len(indent)) {
			fmt.Fprintln(w, indent+l)
		}
		for i, l := range wrap(st.libraries, listWidth-len(libs)) {
			if i == 0 {
				fmt.Fprintln(w, libs+l)
			} else {
				fmt.Fprintln(w, strings.Repeat(" ", len(libs))+l)
			}
		}
		if st.missing != "" {
			for _, l := range wrap(strings.Fields("NOT BUILT here: "+st.missing), listWidth-len(indent)) {
				fmt.Fprintln(w, indent+l)
			}
		}
	}
}

func cellsOf(stacks []listedStack) [][]string {
	out := make([][]string, len(stacks))
	for i, st := range stacks {
		out[i] = st.cells
	}
	return out
}

// wrap joins words with spaces into lines of at most width runes; a word longer
// than width has a line of its own.
func wrap(words []string, width int) []string {
	var lines []string
	var cur string
	for _, word := range words {
		switch {
		case cur == "":
			cur = word
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) <= width:
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// libraries lists a stack's libraries as name@version, sorted.
func libraries(libs map[string]string) []string {
	var out []string
	for k, v := range libs {
		out = append(out, k+"@"+v)
	}
	sort.Strings(out)
	return out
}

func workloadParams(w *contract.Workload) string {
	d := w.DefaultParams()
	var ps []string
	for _, u := range w.Uses {
		switch u {
		case "payload":
			ps = append(ps, fmt.Sprintf("payload=%dB", d.Payload))
		case "increments":
			ps = append(ps, fmt.Sprintf("increments=%d", d.Increments))
		case "trades":
			ps = append(ps, fmt.Sprintf("trades=%d", d.Trades))
		}
	}
	if len(ps) == 0 {
		return "-"
	}
	return strings.Join(ps, " ")
}
