package grpcgo_test

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
	"github.com/wirebench/wirebench/contract/pb"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/internal/grpcx"
)

// TestRequestsCarryAvroContentType: the client's calls go to grpc-proto's method
// paths with content-type application/grpc+avro.
func TestRequestsCarryAvroContentType(t *testing.T) {
	seen := make(chan [2]string, 1)
	gs := grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(stream)
		md, _ := metadata.FromIncomingContext(stream.Context())
		select {
		case seen <- [2]string{method, md.Get("content-type")[0]}:
		default:
		}
		return status.Error(codes.Unimplemented, "recorded")
	}))
	defer gs.Stop()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go gs.Serve(ln)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p, _ := protocol.Lookup(grpcavro.Name)
	cl, err := p.Dial(ctx, protocol.ClientConfig{Address: transport.AddrOf(ln.Addr())})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	_, err = cl.GetPerson(ctx, 1)
	if err == nil || contract.CodeOf(err) != "" || status.Code(err) != codes.Unimplemented {
		t.Errorf("GetPerson on a server without the service: %v, want a non-contract Unimplemented error", err)
	}
	got := <-seen
	if got != [2]string{"/wirebench.v1.PersonService/GetPerson", "application/grpc+avro"} {
		t.Errorf("the call went to %s with content-type %s", got[0], got[1])
	}
}

// rawCodec sends and receives bytes as they are, under a content-subtype ("" sends
// plain "application/grpc", as grpcio and most gRPC libraries do).
type rawCodec string

func (c rawCodec) Name() string { return string(c) }
func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*[]byte))}, nil
}
func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*[]byte) = data.Materialize()
	return nil
}

// recordContentType returns the content-type a call with opts carries, as a gRPC
// server sees it.
func recordContentType(t *testing.T, opts ...grpc.CallOption) string {
	t.Helper()
	seen := make(chan string, 1)
	gs := grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		md, _ := metadata.FromIncomingContext(stream.Context())
		select {
		case seen <- strings.Join(md.Get("content-type"), ","):
		default:
		}
		return status.Error(codes.Unimplemented, "recorded")
	}))
	defer gs.Stop()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go gs.Serve(ln)
	cc, err := grpc.NewClient("passthrough:///"+ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	in, out := []byte{}, []byte{}
	cc.Invoke(ctx, "/wirebench.v1.EchoService/Echo", &in, &out, opts...)
	return <-seen
}

// TestAnyContentSubtypeReadAsAvro: the server speaks only Avro and reads every request
// as Avro, whatever its content-subtype says (plain application/grpc, as Python's
// grpcio sends, included), answering in Avro.
func TestAnyContentSubtypeReadAsAvro(t *testing.T) {
	tg := protocoltest.Start(t, grpcavro.Name, "tcp", nil, protocol.ServerConfig{})
	cc, err := grpc.NewClient("passthrough:///"+tg.Addr.Address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, subtype := range []string{"", "proto", "json", "avro"} {
		opt := grpc.ForceCodecV2(rawCodec(subtype))
		wantCT := "application/grpc"
		if subtype != "" {
			wantCT += "+" + subtype
		}
		if ct := recordContentType(t, opt); ct != wantCT {
			t.Fatalf("subtype %q: the call carries content-type %q, want %q", subtype, ct, wantCT)
		}
		payload := "héllo " + subtype
		req, err := avrowire.Append(nil, &avrowire.EchoMessage{Payload: payload})
		if err != nil {
			t.Fatal(err)
		}
		var resp []byte
		if err := cc.Invoke(ctx, "/wirebench.v1.EchoService/Echo", &req, &resp, opt); err != nil {
			t.Errorf("Echo with content-type %s: %v", wantCT, err)
			continue
		}
		var got avrowire.EchoMessage
		if err := avrowire.Unmarshal(resp, &got); err != nil || got.Payload != payload {
			t.Errorf("Echo with content-type %s answered %q (%v), want %q in Avro", wantCT, resp, err, payload)
		}
	}
}

// TestNoHealthOrReflection: the forced Avro codec cannot carry the protobuf messages of
// grpc-go's health and reflection services, so the server registers neither; calls to
// them fail cleanly with Unimplemented and the server serves on.
func TestNoHealthOrReflection(t *testing.T) {
	tg := protocoltest.Start(t, grpcavro.Name, "tcp", nil, protocol.ServerConfig{})
	var services []string
	for name := range tg.Server.(*grpcx.Server).GRPC().GetServiceInfo() {
		services = append(services, name)
	}
	slices.Sort(services)
	want := []string{"wirebench.v1.EchoService", "wirebench.v1.PersonService", "wirebench.v1.TradeService"}
	if !slices.Equal(services, want) {
		t.Errorf("services %v, want exactly %v", services, want)
	}

	cc, err := grpc.NewClient("passthrough:///"+tg.Addr.Address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{})
	if status.Code(err) != codes.Unimplemented {
		t.Errorf("health Check: %v, want Unimplemented", err)
	}
	rs, err := reflectionpb.NewServerReflectionClient(cc).ServerReflectionInfo(ctx)
	if err == nil {
		rs.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}})
		_, err = rs.Recv()
	}
	if status.Code(err) != codes.Unimplemented {
		t.Errorf("reflection: %v, want Unimplemented", err)
	}
	if _, err := tg.Client(t, nil).Stats(ctx); err != nil {
		t.Errorf("Stats after the health and reflection calls: %v", err)
	}
}

// TestProtobufClientRefused: a protobuf request to the Avro server fails with a
// status, and the server serves on.
func TestProtobufClientRefused(t *testing.T) {
	tg := protocoltest.Start(t, grpcavro.Name, "tcp", nil, protocol.ServerConfig{})
	cc, err := grpc.NewClient("passthrough:///"+tg.Addr.Address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// What a grpc-proto client sends: the server reads it as Avro, and the protobuf
	// bytes of Number{1} (08 01) are an Avro long followed by a stray byte.
	err = cc.Invoke(ctx, "/wirebench.v1.EchoService/Increment", &pb.Number{Value: 1}, &pb.Number{})
	if status.Code(err) != codes.Internal {
		t.Errorf("a protobuf call to the Avro server: %v, want Internal", err)
	}
	if _, err := tg.Client(t, nil).Stats(ctx); err != nil {
		t.Errorf("Stats after the protobuf call: %v", err)
	}
}
