package jvm_test

// Interoperation of the JVM worker's stacks with the Go ones, through real processes:
// Go clients against the Java servers (`serve`), checked by the Go side's one contract
// check (conform.Check, as `wirebench conform` runs it), and the Java clients against
// the Go servers (`check`, which runs the worker's contract checks and exits non-zero
// on a failure: Go cannot make a Java client's calls, so that check stays in Java).
// Skipped, saying why, when java or the built jar (make java) is missing.

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/conform"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/stack/jvm"
)

// workerJar returns the path of the built JVM worker's main jar, or skips the test (fails
// it in CI).
func workerJar(t *testing.T) string {
	t.Helper()
	return familyJar(t, "")
}

// familyJar returns the path of the built jar of a stack family ("" for the main jar),
// or skips the test.
func familyJar(t *testing.T, family string) string {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		testtool.Missing(t, "java is not installed (JDK 17+ runs the JVM worker)")
	}
	// $WIREBENCH_JAVA_WORKER names the main jar, the other families' beside it, as
	// the driver finds them; else the build's place in this tree.
	dir := filepath.Join("..", "..", "workers", "java", "target")
	if main := os.Getenv(launch.JavaWorkerEnv); main != "" {
		dir = filepath.Dir(main)
	}
	jar, err := filepath.Abs(filepath.Join(dir, launch.JavaWorkerJarName(family)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(jar); err != nil {
		testtool.Missing(t, "%s is not built (run `make java`)", jar)
	}
	return jar
}

// stackJar returns the jar that runs stack s, or skips the test.
func stackJar(t *testing.T, s *protocol.Stack) string {
	t.Helper()
	return familyJar(t, s.Family)
}

// networksOf lists the transports a JVM stack's side speaks, as its jar announces them
// (stacks.json: tcp, and unix where the library can; docs/java-worker.md says which
// cannot), and tls when the side speaks TLS.
func networksOf(t *testing.T, s *protocol.Stack, side protocol.Side) []string {
	t.Helper()
	var nets []string
	for _, a := range readStacksFile(t).Stacks {
		if a.Protocol == s.Protocol && a.Name == s.Name {
			nets = slices.Clone(a.Transports)
		}
	}
	if len(nets) == 0 {
		t.Fatalf("stacks.json has no transports for %s/%s", s.Protocol, s.Name)
	}
	if s.SpeaksTLS(side) {
		nets = append(nets, spec.TLS)
	}
	return nets
}

// writeTLS writes the server's certificate and key, and the CA, of tc to files of the
// test's and returns their paths.
func writeTLS(t *testing.T, tc transport.TLS) (cert, key, ca string) {
	t.Helper()
	dir := t.TempDir()
	cert, key, ca = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), filepath.Join(dir, "ca.pem")
	for f, b := range map[string][]byte{cert: tc.CertPEM, key: tc.KeyPEM, ca: tc.CAPEM} {
		if err := os.WriteFile(f, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return cert, key, ca
}

// ephemeralTLS makes a certificate as the driver makes one for each server it starts.
func ephemeralTLS(t *testing.T) transport.TLS {
	t.Helper()
	tc, err := transport.EphemeralTLS()
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

// serveJava starts `serve` of a Java server stack and returns the address it printed,
// and over tls the certificate it serves (made here, as the driver makes one) with the
// CA its clients trust.
func serveJava(t *testing.T, jar, proto, stack, network string) (transport.Addr, transport.TLS) {
	t.Helper()
	// The JVM's own warnings to stderr, as the driver starts it: its first line on
	// stdout must be the address.
	args := append(slices.Clone(launch.JVMLogArgs), "-jar", jar, "serve", "--stack", stack, "--protocol", proto, "--listen", protocoltest.ListenAddr(t, network).String())
	var tc transport.TLS
	if network == spec.TLS {
		tc = ephemeralTLS(t)
		cert, key, _ := writeTLS(t, tc)
		args = append(args, "--tls-cert", cert, "--tls-key", key)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := exec.CommandContext(ctx, "java", args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel() // kills the process we started
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve %s: no address line: %v\n%s", stack, err, stderr.String())
	}
	a, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok {
		t.Fatalf("serve %s printed %q, want \"listening on ADDR\"", stack, line)
	}
	addr, err := transport.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	return addr, tc
}

// Each JVM server, started once per transport, answers in turn: the tools users reach
// for while it is fresh (curl on every http-json route, whose /stats counts curl's one
// echo; grpcurl on the grpc-proto servers over tcp and tls, tools_test.go), a Go client
// trusting another CA where untrustedChecked names it (tls_test.go), then the Go
// clients' contract checks. One JVM start serves all of them (they were a start each).
func TestGoClientsAgainstJavaServers(t *testing.T) {
	workerJar(t) // skips when the main jar is not built
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, s := range jvm.Stacks {
		if !s.Has(protocol.ServerSide) {
			continue
		}
		for _, network := range networksOf(t, s, protocol.ServerSide) {
			t.Run(s.Name+"/"+network, func(t *testing.T) {
				addr, tc := serveJava(t, stackJar(t, s), s.Protocol, s.Name, network)
				toolsOnJVMServer(t, s, network, addr, tc, ds)
				if network == spec.TLS && untrustedChecked[s.Name] {
					t.Run("untrusted", func(t *testing.T) { goClientRefusesUntrusted(t, s, addr) })
				}
				// The protocol's default Go client, and the instrument (the load
				// generator that measures servers) where it speaks the protocol.
				for _, client := range []string{"", "instrument"} {
					cs, err := protocol.LookupStack(s.Protocol, client, protocol.ClientSide)
					if err != nil && client == "" {
						t.Fatal(err)
					}
					if err != nil {
						continue // no instrument for this protocol
					}
					t.Run(cs.Name, func(t *testing.T) {
						ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
						defer cancel()
						if network == spec.TLS && !cs.SpeaksTLS(protocol.ClientSide) {
							t.Skipf("the Go %s client speaks no TLS", cs.Name)
						}
						cl, err := cs.Dial(ctx, protocol.ClientConfig{Address: addr, TLS: tc})
						if err != nil {
							t.Fatal(err)
						}
						defer cl.Close()
						original := conform.OriginalRefused
						if s.OriginalTrades && cs.OriginalTrades {
							original = conform.OriginalCarried
						}
						protocoltest.CheckContract(t, cl, ds, original)
					})
				}
			})
		}
	}
}

func TestJavaClientsAgainstGoServers(t *testing.T) {
	workerJar(t) // skips when the main jar is not built
	ds := contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)
	for _, s := range jvm.Stacks {
		if !s.Has(protocol.ClientSide) {
			continue
		}
		for _, network := range networksOf(t, s, protocol.ClientSide) {
			t.Run(s.Name+"/"+network, func(t *testing.T) {
				tg := protocoltest.Start(t, s.Protocol, network, contract.NewReference(ds), protocol.ServerConfig{})
				var tlsArgs []string
				if network == spec.TLS {
					_, _, ca := writeTLS(t, tg.TLS)
					tlsArgs = []string{"--tls-ca", ca}
				}
				target := tg.Addr.String()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				args := append([]string{"-jar", stackJar(t, s), "check", "--stack", s.Name,
					"--protocol", s.Protocol, "--address", target}, tlsArgs...)
				if goServer, err := protocol.LookupStack(s.Protocol, "", protocol.ServerSide); err == nil && goServer.OriginalTrades && s.OriginalTrades {
					args = append(args, "--original-trades")
				}
				out, err := exec.CommandContext(ctx, "java", args...).CombinedOutput()
				if err != nil {
					t.Errorf("%s client against the Go %s server on %s: %v\n%s", s.Name, s.Protocol, target, err, failures(out))
				}
			})
		}
	}
}

// failures keeps the failed lines of a check's output (and its last line).
func failures(out []byte) string {
	var b strings.Builder
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "ok ") || i == len(lines)-1 {
			fmt.Fprintln(&b, l)
		}
	}
	return b.String()
}
