// Package jvm registers the stacks of the JVM worker (workers/java) with the protocol
// registry, so the driver knows which worker runs them and `wirebench list` shows them.
// The stacks run in a JVM worker process that serves the control API; this package
// holds only their metadata: names, sides, tier, TLS and library versions.
//
// TLS is set for the stacks whose worker code speaks it (workers/java: Stack.speaksTls);
// the originals' Scala 2.12 stacks serve plain text only, and a benchmark over TLS with
// one of them is refused before anything starts (cluster.Resolve names the stack).
//
// The worker is built as one jar per stack family (workers/java's Maven modules, which
// cannot share a class path: Scala 2.12 and 2.13): a stack's Family names the jar that
// runs it ("" for the main jar). The versions here are the ones the modules' poms pin; a
// test reads the poms and fails when they drift apart, and another asks each built jar
// for its stacks (`list`) and fails when a stack is placed in the wrong family.
package jvm

import "github.com/wirebench/wirebench/protocol"

// Java is the Java release the worker is compiled for (maven.compiler.release).
const Java = "17"

// Library versions, as workers/java's poms pin them (core and scala-2.13).
const (
	grpcJava = "1.82.2"
	protobuf = "4.36.2"
	avro     = "1.12.1"
	jackson  = "2.22.4"
	jetty    = "12.1.14"

	scala     = "2.13.17"
	akka      = "2.6.20"
	akkaHTTP  = "10.2.10"
	akkaGRPC  = "2.1.6"
	pekko     = "1.1.5"
	pekkoHTTP = "1.3.0"
	pekkoGRPC = "1.1.1"
	scalapb   = "0.11.17"
	http4s    = "0.23.33"
	circe     = "0.14.15"
)

// The originals' family (workers/java/originals-2.12): the Scala 2.12 stacks of the
// original experiments, at their versions, in their own jar.
const (
	// Originals is the family, and the name of its jar's suffix.
	Originals = "originals-2.12"

	scala212 = "2.12.20"
	akka25   = "2.5.18"
	// akkaHTTP101 is the Akka HTTP vs Akka gRPC original's; its HTTP/2 module
	// (akka-http2-support) is not on the Maven mirror at 10.1.5: 10.1.7 stands in.
	akkaHTTP101      = "10.1.5"
	akkaHTTP2Support = "10.1.7"
	akkaGRPC04       = "0.4.2"
	// scalapb08 is the ScalaPB runtime: 0.8.0, akka-grpc 0.4.2's, is not on the mirror.
	scalapb08 = "0.8.1"
	// http4s018 and circe09 are the metrifier original's; http4s-circe (and http4s-jawn)
	// 0.18.15 are not on the mirror: 0.18.12, whose classes are the same, stands in.
	http4s018      = "0.18.15"
	http4s018Circe = "0.18.12"
	circe09        = "0.9.3"
)

const scalaLibrary = "org.scala-lang:scala-library"

// Stacks are the JVM worker's stacks, in registration order.
var Stacks = []*protocol.Stack{
	{
		Name: "jetty-jackson", Protocol: "http-json", Sides: protocol.ServerSide,
		TLS:     true,
		Summary: "Jetty 12 servlets (ee10) with Jackson databind, stock settings; TLS through an SslConnectionFactory",
		Libraries: map[string]string{
			"org.eclipse.jetty:jetty-server":              jetty,
			"org.eclipse.jetty.ee10:jetty-ee10-servlet":   jetty,
			"org.eclipse.jetty:jetty-unixdomain-server":   jetty,
			"com.fasterxml.jackson.core:jackson-databind": jackson,
		},
	},
	{
		Name: "java-httpclient", Protocol: "http-json", Sides: protocol.ClientSide,
		TLS:     true,
		Summary: "the JDK's java.net.http.HttpClient (HTTP/1.1) with Jackson databind; TCP (and TLS) only, bytes not counted",
		Libraries: map[string]string{
			"com.fasterxml.jackson.core:jackson-databind": jackson,
		},
	},
	{
		Name: "grpc-java-netty", Protocol: "grpc-proto", Sides: protocol.ServerSide | protocol.ClientSide,
		TLS:     true,
		Summary: "grpc-java on Netty (epoll), generated stubs, server reflection; options direct_executor, flow_window, compressors",
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
		TLS: true, TLSExcept: protocol.ServerSide,
		Summary: "grpc-java on OkHttp, generated stubs, server reflection; TCP only; TLS on the client side only (its server offers TLS 1.2 alone on the JVM); options direct_executor, flow_window, compressors",
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
		TLS:     true,
		Summary: "grpc-java on Netty with Avro marshallers (generated Avro classes), as mu-rpc carried Avro; options direct_executor, flow_window, compressors",
		Libraries: map[string]string{
			"io.grpc:grpc-netty-shaded": grpcJava,
			"io.grpc:grpc-stub":         grpcJava,
			"org.apache.avro:avro":      avro,
		},
	},
	// The Scala stacks (workers/java/src/main/scala): the original Akka HTTP vs gRPC
	// experiment's servers, their Apache successors, and metrifier's http4s + circe.
	{
		Name: "akka-http", Protocol: "http-json", Sides: protocol.ServerSide, Language: "scala",
		TLS:     true,
		Summary: "Akka HTTP 10.2 routes with spray-json (Akka 2.6, the last Apache-licensed releases); TCP (and TLS) only",
		Libraries: map[string]string{
			"com.typesafe.akka:akka-http_2.13":            akkaHTTP,
			"com.typesafe.akka:akka-http-spray-json_2.13": akkaHTTP,
			"com.typesafe.akka:akka-stream_2.13":          akka,
			"com.typesafe.akka:akka-actor_2.13":           akka,
			scalaLibrary:                                  scala,
		},
	},
	{
		Name: "akka-grpc", Protocol: "grpc-proto", Sides: protocol.ServerSide, Language: "scala",
		TLS:     true,
		Summary: "Akka gRPC 2.1 generated Scala services on Akka HTTP's HTTP/2, ScalaPB messages, server reflection (v1alpha); gzips answers to clients that accept gzip; TCP (and TLS) only",
		Libraries: map[string]string{
			"com.lightbend.akka.grpc:akka-grpc-runtime_2.13": akkaGRPC,
			"com.typesafe.akka:akka-http_2.13":               akkaHTTP,
			"com.typesafe.akka:akka-stream_2.13":             akka,
			"com.thesamet.scalapb:scalapb-runtime_2.13":      scalapb,
			scalaLibrary: scala,
		},
	},
	{
		Name: "pekko-http", Protocol: "http-json", Sides: protocol.ServerSide, Language: "scala",
		TLS:     true,
		Summary: "Pekko HTTP 1.3 routes with spray-json (Apache's successor of Akka HTTP); TCP (and TLS) only",
		Libraries: map[string]string{
			"org.apache.pekko:pekko-http_2.13":            pekkoHTTP,
			"org.apache.pekko:pekko-http-spray-json_2.13": pekkoHTTP,
			"org.apache.pekko:pekko-stream_2.13":          pekko,
			"org.apache.pekko:pekko-actor_2.13":           pekko,
			scalaLibrary:                                  scala,
		},
	},
	{
		Name: "pekko-grpc", Protocol: "grpc-proto", Sides: protocol.ServerSide, Language: "scala",
		TLS:     true,
		Summary: "Pekko gRPC 1.1 generated Scala services on Pekko HTTP's HTTP/2, ScalaPB messages, no server reflection; gzips answers to clients that accept gzip; TCP (and TLS) only",
		Libraries: map[string]string{
			"org.apache.pekko:pekko-grpc-runtime_2.13":  pekkoGRPC,
			"org.apache.pekko:pekko-http_2.13":          pekkoHTTP,
			"org.apache.pekko:pekko-stream_2.13":        pekko,
			"com.thesamet.scalapb:scalapb-runtime_2.13": scalapb,
			scalaLibrary: scala,
		},
	},
	{
		Name: "http4s-circe", Protocol: "http-json", Sides: protocol.ServerSide, Language: "scala",
		TLS:     true,
		Summary: "http4s 0.23 Ember server, routes in http4s's DSL on cats-effect IO, circe codecs derived; TCP, TLS and Unix sockets",
		Libraries: map[string]string{
			"org.http4s:http4s-ember-server_2.13": http4s,
			"org.http4s:http4s-dsl_2.13":          http4s,
			"org.http4s:http4s-circe_2.13":        http4s,
			"io.circe:circe-generic_2.13":         circe,
			scalaLibrary:                          scala,
		},
	},
	// The original Akka HTTP vs Akka gRPC experiment's servers, at its versions
	// (workers/java/originals-2.12).
	{
		Name: "akka-http-10.1", Protocol: "http-json", Sides: protocol.ServerSide, Language: "scala", Family: Originals,
		Summary: "Akka HTTP 10.1.5 on Akka 2.5.18 (Scala 2.12), routes with spray-json: the Akka HTTP vs gRPC original's; TCP only",
		Libraries: map[string]string{
			"com.typesafe.akka:akka-http_2.12":            akkaHTTP101,
			"com.typesafe.akka:akka-http-spray-json_2.12": akkaHTTP101,
			"com.typesafe.akka:akka-stream_2.12":          akka25,
			"com.typesafe.akka:akka-actor_2.12":           akka25,
			scalaLibrary:                                  scala212,
		},
	},
	{
		Name: "akka-grpc-0.4", Protocol: "grpc-proto", Sides: protocol.ServerSide, Language: "scala", Family: Originals,
		Summary: "Akka gRPC 0.4.2 generated Scala services on Akka HTTP 10.1 (HTTP/2 module 10.1.7), Akka 2.5.18, ScalaPB 0.8: the Akka HTTP vs gRPC original's; no reflection; gzips answers to clients that accept gzip; TCP only",
		Libraries: map[string]string{
			"com.lightbend.akka.grpc:akka-grpc-runtime_2.12": akkaGRPC04,
			"com.typesafe.akka:akka-http_2.12":               akkaHTTP101,
			"com.typesafe.akka:akka-http2-support_2.12":      akkaHTTP2Support,
			"com.typesafe.akka:akka-stream_2.12":             akka25,
			"com.thesamet.scalapb:scalapb-runtime_2.12":      scalapb08,
			scalaLibrary: scala212,
		},
	},
	// The metrifier original's HTTP server and client, at its versions (workers/java/originals-2.12).
	{
		Name: "http4s-blaze", Protocol: "http-json", Sides: protocol.ServerSide | protocol.ClientSide, Language: "scala", Family: Originals,
		Summary: "http4s 0.18.15 on Blaze with circe 0.9.3 (Scala 2.12, cats-effect 0.10): an HttpService in the DSL served by BlazeBuilder, called by Blaze's Http1Client with Blaze's defaults: the metrifier original's; TCP only, client bytes not counted",
		Libraries: map[string]string{
			"org.http4s:http4s-blaze-server_2.12": http4s018,
			"org.http4s:http4s-blaze-client_2.12": http4s018,
			"org.http4s:http4s-dsl_2.12":          http4s018,
			"org.http4s:http4s-circe_2.12":        http4s018Circe,
			"io.circe:circe-generic_2.12":         circe09,
			scalaLibrary:                          scala212,
		},
	},
}

func init() {
	for _, s := range Stacks {
		if s.Language == "" {
			s.Language = "java"
		}
		s.Tier = protocol.Production
		s.Worker = protocol.WorkerJava
		s.Libraries["java"] = Java
		protocol.RegisterStack(s)
	}
}
