package outside

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirebench/wirebench/internal/protoload"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
)

// sumProto is a schema with a client-streaming and a bidirectional method, which
// wirebench's contract has not, to test the Connect client's streams.
const sumProto = `syntax = "proto3";
package sum;
message N { int64 n = 1; }
service Sum {
  rpc Add(stream N) returns (N);
  rpc Echo(stream N) returns (stream N);
  rpc Fail(N) returns (N);
}
`

// TestConnectStreams calls a client-streaming and a bidirectional method over the
// Connect protocol (binary and JSON) and gRPC-Web, and a method that fails, against
// connect-go handlers of dynamic messages written here (the only Connect server of
// such methods this test has): the sum of the data's messages comes back, every
// message is echoed, and a failure is counted by its code.
func TestConnectStreams(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sum.proto"), []byte(sumProto), 0o644); err != nil {
		t.Fatal(err)
	}
	src := protoload.Source{Protos: []string{filepath.Join(dir, "sum.proto")}}
	schema := func(method string) (string, []byte, protoreflect.MethodDescriptor) {
		name, s, _, err := Schema(context.Background(), src, method, nil)
		if err != nil {
			t.Fatal(err)
		}
		md, err := MethodOf(s, name)
		if err != nil {
			t.Fatal(err)
		}
		return name, s, md
	}
	_, _, add := schema("sum.Sum/Add")
	_, _, echo := schema("sum.Sum/Echo")
	_, _, fail := schema("sum.Sum/Fail")
	n := func(md protoreflect.MethodDescriptor, m *dynamicpb.Message) int64 {
		return m.Get(md.Input().Fields().ByName("n")).Int()
	}
	init := func(md protoreflect.MethodDescriptor) connect.HandlerOption {
		return connect.WithRequestInitializer(func(_ connect.Spec, msg any) error {
			*msg.(*dynamicpb.Message) = *dynamicpb.NewMessage(md.Input())
			return nil
		})
	}
	mux := http.NewServeMux()
	mux.Handle("/sum.Sum/Add", connect.NewClientStreamHandler("/sum.Sum/Add", func(_ context.Context, st *connect.ClientStream[dynamicpb.Message]) (*connect.Response[dynamicpb.Message], error) {
		var total int64
		for st.Receive() {
			total += n(add, st.Msg())
		}
		if err := st.Err(); err != nil {
			return nil, err
		}
		out := dynamicpb.NewMessage(add.Output())
		out.Set(add.Output().Fields().ByName("n"), protoreflect.ValueOfInt64(total))
		return connect.NewResponse(out), nil
	}, connect.WithSchema(add), init(add)))
	mux.Handle("/sum.Sum/Echo", connect.NewBidiStreamHandler("/sum.Sum/Echo", func(_ context.Context, st *connect.BidiStream[dynamicpb.Message, dynamicpb.Message]) error {
		for {
			m, err := st.Receive()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := st.Send(m); err != nil {
				return err
			}
		}
	}, connect.WithSchema(echo), init(echo)))
	mux.Handle("/sum.Sum/Fail", connect.NewUnaryHandler("/sum.Sum/Fail", func(context.Context, *connect.Request[dynamicpb.Message]) (*connect.Response[dynamicpb.Message], error) {
		return nil, connect.NewError(connect.CodeResourceExhausted, errors.New("no more"))
	}, connect.WithSchema(fail), init(fail)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: mux, Protocols: &protocols, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	target := transport.AddrOf(ln.Addr())

	for _, proto := range []string{"connect-proto", "connect-json", "grpc-web"} {
		t.Run(proto, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			call := func(method, expect string, data ...string) error {
				name, s, _ := schema(method)
				c, err := NewClient(ctx, proto, &spec.Call{Kind: spec.CallRPC, Method: name, Schema: s, Data: data, Expect: expect},
					protocol.ClientConfig{Address: target, Dial: transport.Dialer(target, nil)})
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				return c.Call(ctx, 0)
			}
			if err := call("sum.Sum/Add", `{"n":6}`, `{"n":1}`, `{"n":2}`, `{"n":3}`); err != nil {
				t.Errorf("client stream: %v", err)
			}
			if err := call("sum.Sum/Add", `{"n":7}`, `{"n":1}`, `{"n":2}`, `{"n":3}`); err == nil {
				t.Error("client stream: a sum not as expected passed")
			}
			if err := call("sum.Sum/Echo", `{"n":4}`, `{"n":4}`, `{"n":4}`); err != nil {
				t.Errorf("bidi: %v", err)
			}
			if err := call("sum.Sum/Echo", `{"n":4}`, `{"n":4}`, `{"n":5}`); err == nil {
				t.Error("bidi: a reply not as expected passed")
			}
			err := call("sum.Sum/Fail", "")
			var se *StatusError
			scheme := map[bool]string{true: "grpc-web", false: "connect"}[proto == "grpc-web"]
			if !errors.As(err, &se) || se.Status != scheme+":resource_exhausted" {
				t.Errorf("a failed call: %v, want status %s:resource_exhausted", err, scheme)
			}
		})
	}
}
