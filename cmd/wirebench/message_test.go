package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
	"github.com/wirebench/wirebench/results"
)

const allKindsProto = "../../contract/usermsg/allkinds.proto"

// The message workload runs end to end over worker processes on protocols of each
// mapping family (protobuf binary over gRPC, protojson over HTTP/1.1, Thrift by field
// number, Avro from the descriptor): no error, every answer checked equal, bytes per
// op counted both ways.
func TestBenchMessage(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"grpc-proto", "http-json", "thrift-compact", "grpc-avro"} {
		out := filepath.Join(dir, p+".json")
		code, stdout, stderr := runBench(t, "-p", p, "-w", "message", "--proto", allKindsProto, "--message", "wbtest.v1.AllKinds",
			"--string-len", "8", "--bytes-len", "8", "--repeated-len", "2", "-c", "2", "--warmup", "100ms", "-d", "200ms", "-i", "1", "-q", "--json", out)
		if code != 0 {
			t.Errorf("bench %s: exit %d\n%s%s", p, code, stdout, stderr)
			continue
		}
		res, err := results.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		b := res.Benchmarks[0]
		if s := b.Summary; s.Ops == 0 || s.Errors != 0 || s.BytesSentPerOp < 100 || s.BytesRecvPerOp < 100 {
			t.Errorf("bench %s: summary %+v", p, s)
		}
		if !strings.Contains(b.Name, "message=wbtest.v1.AllKinds") {
			t.Errorf("bench %s: name %q does not name the message", p, b.Name)
		}
	}
}

// Bad input to the message workload is a usage error that says what is wrong and
// where: a protocol that cannot carry it says why.
func TestBenchMessageUsageErrors(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.proto")
	os.WriteFile(broken, []byte("syntax = \"proto3\";\nmessage A {\n  int32 x = 1\n}\n"), 0o644)
	data := filepath.Join(dir, "data.jsonl")
	os.WriteFile(data, []byte("{\"i32\": 1}\n{\"nope\": 2}\n"), 0o644)
	msg := []string{"-w", "message", "--proto", allKindsProto, "--message", "wbtest.v1.AllKinds"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append([]string{"-p", "capnp"}, msg...), "capnp cannot carry your message"},
		{append([]string{"-p", "netrpc-gob"}, msg...), "encoding/gob"},
		{append([]string{"-p", "direct"}, msg...), "in-process call encodes nothing"},
		{[]string{"-p", "grpc-proto", "-w", "message", "--message", "a.B"}, "--proto"},
		{[]string{"-p", "grpc-proto", "-w", "message", "--proto", broken, "--message", "A"}, "broken.proto:4"},
		{[]string{"-p", "grpc-proto", "-w", "message", "--proto", allKindsProto, "--message", "wbtest.v1.Nope"}, "wbtest.v1.AllKinds"},
		{append(append([]string{"-p", "grpc-proto"}, msg...), "--data-file", data), "data.jsonl:2"},
	} {
		code, _, stderr := runCLI(t, append([]string{"bench"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("bench %v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// The example message of docs/your-service.md encodes to the sizes its table gives,
// in each mapping's own encoding (the body alone, before any framing).
func TestExampleMessageSizes(t *testing.T) {
	s, err := usermsg.Load(context.Background(), usermsg.Source{Proto: "../../docs/examples/shop.proto", Message: "shop.v1.Order",
		DataFile: "../../docs/examples/orders.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	m := s.Messages[0]
	js, err := protojson.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, js); err != nil {
		t.Fatal(err)
	}
	ms, err := grpcavro.NewMessageSchema(s.Desc)
	if err != nil {
		t.Fatal(err)
	}
	av, err := ms.Encode(nil, m.ProtoReflect())
	if err != nil {
		t.Fatal(err)
	}
	thriftSize := func(f thrift.TProtocolFactory) int {
		buf := thrift.NewTMemoryBuffer()
		p := f.GetProtocol(buf)
		if err := thriftrpc.WriteMessage(context.Background(), p, m.ProtoReflect()); err != nil {
			t.Fatal(err)
		}
		return buf.Len()
	}
	got := map[string]int{"protobuf": proto.Size(m), "protojson": compact.Len(), "avro": len(av),
		"thrift-binary":  thriftSize(thrift.NewTBinaryProtocolFactoryConf(nil)),
		"thrift-compact": thriftSize(thrift.NewTCompactProtocolFactoryConf(nil))}
	want := map[string]int{"protobuf": 189, "protojson": 444, "avro": 152, "thrift-binary": 307, "thrift-compact": 177}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %d bytes, docs/your-service.md says %d", k, got[k], w)
		}
	}
}

// The JVM and Rust workers' servers echo a user's message (the conformance schema of
// every kind, generated messages) to Go clients, each answer checked equal: grpc-java
// and Jetty in the JVM, tonic and axum in Rust. Skipped (failed in CI) when a worker
// is not built.
func TestBenchMessageOtherWorkers(t *testing.T) {
	for _, w := range []struct {
		worker string
		ready  func(*testing.T) (bool, string)
		rows   [][]string
	}{
		{"jvm", jvmWorker, [][]string{{"-p", "grpc-proto", "--server-stack", "grpc-java-netty"}, {"-p", "http-json", "--server-stack", "jetty-jackson"}}},
		{"rust", rustWorker, [][]string{{"-p", "grpc-proto", "--server-stack", "tonic"}, {"-p", "http-json", "--server-stack", "axum"}}},
	} {
		t.Run(w.worker, func(t *testing.T) {
			if ok, why := w.ready(t); !ok {
				testtool.Missing(t, "%s", why)
			}
			for i, row := range w.rows {
				out := filepath.Join(t.TempDir(), fmt.Sprintf("%d.json", i))
				args := append(append([]string{}, row...), "-w", "message", "--proto", allKindsProto, "--message", "wbtest.v1.AllKinds",
					"--message-count", "8", "--string-len", "8", "--bytes-len", "8", "--repeated-len", "2",
					"-c", "2", "--warmup", "500ms", "-d", "300ms", "-i", "1", "-q", "--no-store", "--json", out)
				code, stdout, stderr := runBench(t, args...)
				if code != 0 {
					t.Errorf("bench %v: exit %d\n%s%s", row, code, stdout, stderr)
					continue
				}
				res, err := results.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				if s := res.Benchmarks[0].Summary; s.Ops == 0 || s.Errors != 0 {
					t.Errorf("bench %v: %d ops, %d errors", row, s.Ops, s.Errors)
				}
			}
		})
	}
}
