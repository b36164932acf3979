// Package jvm registers the stacks of the JVM worker (workers/java) with the protocol
// registry, so the driver knows which worker runs them and `wirebench list` shows them.
// The stacks run in a JVM worker process that serves the control API; this package
// holds only their metadata: names, sides, tier and library versions.
//
// The versions here are the ones workers/java/pom.xml pins; a test reads the pom and
// fails when they drift apart.
package jvm

import "github.com/wirebench/wirebench/protocol"

// Java is the Java release the worker is compiled for (maven.compiler.release).
const Java = "17"

// Library versions, as workers/java/pom.xml pins them.
const (
	grpcJava = "1.82.2"
	protobuf = "4.36.2"
	avro     = "1.12.1"
	jackson  = "2.22.4"
	jetty    = "12.1.14"
)

// Stacks are the JVM worker's stacks, in registration order.
var Stacks = []*protocol.Stack{
	{
		Name: "jetty-jackson", Protocol: "http-json", Sides: protocol.ServerSide,
		Summary: "Jetty 12 servlets (ee10) with Jackson databind, stock settings",
		Libraries: map[string]string{
			"org.eclipse.jetty:jetty-server":              jetty,
			"org.eclipse.jetty.ee10:jetty-ee10-servlet":   jetty,
			"org.eclipse.jetty:jetty-unixdomain-server":   jetty,
			"com.fasterxml.jackson.core:jackson-databind": jackson,
		},
	},
	{
		Name: "java-httpclient", Protocol: "http-json", Sides: protocol.ClientSide,
		Summary: "the JDK's java.net.http.HttpClient (HTTP/1.1) with Jackson databind; TCP only, bytes not counted",
		Libraries: map[string]string{
			"com.fasterxml.jackson.core:jackson-databind": jackson,
		},
	},
	{
		Name: "grpc-java-netty", Protocol: "grpc-proto", Sides: protocol.ServerSide | protocol.ClientSide,
		Summary: "grpc-java on Netty (epoll), generated stubs, server reflection; options direct_executor, flow_window",
		Libraries: map[string]string{
			"io.grpc:grpc-netty-shaded":         grpcJava,
			"io.grpc:grpc-stub":                 grpcJava,
			"io.grpc:grpc-protobuf":             grpcJava,
			"io.grpc:grpc-services":             grpcJava,
			"com.google.protobuf:protobuf-java": protobuf,
		},
	},
	{
		Name: "grpc-java-okhttp", Protocol: "grpc-proto", Sides: protocol.ServerSide | protocol.ClientSide,
		Summary: "grpc-java on OkHttp, generated stubs, server reflection; TCP only; options direct_executor, flow_window",
		Libraries: map[string]string{
			"io.grpc:grpc-okhttp":               grpcJava,
			"io.grpc:grpc-stub":                 grpcJava,
			"io.grpc:grpc-protobuf":             grpcJava,
			"io.grpc:grpc-services":             grpcJava,
			"com.google.protobuf:protobuf-java": protobuf,
		},
	},
	{
		Name: "grpc-java-avro", Protocol: "grpc-avro", Sides: protocol.ServerSide | protocol.ClientSide,
		Summary: "grpc-java on Netty with Avro marshallers (generated Avro classes), as mu-rpc carried Avro; options direct_executor, flow_window",
		Libraries: map[string]string{
			"io.grpc:grpc-netty-shaded": grpcJava,
			"io.grpc:grpc-stub":         grpcJava,
			"org.apache.avro:avro":      avro,
		},
	},
}

func init() {
	for _, s := range Stacks {
		s.Language = "java"
		s.Tier = protocol.Production
		s.Worker = protocol.WorkerJava
		s.Libraries["java"] = Java
		protocol.RegisterStack(s)
	}
}
