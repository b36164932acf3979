package main

import (
	"bytes"
	"os/exec"
	"regexp"
	"testing"
)

var linkListening = regexp.MustCompile(`^listening on 127\.0\.0\.1:[1-9][0-9]*\n$`)

// With --exit-with-stdin the link proxy ends, status 0, when its parent closes its
// stdin (as a JVM worker's pipe closes when the JVM ends), not only on a signal.
func TestLinkExitsWithStdin(t *testing.T) {
	cmd := exec.Command(binary, "link", "--exit-with-stdin", "--upstream", "tcp://127.0.0.1:1", "--link", "delay=1ms")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	awaitLine(t, "link", stdout, &stderr, linkListening)
	stdin.Close()
	waitExit(t, cmd, "link with its stdin closed")
}
