package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/store"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// --version, -v, version and help exit 0 and print; the version is wirebench's, and
// the help's first paragraph names every wire protocol of the registry.
func TestVersionAndHelp(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		code, stdout, stderr := runCLI(t, args...)
		if code != 0 || strings.TrimSpace(stdout) != "wirebench "+buildVersion() {
			t.Errorf("wirebench %v: exit %d, stdout %q, stderr %q; want 0 and %q", args, code, stdout, stderr, "wirebench "+buildVersion())
		}
	}
	code, stdout, stderr := runCLI(t, "help")
	if code != 0 || !strings.Contains(stdout, "Usage: wirebench <command>") {
		t.Fatalf("wirebench help: exit %d\n%s%s", code, stdout, stderr)
	}
	// kong wraps the paragraph: the names are compared with its words.
	words := strings.Join(strings.Fields(stdout), " ")
	for _, p := range protocol.All() {
		if !p.InProcess && !strings.Contains(words, p.Name) {
			t.Errorf("the help does not name protocol %s:\n%s", p.Name, stdout)
		}
	}
	if strings.Contains(words, "HTTP/JSON, gRPC with Protobuf, gRPC with Avro and Cap'n Proto, over TCP and Unix sockets") {
		t.Error("the help still names four protocols")
	}
	code, stdout, _ = runCLI(t, "help", "bench")
	if code != 0 || !strings.Contains(stdout, "Usage: wirebench bench") || !strings.Contains(stdout, "--protocol") {
		t.Errorf("wirebench help bench: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := runCLI(t, "help", "nope"); code != exitUsage || !strings.Contains(stderr, "nope") {
		t.Errorf("wirebench help nope: exit %d, stderr %q; want 2", code, stderr)
	}
}

// A suite's description says what it runs: quick's names each protocol it runs,
// and run's help no longer says it runs every protocol.
func TestQuickSaysWhatItRuns(t *testing.T) {
	s, err := suite.Load("quick")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runCLI(t, "run", "--list")
	line := ""
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "quick ") {
			line = l
		}
	}
	if code != 0 || line == "" {
		t.Fatalf("run --list: exit %d\n%s", code, stdout)
	}
	for _, b := range s.Benchmarks {
		if !strings.Contains(line, b.Spec.Protocol) {
			t.Errorf("run --list's quick line does not name %s: %q", b.Spec.Protocol, line)
		}
	}
	_, help, _ := runCLI(t, "run", "--help")
	if strings.Contains(line, "every") || strings.Contains(help, "every protocol") {
		t.Errorf("quick is said to run every protocol:\n%s\n%s", line, help)
	}
}

// A negative number after a space gets the message it gets after "=", not kong's
// "expected float value but got "-5" (short flag)".
func TestNegativeNumbers(t *testing.T) {
	for _, c := range []struct {
		flag, long, value, want string
	}{
		{"--rate", "rate", "-5", "rate -5, want a positive number"},
		{"-r", "rate", "-5", "rate -5, want a positive number"},
		{"-c", "concurrency", "-3", "concurrency -3, want at least 1"},
		{"--concurrency", "concurrency", "-3", "concurrency -3, want at least 1"},
		{"-d", "duration", "-300ms", "--duration: -300ms is out of range"},
		{"--rounds", "rounds", "-2", "--rounds: -2"},
		{"-i", "rounds", "-2", "--rounds: -2"},
		{"--rate", "rate", "-.5", "rate -0.5, want a positive number"},
	} {
		spaced, _, stderr := runCLI(t, "bench", "-p", "direct", c.flag, c.value)
		joined, _, joinedErr := runCLI(t, "bench", "-p", "direct", "--"+c.long+"="+c.value)
		if spaced != exitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "short flag") {
			t.Errorf("bench %s %s: exit %d, stderr %q; want 2 and %q", c.flag, c.value, spaced, stderr, c.want)
		}
		if stderr != joinedErr || joined != spaced {
			t.Errorf("bench %s %s says %q, with = it says %q", c.flag, c.value, stderr, joinedErr)
		}
	}
}

// suiteError returns the message a suite gives for a file, less its file:line:col.
func suiteError(t *testing.T, yaml string) string {
	t.Helper()
	_, err := suite.Parse("t.yaml", []byte(yaml))
	if err == nil {
		t.Fatalf("the suite\n%s\nparses; want an error", yaml)
	}
	msg := err.Error()
	if i := strings.Index(msg, ": "); strings.HasPrefix(msg, "t.yaml:") && i > 0 {
		msg = msg[i+2:]
	}
	return strings.TrimSpace(msg)
}

// bench refuses what a suite refuses, with the suite's message.
func TestBenchRefusesWhatSuitesRefuse(t *testing.T) {
	for _, c := range []struct {
		args []string
		yaml string // the same benchmark as a suite
		want string // in both messages
	}{
		{[]string{"bench", "-p", "direct", "-w", "person.get", "--trades", "5"},
			"targets: [direct]\nworkloads:\n  - name: person.get\n    trades: [5]\n", "person.get takes no trades (it has no parameters)"},
		{[]string{"bench", "-p", "direct", "-w", "stream", "--payload", "1KiB"},
			"targets: [direct]\nworkloads:\n  - name: stream\n    payloads: [1KiB]\n", "stream takes no payload (its parameters: trades, trade)"},
		{[]string{"bench", "-p", "direct", "--arrival", "poisson"},
			"targets: [direct]\nworkloads: [person.get]\nload: {concurrency: 50, arrival: poisson}\n", "arrival poisson needs a rate"},
		{[]string{"bench", "-p", "direct", "--rate=0"},
			"targets: [direct]\nworkloads: [person.get]\nload: {rates: [0]}\n", "rate 0, want a positive number"},
	} {
		fromSuite := suiteError(t, c.yaml)
		code, _, stderr := runCLI(t, c.args...)
		if !strings.Contains(fromSuite, c.want) {
			t.Errorf("the suite says %q, want %q", fromSuite, c.want)
		}
		// The suite's message after its key ("trades: ", "arrival: "), as bench's after its flag.
		_, msg, _ := strings.Cut(fromSuite, c.want)
		msg = c.want + msg
		if code != exitUsage || !strings.Contains(stderr, msg) {
			t.Errorf("wirebench %v: exit %d, stderr %q; want 2 and the suite's %q", c.args, code, stderr, msg)
		}
	}
}

// benchSpec parses bench's flags and builds its benchmark, as bench does.
func benchSpec(t *testing.T, args ...string) (spec.Spec, error) {
	t.Helper()
	c := newCLI()
	parser, err := kong.New(c, kong.Vars(cliVars()), negativeNumbers())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse(append([]string{"bench"}, args...)); err != nil {
		return spec.Spec{}, err
	}
	res, err := c.Bench.spec()
	return res.Spec, err
}

// --transport tls is a transport as a suite's transports: [tls] is, the same as --tls;
// TLS certificate flags go with it.
func TestBenchTransportTLS(t *testing.T) {
	s, err := suite.Parse("t.yaml", []byte("targets:\n  - protocol: grpc-proto\n    transports: [tls]\nworkloads: [person.get]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--transport", "tls"}, {"--tls"}, {"--tls", "--transport", "tls"}} {
		got, err := benchSpec(t, append([]string{"-p", "grpc-proto"}, args...)...)
		if err != nil || got.Transport != s.Benchmarks[0].Spec.Transport || got.Name() != s.Benchmarks[0].Spec.Name() {
			t.Errorf("bench %v: transport %q (%s), %v; want the suite's %q (%s)", args, got.Transport, got.Name(), err,
				s.Benchmarks[0].Spec.Transport, s.Benchmarks[0].Spec.Name())
		}
	}
	if _, err := (benchTLSFlags{BenchCA: "ca.pem"}).load(spec.TLS); err == nil || !strings.Contains(err.Error(), "ca.pem") {
		t.Errorf("--tls-bench-ca with --transport tls: %v, want the file read (and missing)", err)
	}
	if _, err := (benchTLSFlags{BenchCA: "ca.pem"}).load(spec.TCP); err == nil || !strings.Contains(err.Error(), "are for --tls") {
		t.Errorf("--tls-bench-ca over tcp: %v, want refused", err)
	}
}

// Each short flag means one long flag in every command: -a is --address (and -t its
// former name, --target, hidden; bench's --forks has none), -f is --format (run's
// --filter has none).
func TestOneShortFlagVocabulary(t *testing.T) {
	parser, err := kong.New(newCLI(), kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	meaning := map[rune]string{}
	where := map[rune]string{}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, f := range n.Flags {
			if f.Short == 0 {
				continue
			}
			if m, ok := meaning[f.Short]; ok && m != f.Name {
				t.Errorf("-%c is --%s in %s and --%s in %s", f.Short, m, where[f.Short], f.Name, n.FullPath())
			}
			meaning[f.Short], where[f.Short] = f.Name, n.FullPath()
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(parser.Model.Node)
	for short, long := range map[rune]string{'a': "address", 't': "target", 'f': "format", 'v': "version"} {
		if meaning[short] != long {
			t.Errorf("-%c is --%s, want --%s", short, meaning[short], long)
		}
	}
	// bench -a is --address, as in call and conform.
	got, err := benchSpec(t, "-p", "http-json", "-a", "tcp://127.0.0.1:9")
	if err != nil || got.Address != "tcp://127.0.0.1:9" {
		t.Errorf("bench -a tcp://127.0.0.1:9: address %q, %v", got.Address, err)
	}
	if got, err := benchSpec(t, "-p", "http-json", "--forks", "3"); err != nil || got.Forks != 3 {
		t.Errorf("bench --forks 3: forks %d, %v", got.Forks, err)
	}
}

// --trials, the former name of --forks, still sets the forks, hidden from the help,
// with a note saying what it is now; given with --forks (at another value than its
// default) it is refused.
func TestFormerFlag(t *testing.T) {
	parse := func(args ...string) (*cli, *kong.Kong, error) {
		c := newCLI()
		parser, err := kong.New(c, kong.Vars(cliVars()))
		if err != nil {
			t.Fatal(err)
		}
		_, err = parser.Parse(append([]string{"bench", "-p", "http-json"}, args...))
		return c, parser, err
	}
	c, parser, err := parse("--trials", "3")
	if err != nil {
		t.Fatalf("bench --trials 3: %v", err)
	}
	if res, err := c.Bench.spec(); err != nil || res.Spec.Forks != 3 {
		t.Errorf("bench --trials 3: forks %d, %v; want 3", res.Spec.Forks, err)
	}
	want := []string{"--trials is deprecated: it is --forks now (read as --forks)"}
	if got := c.Bench.settings.deprecated(); !slices.Equal(got, want) {
		t.Errorf("bench --trials 3: notes %q, want %q", got, want)
	}
	for _, cmd := range parser.Model.Children {
		for _, f := range cmd.Flags {
			if f.Name == "trials" && !f.Hidden {
				t.Errorf("%s --trials is in the help; want it hidden", cmd.Name)
			}
		}
	}
	c, _, err = parse("--forks", "2")
	if res, err2 := c.Bench.spec(); err != nil || err2 != nil || res.Spec.Forks != 2 || c.Bench.settings.deprecated() != nil {
		t.Errorf("bench --forks 2: forks %d, notes %q, %v %v; want 2 and no note", res.Spec.Forks, c.Bench.settings.deprecated(), err, err2)
	}
	// --jvm-args, --runtime-args since 2026-11-29.
	c, _, err = parse("--jvm-args=-Xms2g -Xmx2g")
	if res, err2 := c.Bench.spec(); err != nil || err2 != nil || !slices.Equal(res.Spec.RuntimeArgs, []string{"-Xms2g", "-Xmx2g"}) {
		t.Errorf("bench --jvm-args: runtime args %q, %v %v; want [-Xms2g -Xmx2g]", res.Spec.RuntimeArgs, err, err2)
	}
	want = []string{"--jvm-args is deprecated: it is --runtime-args now (read as --runtime-args)"}
	if got := c.Bench.settings.deprecated(); !slices.Equal(got, want) {
		t.Errorf("bench --jvm-args: notes %q, want %q", got, want)
	}
	// --target and -t, --address and -a since 2026-11-29: read as --address, with a
	// note said once where the settings' are (targetFlags.start), hidden from the help.
	for _, old := range []string{"--target", "-t"} {
		c, _, err = parse(old, "tcp://127.0.0.1:9")
		res, err2 := c.Bench.spec()
		if err != nil || err2 != nil || res.Spec.Address != "tcp://127.0.0.1:9" {
			t.Errorf("bench %s tcp://127.0.0.1:9: address %q, %v %v; want tcp://127.0.0.1:9", old, res.Spec.Address, err, err2)
		}
		if want := "--target is deprecated: it is --address now (read as --address)"; c.Bench.addressNote != want {
			t.Errorf("bench %s: note %q, want %q", old, c.Bench.addressNote, want)
		}
	}
	for _, cmd := range parser.Model.Children {
		for _, f := range cmd.Flags {
			if f.Name == "target" && !f.Hidden {
				t.Errorf("%s --target is in the help; want it hidden", cmd.Name)
			}
		}
	}
	c, _, err = parse("--address", "tcp://127.0.0.1:9")
	if res, err2 := c.Bench.spec(); err != nil || err2 != nil || res.Spec.Address != "tcp://127.0.0.1:9" || c.Bench.addressNote != "" {
		t.Errorf("bench --address: address %q, note %q, %v %v; want no note", res.Spec.Address, c.Bench.addressNote, err, err2)
	}
	if _, err := benchSpec(t, "-p", "http-json", "--target", "tcp://127.0.0.1:9", "--address", "tcp://127.0.0.1:8"); err == nil || !strings.Contains(err.Error(), "--target and --address are one flag") {
		t.Errorf("bench --target and --address: %v, want a refusal naming both", err)
	}
	if _, err := benchSpec(t, "-p", "http-json", "--trials", "3", "--forks", "2"); err == nil || !strings.Contains(err.Error(), "--trials and --forks are one setting") {
		t.Errorf("bench --trials 3 --forks 2: %v, want a refusal naming both", err)
	}
	// --iterations, --rounds since 2026-11-29 (-i is --rounds' short form, no note).
	c, _, err = parse("--iterations", "7")
	if res, err2 := c.Bench.spec(); err != nil || err2 != nil || res.Spec.Rounds != 7 {
		t.Errorf("bench --iterations 7: rounds %d, %v %v; want 7", res.Spec.Rounds, err, err2)
	}
	want = []string{"--iterations is deprecated: it is --rounds now (read as --rounds)"}
	if got := c.Bench.settings.deprecated(); !slices.Equal(got, want) {
		t.Errorf("bench --iterations 7: notes %q, want %q", got, want)
	}
	for _, args := range [][]string{{"--rounds", "7"}, {"-i", "7"}} {
		c, _, err = parse(args...)
		if res, err2 := c.Bench.spec(); err != nil || err2 != nil || res.Spec.Rounds != 7 || c.Bench.settings.deprecated() != nil {
			t.Errorf("bench %v: rounds %d, notes %q, %v %v; want 7 and no note", args, res.Spec.Rounds, c.Bench.settings.deprecated(), err, err2)
		}
	}
	for _, cmd := range parser.Model.Children {
		for _, f := range cmd.Flags {
			if f.Name == "iterations" && !f.Hidden {
				t.Errorf("%s --iterations is in the help; want it hidden", cmd.Name)
			}
		}
	}
	if _, err := benchSpec(t, "-p", "http-json", "--iterations", "3", "--rounds", "2"); err == nil || !strings.Contains(err.Error(), "--iterations and --rounds are one setting") {
		t.Errorf("bench --iterations 3 --rounds 2: %v, want a refusal naming both", err)
	}
}

// run's seed of the round order is --order-seed; --seed, the data set's seed in
// bench, serve and call, still works on run with a note.
func TestRunOrderSeed(t *testing.T) {
	c := newCLI()
	parser, err := kong.New(c, kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"run", "--order-seed", "7"}); err != nil || c.Run.OrderSeed != 7 {
		t.Errorf("run --order-seed 7: %d, %v", c.Run.OrderSeed, err)
	}
	code, stdout, stderr := runCLI(t, "run", "quick", "--list", "--seed", "3")
	if code != 0 || !strings.Contains(stderr, "--seed is deprecated here: it is --order-seed") || !strings.Contains(stdout, "http-json/") {
		t.Errorf("run --seed 3 --list: exit %d\n%s%s", code, stdout, stderr)
	}
}

// serve -l with a port no socket can have is a usage error.
func TestServeBadPort(t *testing.T) {
	for _, listen := range []string{"127.0.0.1:99999", "tcp://127.0.0.1:65536"} {
		code, _, stderr := runCLI(t, "serve", "-p", "http-json", "-l", listen)
		if code != exitUsage || !strings.Contains(stderr, "65535") {
			t.Errorf("serve -l %s: exit %d, stderr %q; want 2 and the port's range", listen, code, stderr)
		}
	}
}

// report and compare take a run directory where they take a results file.
func TestReportAndCompareTakeRunDirectories(t *testing.T) {
	scores := []float64{1000, 1010, 1020, 1030, 1040, 1050}
	oldFile := writeCompareFile(t, store.ResultsFile, map[string][]float64{"a": scores})
	newFile := writeCompareFile(t, store.ResultsFile, map[string][]float64{"a": scores})
	oldDir, newDir := filepath.Dir(oldFile), filepath.Dir(newFile)
	code, stdout, stderr := runCLI(t, "report", oldDir)
	if code != 0 || !strings.Contains(stdout, "a") {
		t.Errorf("report DIR: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "compare", oldDir, newDir)
	if code != 0 || !strings.Contains(stdout, "No significant regression") {
		t.Errorf("compare DIR DIR: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "report", oldDir, "-f", "json", "-o", "-")
	if _, err := results.Read(strings.NewReader(stdout)); code != 0 || err != nil {
		t.Errorf("report -f json -o -: exit %d, %v", code, err)
	}
	if code, _, stderr := runCLI(t, "report", t.TempDir()); code != exitUsage || !strings.Contains(stderr, "no results.json") {
		t.Errorf("report of an empty directory: exit %d, %q", code, stderr)
	}
}

// Two files with no benchmark in common are no comparison: exit 2, saying so,
// never "No significant regression".
func TestCompareNothingInCommon(t *testing.T) {
	scores := []float64{1000, 1010, 1020, 1030, 1040, 1050}
	a := writeCompareFile(t, "a.json", map[string][]float64{"a": scores})
	b := writeCompareFile(t, "b.json", map[string][]float64{"b": scores, "c": scores})
	code, stdout, stderr := runCLI(t, "compare", a, b)
	if code != exitUsage || !strings.Contains(stderr, "no benchmark in common") || strings.Contains(stdout, "No significant regression") {
		t.Errorf("compare of disjoint files: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

// gate RUN compares a stored run with the run before it, never a later one; a
// store that does not exist is not made.
func TestGatePreviousRun(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "history.db")
	s, err := store.Open(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	var files []string
	for i := range 3 {
		scores := []float64{1000, 1010, 1020, 1030, 1040, 1050 + float64(i)} // a document of its own
		f := writeCompareFile(t, "results.json", map[string][]float64{"a": scores})
		res, err := results.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res.Benchmarks[0].Summary.Ops = 6000 // the store keeps measured benchmarks
		var buf bytes.Buffer
		if err := res.Write(&buf); err != nil {
			t.Fatal(err)
		}
		doc := buf.Bytes()
		if err := os.WriteFile(f, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		tags := store.Tags{Commit: "c", Branch: "main", Machine: "m", Time: t0.Add(time.Duration(i) * time.Hour)}
		if _, _, err := s.Record(context.Background(), doc, tags, f); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	s.Close()
	code, stdout, stderr := runCLI(t, "gate", filepath.Dir(files[1]), "--store", st)
	if code != 0 || !strings.Contains(stdout, "(run 1)") || strings.Contains(stdout, "(run 3)") {
		t.Errorf("gate of run 2: exit %d, want it against run 1\n%s%s", code, stdout, stderr)
	}
	// -f is --format, as on report and compare.
	if code, stdout, stderr := runCLI(t, "gate", filepath.Dir(files[1]), "--store", st, "-f", "table"); code != 0 || !strings.Contains(stdout, "(run 1)") {
		t.Errorf("gate -f table: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "gate", files[0], "--store", st)
	if code != exitUsage || !strings.Contains(stderr, "no earlier run") {
		t.Errorf("gate of the first run: exit %d, want 2 and no baseline\n%s%s", code, stdout, stderr)
	}

	empty := filepath.Join(dir, "empty.db")
	for _, args := range [][]string{{"gate", "--store", empty}, {"gate", files[0], "--store", empty}} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, empty) {
			t.Errorf("wirebench %v: exit %d, stderr %q; want 2", args, code, stderr)
		}
		if _, err := os.Stat(empty); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("wirebench %v made the store %s (%v)", args, empty, err)
		}
	}
	code, stdout, _ = runCLI(t, "gate", files[0], "--store", empty, "--no-baseline-ok")
	if code != 0 || !strings.Contains(stdout, "nothing to compare") {
		t.Errorf("gate --no-baseline-ok of a missing store: exit %d, %q", code, stdout)
	}
}

// bench --json - writes the results to standard output (the table to standard
// error), and no file named "-".
func TestBenchJSONToStdout(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "bench", "-p", "direct", "--warmup", "10ms", "-d", "50ms", "-i", "2", "-q", "--no-store", "--json", "-")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bench --json -: %v\n%s", err, stderr.String())
	}
	res, err := results.Read(&stdout)
	if err != nil || len(res.Benchmarks) != 1 || res.Benchmarks[0].Summary.Ops == 0 {
		t.Fatalf("stdout is not the results: %v", err)
	}
	if !strings.Contains(stderr.String(), "Benchmark") {
		t.Errorf("the table is not on stderr:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error("bench --json - made a file named -")
	}
}

// A client of one protocol at a server of another says, in one line, what the server
// speaks (exit 2: --protocol is wrong), rather than an Unimplemented or 404, a
// bootstrap timeout, or a FAIL per operation.
func TestProtocolMismatchSaysWhatAnswers(t *testing.T) {
	_, httpJSON := startServe(t, nil, "--protocol", "http-json", "--listen", "tcp://127.0.0.1:0")
	_, grpcProto := startServe(t, nil, "--protocol", "grpc-proto", "--listen", "tcp://127.0.0.1:0")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"call", "-p", "grpc-proto", "-a", httpJSON, "stats"}, "this looks like a server of http-json"},
		{[]string{"call", "-p", "capnp", "-a", httpJSON, "--timeout", "3s", "person.get"}, "this looks like a server of http-json"},
		{[]string{"conform", "-p", "grpc-proto", "-a", httpJSON}, "this looks like a server of http-json"},
		{[]string{"conform", "-p", "http-json", "-a", grpcProto}, "this looks like a server of grpc-proto"},
		{[]string{"bench", "-p", "grpc-proto", "-a", httpJSON, "--no-store"}, "this looks like a server of http-json"},
		{[]string{"bench", "-p", "capnp", "--address", httpJSON, "--no-store"}, "use --protocol http-json"},
	} {
		code, stdout, stderr := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 || strings.Contains(stdout, "FAIL") {
			t.Errorf("wirebench %v: exit %d\nstdout %s\nstderr %s\nwant exit 2 and one line with %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

// history --html - writes the page to standard output and the table to standard error.
func TestHistoryHTMLToStdout(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "history", "--store", filepath.Join(dir, "h.db"), "--html", "-")
	if code != 0 || !strings.Contains(stdout, "<html") || strings.Contains(stdout, "No runs") || !strings.Contains(stderr, "No runs") {
		t.Errorf("history --html -: exit %d\nstdout %.200s\nstderr %s", code, stdout, stderr)
	}
	if _, err := os.Stat("-"); err == nil { // runCLI runs in this directory
		t.Error("history --html - made a file named -")
	}
}

// A user's suite file with trials, the former name of forks, still runs, and run says
// once, at its first use, what to rename it to.
func TestFormerSuiteKey(t *testing.T) {
	file := writeSuite(t, "defaults:\n  trials: 2\ntargets:\n  - protocol: direct\n    trials: 3\nworkloads: [person.get]\n")
	code, stdout, stderr := runCLI(t, "run", "--list", file)
	want := "wirebench: " + file + `:2: "trials" is deprecated: it is "forks" now (read as forks); also on line 5` + "\n"
	if code != 0 || stderr != want || !strings.Contains(stdout, "direct/") {
		t.Errorf("run --list with trials: exit %d\nstdout %s\nstderr %q\nwant stderr %q", code, stdout, stderr, want)
	}
	// iterations, rounds since 2026-11-29 (suite's TestFormerKey: the value).
	file = writeSuite(t, "defaults:\n  iterations: 3\n  duration: 100ms\ntargets: [direct]\nworkloads: [person.get]\n")
	code, stdout, stderr = runCLI(t, "run", "--list", file)
	want = "wirebench: " + file + `:2: "iterations" is deprecated: it is "rounds" now (read as rounds)` + "\n"
	if code != 0 || stderr != want || !strings.Contains(stdout, "direct/") {
		t.Errorf("run --list with iterations: exit %d\nstdout %s\nstderr %q\nwant stderr %q", code, stdout, stderr, want)
	}
}

// run --transport and --tls put a suite's benchmarks on another transport as bench's
// flags put one benchmark: --tls turns tcp into tls, --transport every benchmark across
// a wire; the in-process one stays, and a transport a stack cannot take is refused
// before anything runs, naming the benchmark.
func TestRunTransportTLS(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--tls"}, []string{"http-json/tls/person.get", "capnp/tls/person.get", "direct/inproc/person.get"}},
		{[]string{"--transport", "unix"}, []string{"grpc-proto/unix/person.get", "direct/inproc/person.get"}},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"run", "quick", "--list"}, c.args...)...)
		if code != 0 || strings.Contains(stdout, "/tcp/") {
			t.Errorf("run quick %v --list: exit %d\n%s%s", c.args, code, stdout, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("run quick %v --list lacks %s:\n%s", c.args, w, stdout)
			}
		}
	}
	code, _, stderr := runCLI(t, "run", "quick", "--list", "--transport", "quic")
	if code != exitUsage || !strings.Contains(stderr, "http-json/tcp/person.get/closed-c50 on quic") {
		t.Errorf("run quick --transport quic: exit %d, %q", code, stderr)
	}
}
