package main

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
)

type listCmd struct{}

func (listCmd) Run(e *env) error {
	w := tabwriter.NewWriter(e.stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(w, "PROTOCOL\tDESCRIPTION")
	for _, p := range protocol.All() {
		fmt.Fprintf(w, "%s\t%s\n", p.Name, p.Summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "PROTOCOL\tSTACK\tSIDES\tLANGUAGE\tTIER\tLIBRARIES\tDESCRIPTION")
	for _, p := range protocol.All() {
		for _, st := range protocol.Stacks(p.Name) {
			name := st.Name
			if st.Name == p.DefaultServer || st.Name == p.DefaultClient {
				name += " (default)"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Name, name, st.Sides, st.Language, st.Tier, libraries(st.Libraries), st.Summary)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "WORKLOAD\tPARAMETERS\tDESCRIPTION")
	for _, wl := range contract.Workloads() {
		fmt.Fprintf(w, "%s\t%s\t%s\n", wl.Name, workloadParams(wl), wl.Summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "TRANSPORT\tADDRESS")
	fmt.Fprintln(w, "tcp\ttcp://HOST:PORT")
	fmt.Fprintln(w, "unix\tunix:///PATH")
	return w.Flush()
}

// libraries lists a stack's libraries as name@version, sorted.
func libraries(libs map[string]string) string {
	var out []string
	for k, v := range libs {
		out = append(out, k+"@"+v)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
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
