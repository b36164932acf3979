package outside_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/testtool"
)

// TestHelloworld loads grpc-go's helloworld server with its .proto, and with a
// protoset of it, every reply checked against --expect; the results name the server
// and the call.
func TestHelloworld(t *testing.T) {
	needNetns(t)
	addr, _ := serve(t, "greeter_server", "-port", "PORT")
	call := []string{"--address", "grpc://" + addr, "--call", "helloworld.Greeter/SayHello",
		"--data", `{"name":"wb"}`, "--expect", `{"message":"Hello wb"}`, "--insecure"}
	b := benchJSON(t, append(call, "--proto", helloProto())...)
	wantCalls(t, b)
	if b.Address != "tcp://"+addr || b.Call != "helloworld.Greeter/SayHello" || b.Workload != "call" ||
		!strings.Contains(b.Name, "target="+addr) || !strings.Contains(b.Name, "call=helloworld.Greeter.SayHello") {
		t.Errorf("benchmark %q address %q call %q workload %q: want the server's address and call in each", b.Name, b.Address, b.Call, b.Workload)
	}
	if b.Summary.BytesSentPerOp <= 0 || b.Summary.BytesRecvPerOp <= 0 {
		t.Errorf("bytes per op %v sent, %v received; want them counted", b.Summary.BytesSentPerOp, b.Summary.BytesRecvPerOp)
	}
	t.Run("tcp target", func(t *testing.T) { // --address tcp:// with --call: gRPC, as ghz
		wantCalls(t, benchJSON(t, "--address", "tcp://"+addr, "--call", "helloworld.Greeter.SayHello", "--proto", helloProto(), "--connections", "2"))
	})
	t.Run("protoset", func(t *testing.T) {
		protoc := testtool.Command(t, "protoc")
		set := filepath.Join(t.TempDir(), "hello.protoset")
		dir := filepath.Dir(helloProto())
		if out, err := exec.Command(protoc, "-I", dir, "--include_imports", "--descriptor_set_out", set, "helloworld.proto").CombinedOutput(); err != nil {
			t.Fatalf("protoc: %v\n%s", err, out)
		}
		wantCalls(t, benchJSON(t, append(call, "--protoset", set, "-r", "300")...))
	})
}

// TestReflection loads two services of grpc-go's reflection example with no schema
// given: the server's reflection service gives it.
func TestReflection(t *testing.T) {
	needNetns(t)
	addr, _ := serve(t, "reflection_server", "-port", "PORT")
	wantCalls(t, benchJSON(t, "--address", "grpc://"+addr, "--call", "helloworld.Greeter/SayHello",
		"--data", `{"name":"r"}`, "--expect", `{"message":"Hello r"}`))
	wantCalls(t, benchJSON(t, "--address", "grpc://"+addr, "--call", "grpc.examples.echo.Echo/UnaryEcho",
		"--data", `{"message":"e"}`, "--expect", `{"message":"e"}`))
	code, _, stderr := wirebench(t, append(append([]string{"bench"}, quick...), "--address", "grpc://"+addr, "--call", "helloworld.Greeter/SayGoodbye")...)
	if code != 2 || !strings.Contains(stderr, "SayGoodbye") || !strings.Contains(stderr, "SayHello") {
		t.Errorf("a method the server lacks: exit %d, %s; want 2 and the method named beside the service's", code, stderr)
	}
}

// TestRouteGuide runs route_guide's four kinds of method: unary (closed and open
// loop), server-streaming, client-streaming and bidirectional, the streams' messages
// from the data.
func TestRouteGuide(t *testing.T) {
	needServers(t)
	addr, _ := serve(t, "routeguide_server", "-port", "PORT")
	rg := []string{"--address", "grpc://" + addr, "--proto", routeProto(), "-c", "4"}
	point := `{"latitude":409146138,"longitude":-746188906}`
	for _, c := range []struct {
		name string
		args []string
	}{
		{"unary", []string{"--call", "routeguide.RouteGuide/GetFeature", "--data", point,
			"--expect", `{"name":"Berkshire Valley Management Area Trail, Jefferson, NJ, USA"}`}},
		{"unary-open", []string{"--call", "routeguide.RouteGuide/GetFeature", "--data", point, "-r", "200"}},
		{"server-stream", []string{"--call", "routeguide.RouteGuide/ListFeatures",
			"--data", `{"lo":{"latitude":400000000,"longitude":-750000000},"hi":{"latitude":420000000,"longitude":-730000000}}`}},
		{"client-stream", []string{"--call", "routeguide.RouteGuide/RecordRoute",
			"--data", `[` + point + `,{"latitude":410248224,"longitude":-747127767}]`, "--expect", `{"point_count":2}`}},
		{"bidi", []string{"--call", "routeguide.RouteGuide/RouteChat",
			"--data", `[{"location":{"latitude":1,"longitude":2},"message":"a"},{"location":{"latitude":3,"longitude":4},"message":"b"}]`}},
	} {
		t.Run(c.name, func(t *testing.T) { wantCalls(t, benchJSON(t, append(rg, c.args...)...)) })
	}
}

// TestHTTPBin loads go-httpbin's /anything with a body and a header, the echo of
// both checked; a status other than 2xx fails the check before the run, naming it.
func TestHTTPBin(t *testing.T) {
	needServers(t)
	addr, _ := serve(t, "go-httpbin", "-host", "127.0.0.1", "-port", "PORT")
	b := benchJSON(t, "--address", "http://"+addr+"/anything?x=1", "--method", "POST", "--body", `{"a":1}`,
		"--header", "X-Test: yes", "--expect", `{"json":{"a":1},"headers":{"X-Test":["yes"]},"args":{"x":["1"]}}`)
	wantCalls(t, b)
	if b.Protocol != "http-json" || b.Call != "POST /anything?x=1" {
		t.Errorf("protocol %q call %q, want http-json and POST /anything?x=1", b.Protocol, b.Call)
	}
	body := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(body, []byte(`{"b":[1,2]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, benchJSON(t, "--address", "http://"+addr+"/anything", "--body", "@"+body, "--expect", `{"method":"POST","json":{"b":[1,2]}}`))
	code, _, stderr := wirebench(t, append(append([]string{"bench"}, quick...), "--address", "http://"+addr+"/status/503")...)
	if code != 1 || !strings.Contains(stderr, "http:503") {
		t.Errorf("an endpoint answering 503: exit %d, %s; want 1 and the status", code, stderr)
	}
	code, _, stderr = wirebench(t, append(append([]string{"bench"}, quick...), "--address", "http://"+addr+"/get", "--expect", `{"url":"nope"}`)...)
	if code != 1 || !strings.Contains(stderr, "wrong answer") {
		t.Errorf("a reply not as --expect says: exit %d, %s; want 1 and a wrong answer", code, stderr)
	}
}

// TestServerCloses stops route_guide's server in the middle of a run: the calls after
// fail with their status, counted by it, and wirebench neither crashes nor hangs.
func TestServerCloses(t *testing.T) {
	needServers(t)
	addr, proc := serve(t, "routeguide_server", "-port", "PORT")
	go func() {
		time.Sleep(1500 * time.Millisecond)
		proc.Kill()
	}()
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := wirebench(t, "bench", "--warmup", "500ms", "--rounds", "4", "--duration", "500ms", "--forks", "1",
		"--no-pin", "-q", "--no-store", "--json", out, "--address", "grpc://"+addr, "--proto", routeProto(),
		"--call", "routeguide.RouteGuide/GetFeature", "--data", `{"latitude":1,"longitude":2}`)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d, want 0 (some calls succeeded) or 1\n%s%s", code, stdout, stderr)
	}
	t.Logf("exit %d\n%s%s", code, stdout, stderr)
	if code == 0 && !strings.Contains(stdout, "grpc:Unavailable") {
		t.Errorf("the calls after the server stopped are not counted as grpc:Unavailable:\n%s", stdout)
	}
}

// TestBadInput: a .proto that does not compile (its file and line named), a method
// the schema lacks, data that is not the method's input, flags that do not go
// together are usage errors (exit 2); a server that is not there is a failed run
// (exit 1). None crashes.
func TestBadInput(t *testing.T) {
	needServers(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.proto")
	if err := os.WriteFile(bad, []byte("syntax = \"proto3\";\npackage p;\nmessage M { int32 x = 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t) // nothing listens there
	target := "grpc://127.0.0.1:" + itoa(port)
	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"proto does not compile", []string{"--address", target, "--call", "p.S/M", "--proto", bad}, 2, []string{"bad.proto:3:"}},
		{"no such method", []string{"--address", target, "--call", "helloworld.Greeter/SayGoodbye", "--proto", helloProto()}, 2,
			[]string{"service helloworld.Greeter has no method SayGoodbye", "SayHello"}},
		{"no such service", []string{"--address", target, "--call", "helloworld.Nope/SayHello", "--proto", helloProto()}, 2,
			[]string{"no service helloworld.Nope", "helloworld.Greeter"}},
		{"data not the input", []string{"--address", target, "--call", "helloworld.Greeter/SayHello", "--proto", helloProto(),
			"--data", `{"nome":"x"}`}, 2, []string{"helloworld.HelloRequest", "nome"}},
		{"data file line not JSON", []string{"--address", target, "--call", "helloworld.Greeter/SayHello", "--proto", helloProto(),
			"--data-file", writeFile(t, dir, "d.jsonl", "{\"name\":\"a\"}\n{\"name\":\n")}, 2, []string{"d.jsonl:2: not JSON"}},
		{"expect not JSON", []string{"--address", target, "--call", "helloworld.Greeter/SayHello", "--proto", helloProto(),
			"--expect", "{"}, 2, []string{"--expect"}},
		{"insecure with TLS", []string{"--address", "grpcs://127.0.0.1:1", "--call", "a.B/C", "--insecure"}, 2, []string{"--insecure"}},
		{"schema flags without a call", []string{"-p", "grpc-proto", "--proto", helloProto()}, 2, []string{"--call"}},
		{"no server (reflection)", []string{"--address", target, "--call", "helloworld.Greeter/SayHello"}, 1, []string{"127.0.0.1:" + itoa(port)}},
		{"no server", []string{"--address", target, "--call", "helloworld.Greeter/SayHello", "--proto", helloProto()}, 1, []string{"127.0.0.1:" + itoa(port)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := wirebench(t, append(append([]string{"bench"}, quick...), c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s", code, c.code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestGhzBeside runs ghz (bojand/ghz, installed by scripts/install-tools.sh) and
// wirebench against the same helloworld server with the same flags, translated as
// docs/your-service.md's table says: both succeed, every call answered OK.
func TestGhzBeside(t *testing.T) {
	needNetns(t)
	ghz := testtool.Command(t, "ghz")
	addr, _ := serve(t, "greeter_server", "-port", "PORT")
	out, err := exec.Command(ghz, "--insecure", "--proto", helloProto(), "--call", "helloworld.Greeter.SayHello",
		"-d", `{"name":"g"}`, "-n", "500", "-c", "10", addr).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "[OK]   500 responses") {
		t.Fatalf("ghz: %v\n%s", err, out)
	}
	b := benchJSON(t, "--insecure", "--proto", helloProto(), "--call", "helloworld.Greeter.SayHello",
		"--data", `{"name":"g"}`, "-c", "10", "--address", "grpc://"+addr, "--expect", `{"message":"Hello g"}`)
	wantCalls(t, b)
	if b.Call != "helloworld.Greeter/SayHello" {
		t.Errorf("ghz's spelling of the call read as %q, want helloworld.Greeter/SayHello", b.Call)
	}
}

// TestGatewaySuite runs "our gRPC endpoint against our REST gateway" as one suite:
// grpc-go's helloworld server called over gRPC, and through a grpc-gateway v2 REST
// gateway in front of it, measured in interleaved rounds (smoke length) with a paired
// ratio; the group's header says the outside servers were not frozen.
func TestGatewaySuite(t *testing.T) {
	needNetns(t)
	grpcAddr, _ := serve(t, "greeter_server", "-port", "PORT")
	gwAddr, _ := serve(t, "gateway", "-listen", "127.0.0.1:PORT", "-backend", grpcAddr)
	dir := t.TempDir()
	suite := writeFile(t, dir, "gateway.yaml", `name: grpc-vs-gateway
description: helloworld's SayHello over gRPC and through a grpc-gateway REST gateway
defaults: {warmup: 300ms, rounds: 4, duration: 250ms, forks: 2, method: interleaved}
load: {concurrency: 8}
targets:
  - protocol: grpc-proto
    url: grpc://`+grpcAddr+`
    call: helloworld.Greeter/SayHello
    proto: `+helloProto()+`
    data: '{"name":"s"}'
    expect: '{"message":"Hello s"}'
  - protocol: http-json
    url: http://`+gwAddr+`/v1/hello
    body: '{"name":"s"}'
    expect: '{"message":"Hello s"}'
workloads: [call]
`)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := wirebench(t, "run", suite, "--smoke", "-o", out, "--no-store")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	for _, want := range []string{"target=" + grpcAddr, "target=" + gwAddr, "call=POST v1.hello", "cannot be frozen"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report.md lacks %q:\n%s", want, report)
		}
	}
}

// TestConnectAndGRPCWeb calls a method of a schema over the Connect protocol (binary
// and JSON codecs) and gRPC-Web, unary and server-streaming, and over TLS. The
// servers are wirebench's own connect-go servers of its contract (`wirebench
// serve`), loaded as any outside server is, through their .proto: no server of
// those protocols that nobody here wrote is built here.
func TestConnectAndGRPCWeb(t *testing.T) {
	needServers(t)
	proto := filepath.Join("..", "..", "contract", "schema", "wirebench.proto")
	for _, p := range []string{"connect-proto", "connect-json", "grpc-web"} {
		t.Run(p, func(t *testing.T) {
			addr, _ := serve(t, "wirebench", "serve", "-p", p, "--listen", "tcp://127.0.0.1:PORT")
			at := []string{"-p", p, "--address", "http://" + addr, "--proto", proto}
			b := benchJSON(t, append(at, "--call", "wirebench.v1.EchoService/Echo", "--data", `{"payload":"hi"}`, "--expect", `{"payload":"hi"}`)...)
			wantCalls(t, b)
			if b.Protocol != p {
				t.Errorf("protocol %q, want %q", b.Protocol, p)
			}
			wantCalls(t, benchJSON(t, append(at, "--call", "wirebench.v1.TradeService/StreamTrades", "--data", `{"count":20}`, "--expect", `{}`)...))
		})
	}
	t.Run("http2", func(t *testing.T) {
		// An HTTP endpoint over HTTP/2 (h2c), which go-httpbin does not speak: the
		// contract's http-json server of net/http does.
		addr, _ := serve(t, "wirebench", "serve", "-p", "http-json", "--listen", "tcp://127.0.0.1:PORT")
		b := benchJSON(t, "--address", "http://"+addr+"/echo", "--body", `{"payload":"h2"}`, "--expect", `{"payload":"h2"}`, "--option", "http=2")
		wantCalls(t, b)
		one := benchJSON(t, "--address", "http://"+addr+"/echo", "--body", `{"payload":"h2"}`, "--expect", `{"payload":"h2"}`)
		// HTTP/2's frames and compressed headers make a call's bytes differ from
		// HTTP/1.1's: the option took effect.
		if b.Summary.BytesSentPerOp == one.Summary.BytesSentPerOp {
			t.Errorf("HTTP/2 and HTTP/1.1 sent %v bytes a call each; want them to differ", b.Summary.BytesSentPerOp)
		}
	})
	t.Run("tls", func(t *testing.T) {
		ca := filepath.Join(t.TempDir(), "ca.pem")
		addr, _ := serve(t, "wirebench", "serve", "-p", "connect-proto", "--listen", "tcp://127.0.0.1:PORT", "--tls", "--tls-ca-out", ca)
		wantCalls(t, benchJSON(t, "-p", "connect-proto", "--address", "https://"+addr, "--proto", proto, "--tls-bench-ca", ca,
			"--call", "wirebench.v1.EchoService/Echo", "--data", `{"payload":"tls"}`, "--expect", `{"payload":"tls"}`))
	})
}
