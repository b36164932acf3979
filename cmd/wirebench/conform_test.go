package main

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

// wrongLinks is the reference service whose GetPersonLinks answers person 2's links
// with the second link's persons swapped: a real server of it answers one operation
// wrongly.
type wrongLinks struct{ *contract.Reference }

func (w wrongLinks) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	l, err := w.Reference.GetPersonLinks(ctx, id)
	if id == 2 && len(l) > 1 {
		l = append([]contract.PersonLink(nil), l...)
		l[1].P1, l[1].P2 = l[1].P2, l[1].P1
	}
	return l, err
}

func TestConformNamesTheWrongOperation(t *testing.T) {
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	tg := protocoltest.Start(t, "http-json", "tcp", wrongLinks{contract.NewReference(ds)}, protocol.ServerConfig{})
	code, stdout, stderr := runCLI(t, "conform", "-p", "http-json", "--address", tg.Addr.String())
	if code != exitFailure {
		t.Errorf("exit %d, want %d\n%s", code, exitFailure, stderr)
	}
	links, _ := ds.Links(2)
	// The second link is person 2 and person 4: swapped, every field of p1 and p2 that
	// differs between the two persons is named; the id first.
	want := "FAIL  GetPersonLinks(2)\n        links[1].p1.id: expected " + itoa(links[1].P1.ID) + ", got " + itoa(links[1].P2.ID) + "\n"
	if !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	if !strings.Contains(stdout, "ok    GetPersonLinks(1)\n") || strings.Count(stdout, "FAIL") != 1 {
		t.Errorf("want every other operation ok:\n%s", stdout)
	}
	if !strings.Contains(stderr, "the server does not conform") {
		t.Errorf("stderr: %s", stderr)
	}
}

func TestConformPassesAConformingServer(t *testing.T) {
	for _, p := range []string{"grpc-proto", "capnp"} {
		tg := protocoltest.Start(t, p, "unix", nil, protocol.ServerConfig{})
		code, stdout, stderr := runCLI(t, "conform", "-q", "-p", p, "--address", tg.Addr.String())
		if code != exitOK || !strings.Contains(stdout, "conforms: ") || strings.Contains(stdout, "ok ") {
			t.Errorf("%s: exit %d\n%s\n%s", p, code, stdout, stderr)
		}
	}
}

func TestConformUsage(t *testing.T) {
	for _, args := range [][]string{
		{"conform", "-p", "direct", "--address", "tcp://127.0.0.1:1"},
		{"conform", "-p", "nope", "--address", "tcp://127.0.0.1:1"},
		{"conform", "-p", "http-json", "--address", "udp://x"},
		{"conform", "-p", "grpc-proto", "--stack", "tonic", "--address", "tcp://127.0.0.1:1"},
	} {
		if code, _, stderr := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitUsage, stderr)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// The server's address under its former names, --target, -t and WIREBENCH_TARGET
// (--address, -a and WIREBENCH_ADDRESS since 2026-11-29), still reaches the server,
// with one note on stderr naming the new name; the new names give none, and a flag
// wins over the environment.
func TestConformFormerAddress(t *testing.T) {
	tg := protocoltest.Start(t, "grpc-proto", "unix", nil, protocol.ServerConfig{})
	addr := tg.Addr.String()
	flagNote := "wirebench: --target is deprecated: it is --address now (read as --address)\n"
	envNote := "wirebench: WIREBENCH_TARGET is deprecated: it is WIREBENCH_ADDRESS now (read as WIREBENCH_ADDRESS)\n"
	for _, c := range []struct {
		env, args []string // env: KEY, VALUE
		note      string
	}{
		{nil, []string{"--target", addr}, flagNote},
		{nil, []string{"-t", addr}, flagNote},
		{[]string{"WIREBENCH_TARGET", addr}, nil, envNote},
		{nil, []string{"-a", addr}, ""},
		{[]string{"WIREBENCH_ADDRESS", addr}, nil, ""},
		{[]string{"WIREBENCH_ADDRESS", "unix:///nonexistent/none.sock"}, []string{"--target", addr}, flagNote},
	} {
		t.Run(strings.Join(append(slices.Clone(c.env), c.args...), " "), func(t *testing.T) {
			if c.env != nil {
				t.Setenv(c.env[0], c.env[1])
			}
			code, stdout, stderr := runCLI(t, append([]string{"conform", "-q", "-p", "grpc-proto"}, c.args...)...)
			if code != exitOK || !strings.Contains(stdout, "conforms: ") {
				t.Errorf("exit %d, want 0 and the server conforming\n%s%s", code, stdout, stderr)
			}
			if (c.note == "" && strings.Contains(stderr, "deprecated")) || (c.note != "" && strings.Count(stderr, "deprecated") != 1) || !strings.Contains(stderr, c.note) {
				t.Errorf("stderr %q, want the note %q alone", stderr, c.note)
			}
		})
	}
	code, _, stderr := runCLI(t, "conform", "-p", "grpc-proto", "--target", addr, "--address", addr)
	if code != exitUsage || !strings.Contains(stderr, "--target and --address are one flag") {
		t.Errorf("conform --target and --address: exit %d, %s; want 2 and a refusal naming both", code, stderr)
	}
}
