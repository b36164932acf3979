package main

import (
	"context"
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
	code, stdout, stderr := runCLI(t, "conform", "-p", "http-json", "--target", tg.Addr.String())
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
		code, stdout, stderr := runCLI(t, "conform", "-q", "-p", p, "--target", tg.Addr.String())
		if code != exitOK || !strings.Contains(stdout, "conforms: ") || strings.Contains(stdout, "ok ") {
			t.Errorf("%s: exit %d\n%s\n%s", p, code, stdout, stderr)
		}
	}
}

func TestConformUsage(t *testing.T) {
	for _, args := range [][]string{
		{"conform", "-p", "direct", "--target", "tcp://127.0.0.1:1"},
		{"conform", "-p", "nope", "--target", "tcp://127.0.0.1:1"},
		{"conform", "-p", "http-json", "--target", "udp://x"},
		{"conform", "-p", "grpc-proto", "--stack", "tonic", "--target", "tcp://127.0.0.1:1"},
	} {
		if code, _, stderr := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitUsage, stderr)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
