// Command peers measures wirebench's load generator against the load tools users know
// (wrk, h2load, fortio, ghz): one wirebench server pinned to one CPU, each client in
// turn pinned to another, the same calls in flight and the same duration, and for each
// run the requests per second and the client's CPU time per request (user + system
// time of the client process ÷ requests). It prints a table and writes it, with the
// machine and the exact commands, into docs/peers.md between two marker lines, so the
// hand-written parts of that page (the before/after of optimisations) stay.
//
// It is a manual measurement (`make peers`), not part of CI: it installs the peers it
// misses (apt-get as root for wrk and h2load, go install for ghz and fortio, at the
// versions pinned in ../shared/ENVIRONMENT.md) and takes minutes.
//
// Every measurement holds an exclusive flock on -lock (default
// /tmp/wirebench-cpu.lock), so that it never overlaps another measurement on the
// machine that takes the same lock.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wirebench/wirebench/results"
)

const (
	beginMarker = "<!-- peers:begin (written by make peers; edit outside the markers) -->"
	endMarker   = "<!-- peers:end -->"
)

type options struct {
	duration  time.Duration
	repeat    int
	inflight  []int
	out       string
	bin       string
	lock      string
	install   bool
	serverCPU int
	clientCPU int
	httpPort  int
	grpcPort  int
	protocols map[string]bool
	tools     map[string]bool
	personID  int
	workDir   string
	floor     string // the floor client's binary
	ctx       context.Context
	clkTck    float64
	machine   machine
}

func main() {
	o := &options{clkTck: 100}
	var inflight, protocols, tools string
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "length of every run")
	flag.IntVar(&o.repeat, "repeat", 3, "runs of every client at every in-flight count, interleaved with the other clients'; the table shows medians and ranges")
	flag.StringVar(&inflight, "inflight", "1,16,64", "calls in flight (connections for HTTP/1.1, streams on one connection for gRPC and HTTP/2)")
	flag.StringVar(&o.out, "out", "docs/peers.md", "page to write the table into (\"\": print only)")
	flag.StringVar(&o.bin, "bin", "bin/wirebench", "the wirebench binary (built by make build)")
	flag.StringVar(&o.lock, "lock", "/tmp/wirebench-cpu.lock", "file to flock around each measurement (\"\": none)")
	flag.BoolVar(&o.install, "install", true, "install missing peers (apt-get as root, go install)")
	flag.IntVar(&o.serverCPU, "server-cpu", 0, "CPU of the server")
	flag.IntVar(&o.clientCPU, "client-cpu", 1, "CPU of every client")
	flag.IntVar(&o.httpPort, "http-port", 18080, "port of the http-json server")
	flag.IntVar(&o.grpcPort, "grpc-port", 19090, "port of the grpc-proto server")
	flag.StringVar(&protocols, "protocols", "http-json,grpc-proto,"+jsonH2c, "protocols to measure ("+jsonH2c+": http-json over HTTP/2 without TLS, the calls in flight streams of one connection)")
	flag.StringVar(&tools, "tools", "wrk,h2load,fortio,ghz,floor,wirebench,wirebench-instrument", "clients to measure (floor: cmd/peers/floor, a Go epoll loop doing what wrk does; wirebench: the protocol's default client stack; wirebench-instrument: the instrument client stack)")
	flag.IntVar(&o.personID, "id", 3, "person id the peers ask for (wirebench cycles over the data set)")
	flag.Parse()
	var err error
	if o.inflight, err = parseInts(inflight); err != nil {
		fail(err)
	}
	if o.repeat < 1 || o.duration < time.Second {
		fail(errors.New("-repeat must be at least 1 and -duration at least 1s"))
	}
	o.protocols, o.tools = set(protocols), set(tools)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.ctx = ctx
	if err := run(o); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "peers:", err)
	os.Exit(1)
}

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			m[f] = true
		}
	}
	return m
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-inflight %q: want positive integers", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// result is one run of one client.
type result struct {
	protocol string
	tool     string
	inflight int
	command  string
	rate     float64 // requests/s as the tool reports it
	requests int64   // requests completed (successes and failures)
	errors   int64
	wall     time.Duration
	// clientCPU is user + system time of the client process and its children;
	// for wirebench, its client worker's CPU over the measured slices.
	clientCPU time.Duration
	// cpuUs is the client CPU per request in µs, and busy the client's CPU time over
	// the run (1 = one core saturated); for a row of repeats, their medians.
	cpuUs, busy float64
	// repeats counts the runs a row of repeats folds (failed ones included); the
	// ranges are the lowest and highest rate and CPU per request among those that
	// succeeded.
	repeats, failed  int
	rateMin, rateMax float64
	cpuMin, cpuMax   float64
	// serverBusy is the server's CPU time over the run's wall time (1 = one core).
	serverBusy float64
	note       string // what the page's command list says of the client, if anything
	err        error
}

func (r *result) cpuPerReq() float64 { return r.cpuUs }

// finish derives a successful run's per-request figures.
func (r *result) finish() {
	if r.requests > 0 {
		r.cpuUs = float64(r.clientCPU.Nanoseconds()) / 1e3 / float64(r.requests)
	}
	r.busy = r.cpuUs * r.rate / 1e6
	r.repeats, r.rateMin, r.rateMax, r.cpuMin, r.cpuMax = 1, r.rate, r.rate, r.cpuUs, r.cpuUs
}

// fold makes one row of the repeated runs of one client: the medians of rate, CPU per
// request and both cores, the errors summed, the ranges kept. A row whose every run
// failed carries the first failure.
func fold(runs []*result) *result {
	var ok []*result
	for _, r := range runs {
		if r.err == nil {
			ok = append(ok, r)
		}
	}
	if len(ok) == 0 {
		r := *runs[0]
		r.repeats, r.failed = len(runs), len(runs)
		return &r
	}
	pick := func(f func(*result) float64) (med, lo, hi float64) {
		v := make([]float64, len(ok))
		for i, r := range ok {
			v[i] = f(r)
		}
		slices.Sort(v)
		med = v[len(v)/2]
		if len(v)%2 == 0 {
			med = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		return med, v[0], v[len(v)-1]
	}
	out := *ok[0]
	out.repeats, out.failed = len(runs), len(runs)-len(ok)
	out.rate, out.rateMin, out.rateMax = pick(func(r *result) float64 { return r.rate })
	out.cpuUs, out.cpuMin, out.cpuMax = pick(func(r *result) float64 { return r.cpuUs })
	out.busy, _, _ = pick(func(r *result) float64 { return r.busy })
	out.serverBusy, _, _ = pick(func(r *result) float64 { return r.serverBusy })
	out.requests, out.errors = 0, 0
	for _, r := range ok {
		out.requests += r.requests
		out.errors += r.errors
	}
	return &out
}

func run(o *options) error {
	if runtime.GOOS != "linux" {
		return errors.New("needs Linux (taskset, /proc)")
	}
	if o.install {
		if err := installPeers(o); err != nil {
			return err
		}
	}
	if err := command(o.ctx, "make", "build").Run(); err != nil {
		return fmt.Errorf("make build: %w", err)
	}
	dir, err := os.MkdirTemp("", "wirebench-peers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	o.workDir = dir
	if o.tools["floor"] {
		o.floor = filepath.Join(dir, "floor")
		if err := command(o.ctx, "go", "build", "-o", o.floor, "./cmd/peers/floor").Run(); err != nil {
			return fmt.Errorf("building cmd/peers/floor: %w", err)
		}
	}
	o.machine = readMachine()
	var results []*result
	for _, proto := range []string{"http-json", "grpc-proto", jsonH2c} {
		if !o.protocols[proto] {
			continue
		}
		rs, err := runProtocol(o, proto)
		results = append(results, rs...)
		if err != nil {
			return err
		}
	}
	printTable(os.Stdout, results)
	if o.out == "" {
		return nil
	}
	if err := writePage(o, results); err != nil {
		return err
	}
	fmt.Printf("\nwritten to %s\n", o.out)
	return nil
}

func command(ctx context.Context, name string, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, name, args...)
	c.Stdout, c.Stderr = os.Stderr, os.Stderr
	return c
}

// installPeers installs the peers that are missing, at the pinned versions.
func installPeers(o *options) error {
	var apt []string
	if o.tools["wrk"] && !found("wrk") {
		apt = append(apt, "wrk")
	}
	if o.tools["h2load"] && !found("h2load") {
		apt = append(apt, "nghttp2-client")
	}
	if len(apt) > 0 {
		if os.Geteuid() != 0 {
			return fmt.Errorf("missing %v: install them (apt-get install %s) or drop them with -tools", apt, strings.Join(apt, " "))
		}
		fmt.Fprintf(os.Stderr, "peers: apt-get install %s\n", strings.Join(apt, " "))
		args := append([]string{"install", "-y", "--no-install-recommends"}, apt...)
		if err := command(o.ctx, "apt-get", args...).Run(); err != nil {
			return fmt.Errorf("apt-get install %v: %w", apt, err)
		}
	}
	for tool, mod := range map[string]string{
		"ghz":    "github.com/bojand/ghz/cmd/ghz@v0.121.0", // @latest gives a 2021 build
		"fortio": "fortio.org/fortio@v1.68.2",              // newer ones do not build here
	} {
		if !o.tools[tool] || found(tool) {
			continue
		}
		fmt.Fprintf(os.Stderr, "peers: go install %s\n", mod)
		c := command(o.ctx, "go", "install", mod)
		c.Dir = os.TempDir() // outside the module: its go.mod must not change
		if err := c.Run(); err != nil {
			return fmt.Errorf("go install %s: %w", mod, err)
		}
	}
	return nil
}

// found reports whether a tool is on PATH or in Go's bin directory; the latter is
// added to PATH for the runs.
func found(tool string) bool {
	if _, err := exec.LookPath(tool); err == nil {
		return true
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		return false
	}
	bin := filepath.Join(strings.TrimSpace(string(out)), "bin")
	if _, err := os.Stat(filepath.Join(bin, tool)); err != nil {
		return false
	}
	os.Setenv("PATH", os.Getenv("PATH")+string(os.PathListSeparator)+bin)
	return true
}

// runProtocol starts a server of proto pinned to the server CPU and runs every
// client against it at every in-flight count.
func runProtocol(o *options, proto string) ([]*result, error) {
	port := o.httpPort
	if proto == "grpc-proto" {
		port = o.grpcPort
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	srv, err := startServer(o, wireProtocol(proto), addr)
	if err != nil {
		return nil, err
	}
	defer func() {
		srv.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			srv.Process.Kill()
			<-done
		}
	}()
	var results []*result
	for _, n := range o.inflight {
		var clients []client
		for _, c := range clientsFor(o, proto, addr, n) {
			if o.tools[c.tool] {
				c.protocol, c.inflight = proto, n
				clients = append(clients, c)
			}
		}
		// The repeats go round the clients, so that a drift of the machine's speed
		// spreads over all of them instead of favouring the ones measured first.
		runs := make([][]*result, len(clients))
		for rep := range o.repeat {
			for i, c := range clients {
				if err := o.ctx.Err(); err != nil {
					return results, err
				}
				r := measure(o, srv.Process.Pid, c)
				if r.err != nil {
					fmt.Fprintf(os.Stderr, "peers: %s %s c=%d (run %d of %d): %v\n", proto, c.tool, n, rep+1, o.repeat, r.err)
				} else {
					fmt.Fprintf(os.Stderr, "peers: %-10s %-9s %3d in flight, run %d of %d: %10.0f req/s %6.1f µs/req client CPU, server %3.0f%% busy\n",
						proto, c.tool, n, rep+1, o.repeat, r.rate, r.cpuPerReq(), r.serverBusy*100)
				}
				runs[i] = append(runs[i], r)
			}
		}
		for _, rs := range runs {
			results = append(results, fold(rs))
		}
	}
	return results, nil
}

func startServer(o *options, proto, addr string) (*exec.Cmd, error) {
	c := exec.CommandContext(o.ctx, "taskset", "-c", strconv.Itoa(o.serverCPU), o.bin, "serve", "-p", proto, "--listen", "tcp://"+addr)
	c.Stderr = os.Stderr
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("starting the %s server: %w", proto, err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening on ") {
		c.Process.Kill()
		c.Wait()
		return nil, fmt.Errorf("the %s server did not start (%q, %v)", proto, line, err)
	}
	go io.Copy(io.Discard, out)
	return c, nil
}

// client is how to run one client and read its output.
type client struct {
	protocol string
	inflight int
	tool     string
	args     []string // after taskset -c CPU
	parse    func(out string, r *result) error
	// json is where wirebench writes its results, read instead of its output.
	json string
	note string
}

func clientsFor(o *options, proto, addr string, n int) []client {
	secs := strconv.Itoa(int(o.duration.Seconds()))
	d := o.duration.String()
	id := strconv.Itoa(o.personID)
	// wirebench measures 4 rounds of one slice that add up to the duration, with no
	// warmup (the peers have none): its own figures cover the slices only.
	slice := (o.duration / 4).String()
	wirebench := func(tool string, extra ...string) client {
		out := filepath.Join(o.workDir, fmt.Sprintf("%s-%s-%d.json", tool, proto, n))
		args := append([]string{o.bin, "bench", "-p", wireProtocol(proto), "--address", "tcp://" + addr}, extra...)
		return client{tool: tool, json: out, args: append(args, "-w", "person.get", "-c", strconv.Itoa(n),
			"--warmup", "0", "-d", slice, "--rounds", "4", "--client-cpus", strconv.Itoa(o.clientCPU), "-q", "--json", out)}
	}
	if proto == jsonH2c {
		// h2load speaks h2c with prior knowledge to an http:// URL; the calls in flight
		// are streams of one connection for every client.
		return []client{
			{tool: "h2load", parse: parseH2load, args: []string{"h2load", "-t1", "-c1", "-m" + strconv.Itoa(n), "-D", secs,
				"http://" + addr + "/persons/" + id}},
			wirebench("wirebench", "--client-stack", "go-nethttp-json-h2"),
			wirebench("wirebench-instrument", "--client-stack", "instrument-h2"),
		}
	}
	wb := wirebench("wirebench")
	inst := wirebench("wirebench-instrument", "--client-stack", "instrument")
	if proto == "http-json" {
		url := "http://" + addr + "/persons/" + id
		return []client{
			{tool: "wrk", parse: parseWrk, args: []string{"wrk", "-t1", "-c" + strconv.Itoa(n), "-d" + secs + "s", url}},
			{tool: "h2load", parse: parseH2load, args: []string{"h2load", "--h1", "-t1", "-c" + strconv.Itoa(n), "-m1", "-D", secs, url}},
			{tool: "fortio", parse: parseFortio, args: []string{"fortio", "load", "-qps", "0", "-c", strconv.Itoa(n), "-t", d, "-loglevel", "Warning", url}},
			{tool: "floor", parse: parseFloor, note: "a yardstick: no JSON decoding, no check",
				args: []string{o.floor, "-c", strconv.Itoa(n), "-d", d, url}},
			wb, inst,
		}
	}
	// gRPC: the calls in flight share one connection, as wirebench's grpc-proto client
	// does. h2load speaks gRPC's framing when given the framed request (5-byte prefix,
	// then PersonId{id} in protobuf) and the two headers gRPC needs; it counts a 200
	// as success and does not read grpc-status, so bytes per answer are checked too.
	body := filepath.Join(o.workDir, "getperson-"+id+".bin")
	msg := append([]byte{0x08}, uvarint(uint64(o.personID))...)
	frame := append([]byte{0, 0, 0, 0, byte(len(msg))}, msg...)
	os.WriteFile(body, frame, 0o644)
	return []client{
		{tool: "ghz", parse: parseGhz, args: []string{"ghz", "--insecure", "--cpus", "1", "--connections", "1",
			"--call", "wirebench.v1.PersonService/GetPerson", "-d", `{"id":` + id + `}`, "-c", strconv.Itoa(n), "-z", d, addr}},
		{tool: "h2load", parse: parseH2load, note: "gRPC framing by hand; grpc-status not checked",
			args: []string{"h2load", "-t1", "-c1", "-m" + strconv.Itoa(n), "-D", secs, "-d", body,
				"-H", "content-type: application/grpc", "-H", "te: trailers",
				"http://" + addr + "/wirebench.v1.PersonService/GetPerson"}},
		wb, inst,
	}
}

// jsonH2c names the rows of http-json over HTTP/2 (h2c): the http-json server, every
// client speaking HTTP/2.
const jsonH2c = "http-json-h2c"

// wireProtocol is the wirebench protocol of a row's protocol name.
func wireProtocol(proto string) string {
	if proto == jsonH2c {
		return "http-json"
	}
	return proto
}

func uvarint(v uint64) []byte {
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// measure runs one client pinned to the client CPU while holding the lock, and
// brackets it with the server's CPU time.
func measure(o *options, serverPID int, c client) *result {
	r := &result{protocol: c.protocol, tool: c.tool, inflight: c.inflight, note: c.note}
	argv := append([]string{"taskset", "-c", strconv.Itoa(o.clientCPU)}, c.args...)
	r.command = shellJoin(argv)
	unlock, err := lock(o.lock)
	if err != nil {
		r.err = err
		return r
	}
	defer unlock()
	cmd := exec.CommandContext(o.ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	s0, err := procCPU(serverPID, o.clkTck)
	if err != nil {
		r.err = err
		return r
	}
	t0 := time.Now()
	err = cmd.Run()
	r.wall = time.Since(t0)
	s1, serr := procCPU(serverPID, o.clkTck)
	if serr == nil && r.wall > 0 {
		r.serverBusy = (s1 - s0).Seconds() / r.wall.Seconds()
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// wait4's usage of taskset covers the tool it became (taskset execs it).
		r.clientCPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if err != nil {
		r.err = fmt.Errorf("%w: %s", err, tail(out.String()))
		return r
	}
	if c.json != "" {
		r.err = readWirebench(c.json, r)
	} else {
		r.err = c.parse(out.String(), r)
	}
	if r.err != nil {
		r.err = fmt.Errorf("%w\n%s", r.err, tail(out.String()))
		return r
	}
	r.finish()
	return r
}

func tail(s string) string {
	if len(s) > 1500 {
		s = "…" + s[len(s)-1500:]
	}
	return s
}

func lock(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		// Say why nothing happens: another measurement holds the lock (or this very
		// command was started under `flock` of the same file, which never ends).
		fmt.Fprintf(os.Stderr, "peers: waiting for %s, held by another measurement (-lock \"\" to run without it)\n", path)
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("flock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}

// procCPU returns user + system time of a process from /proc/PID/stat.
func procCPU(pid int, clkTck float64) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces: fields count from after its ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: short", pid)
	}
	u, _ := strconv.ParseFloat(f[11], 64) // utime, field 14
	k, _ := strconv.ParseFloat(f[12], 64) // stime, field 15
	return time.Duration((u + k) / clkTck * float64(time.Second)), nil
}

func shellJoin(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if strings.ContainsAny(a, " {}\"':;") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		b.WriteString(a)
	}
	return b.String()
}

var (
	wrkTotal  = regexp.MustCompile(`(\d+) requests in ([\d.]+)(\w+),`)
	wrkRate   = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	wrkNon2xx = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	wrkSocket = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)

	h2Rate = regexp.MustCompile(`finished in [\d.]+\w+, ([\d.]+) req/s`)
	h2Reqs = regexp.MustCompile(`requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored`)

	fortioDone = regexp.MustCompile(`All done (\d+) calls \(plus (\d+) warmup\) [\d.]+ ms avg, ([\d.]+) qps`)
	fortioCode = regexp.MustCompile(`(?m)^Code\s+(-?\d+)\s*:\s*(\d+)`)

	ghzCount = regexp.MustCompile(`Count:\s+(\d+)`)
	ghzRate  = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	ghzOK    = regexp.MustCompile(`\[OK\]\s+(\d+) responses`)
)

func atof(s string) float64     { f, _ := strconv.ParseFloat(s, 64); return f }
func atoi(s string) int64       { n, _ := strconv.ParseInt(s, 10, 64); return n }
func missing(what string) error { return fmt.Errorf("output has no %s", what) }

func parseWrk(out string, r *result) error {
	m, m2 := wrkTotal.FindStringSubmatch(out), wrkRate.FindStringSubmatch(out)
	if m == nil || m2 == nil {
		return missing("request count or rate")
	}
	r.requests, r.rate = atoi(m[1]), atof(m2[1])
	if m := wrkNon2xx.FindStringSubmatch(out); m != nil {
		r.errors += atoi(m[1])
	}
	if m := wrkSocket.FindStringSubmatch(out); m != nil {
		for _, s := range m[1:] {
			r.errors += atoi(s)
		}
	}
	return nil
}

func parseH2load(out string, r *result) error {
	m, m2 := h2Reqs.FindStringSubmatch(out), h2Rate.FindStringSubmatch(out)
	if m == nil || m2 == nil {
		return missing("request count or rate")
	}
	r.requests, r.rate = atoi(m[1]), atof(m2[1])
	r.errors = atoi(m[3]) + atoi(m[4])
	return nil
}

func parseFortio(out string, r *result) error {
	m := fortioDone.FindStringSubmatch(out)
	if m == nil {
		return missing(`"All done" line`)
	}
	r.requests, r.rate = atoi(m[1])+atoi(m[2]), atof(m[3])
	for _, c := range fortioCode.FindAllStringSubmatch(out, -1) {
		if c[1] != "200" {
			r.errors += atoi(c[2])
		}
	}
	return nil
}

var floorLine = regexp.MustCompile(`requests (\d+) errors (\d+) seconds ([0-9.]+)`)

func parseFloor(out string, r *result) error {
	m := floorLine.FindStringSubmatch(out)
	if m == nil || atof(m[3]) <= 0 {
		return missing("requests line")
	}
	r.requests, r.errors = atoi(m[1]), atoi(m[2])
	r.rate = float64(r.requests) / atof(m[3])
	return nil
}

func parseGhz(out string, r *result) error {
	m, m2 := ghzCount.FindStringSubmatch(out), ghzRate.FindStringSubmatch(out)
	if m == nil || m2 == nil {
		return missing("count or rate")
	}
	r.requests, r.rate = atoi(m[1]), atof(m2[1])
	ok := int64(0)
	if m := ghzOK.FindStringSubmatch(out); m != nil {
		ok = atoi(m[1])
	}
	r.errors = r.requests - ok
	return nil
}

func readWirebench(path string, r *result) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var res results.Results
	if err := json.Unmarshal(b, &res); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(res.Benchmarks) != 1 {
		return fmt.Errorf("%s: %d benchmarks, want 1", path, len(res.Benchmarks))
	}
	s := res.Benchmarks[0].Summary
	r.rate, r.requests, r.errors = s.ThroughputOpsS.Mean, s.Ops+s.Errors, s.Errors
	// wirebench's own figure: the client worker's CPU over its slices ÷ ops. The
	// rusage of the whole command also counts the driver and the process start-up.
	r.clientCPU = time.Duration(s.ClientCPUUsPerOp * float64(s.Ops) * 1e3)
	return nil
}
