package main

import (
	"fmt"
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
