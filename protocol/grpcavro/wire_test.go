package grpcavro_test

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
	"github.com/wirebench/wirebench/contract/pb"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/transport"
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
	cl, err := p.Dial(ctx, protocol.ClientConfig{Target: transport.AddrOf(ln.Addr())})
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
	// What a grpc-proto client sends: the server decodes every request as Avro, and the
	// protobuf bytes of Number{1} are no Avro Number (a byte is left after the record).
	err = cc.Invoke(ctx, "/wirebench.v1.EchoService/Increment", &pb.Number{Value: 1}, &pb.Number{})
	if status.Code(err) != codes.Internal {
		t.Errorf("a protobuf call to the Avro server: %v, want Internal", err)
	}
	if _, err := tg.Client(t, nil).Stats(ctx); err != nil {
		t.Errorf("Stats after the protobuf call: %v", err)
	}
}

// TestAvroWithoutSubtype: an Avro request whose content-type names no avro subtype (as
// grpc-java, which always sends application/grpc, and the Scala frameworks on it do)
// is served: the server does not pick its codec by the subtype.
func TestAvroWithoutSubtype(t *testing.T) {
	tg := protocoltest.Start(t, grpcavro.Name, "tcp", nil, protocol.ServerConfig{})
	cc, err := grpc.NewClient("passthrough:///"+tg.Addr.Address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var out avrowire.Number
	err = cc.Invoke(ctx, "/wirebench.v1.EchoService/Increment", &avrowire.Number{Value: 41}, &out,
		grpc.ForceCodecV2(grpcavro.Codec{}), grpc.CallContentSubtype("proto"))
	if err != nil || out.Value != 42 {
		t.Errorf("Increment(41) in Avro with content-type application/grpc+proto = %d, %v; want 42", out.Value, err)
	}
}
