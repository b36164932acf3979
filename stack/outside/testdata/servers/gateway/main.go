// Command gateway is a grpc-gateway v2 REST gateway in front of a helloworld Greeter
// (grpc-go's example server): POST /v1/hello with {"name": ...} calls SayHello over
// gRPC and answers its reply as JSON. The route is registered by hand with the
// gateway's runtime (HandlePath, its JSON marshaler, ForwardResponseMessage), as the
// code protoc-gen-grpc-gateway generates does, so no code generator is needed.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	pb "google.golang.org/grpc/examples/helloworld/helloworld"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to serve on")
	backend := flag.String("backend", "", "the Greeter's gRPC address")
	flag.Parse()
	conn, err := grpc.NewClient("passthrough:///"+*backend, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	greeter := pb.NewGreeterClient(conn)
	mux := runtime.NewServeMux()
	err = mux.HandlePath(http.MethodPost, "/v1/hello", func(w http.ResponseWriter, r *http.Request, _ map[string]string) {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		inbound, outbound := runtime.MarshalerForRequest(mux, r)
		ctx, err := runtime.AnnotateContext(ctx, mux, r, "/helloworld.Greeter/SayHello", runtime.WithHTTPPathPattern("/v1/hello"))
		if err != nil {
			runtime.HTTPError(ctx, mux, outbound, w, r, err)
			return
		}
		var in pb.HelloRequest
		body, err := io.ReadAll(r.Body)
		if err == nil {
			err = inbound.Unmarshal(body, &in)
		}
		if err != nil {
			runtime.HTTPError(ctx, mux, outbound, w, r, err)
			return
		}
		var md runtime.ServerMetadata
		out, err := greeter.SayHello(ctx, &in, grpc.Header(&md.HeaderMD), grpc.Trailer(&md.TrailerMD))
		ctx = runtime.NewServerMetadataContext(ctx, md)
		if err != nil {
			runtime.HTTPError(ctx, mux, outbound, w, r, err)
			return
		}
		runtime.ForwardResponseMessage(ctx, mux, outbound, w, r, out)
	})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintln(os.Stdout, ln.Addr().String()) // the address, for the test that started it
	log.Fatal(http.Serve(ln, mux))
}
