package io.wirebench.stack.twins

/**
 * The summaries of the Akka stacks and of their Pekko twins. The twins' sources are made
 * from the Akka ones by renaming (scala-2.13/pom.xml, pekko-sources), which turns every
 * Akka into Pekko, so words that differ between the two (versions, licences, reflection)
 * cannot live in the shared source: AkkaHttpStack names Summaries.AkkaHttp, and its
 * generated twin Summaries.PekkoHttp. Methods, not constants: scalac would copy a
 * constant's text into the twin's class, where ScalaPekkoTwinsTest forbids "Akka".
 */
object Summaries {
  def AkkaHttp: String =
    "Akka HTTP 10.2 routes with spray-json (Akka 2.6, the last Apache-licensed releases); TCP (and TLS) only"

  def PekkoHttp: String =
    "Pekko HTTP 1.3 routes with spray-json (Apache's successor of Akka HTTP); TCP (and TLS) only"

  def AkkaGrpc: String =
    "Akka gRPC 2.1 generated Scala services on Akka HTTP's HTTP/2, ScalaPB messages, server reflection (v1alpha); " +
      GrpcSetup + "; gzips answers to clients that accept gzip; TCP (and TLS) only"

  def PekkoGrpc: String =
    "Pekko gRPC 1.1 generated Scala services on Pekko HTTP's HTTP/2, ScalaPB messages, no server reflection; " +
      GrpcSetup + "; gzips answers to clients that accept gzip; TCP (and TLS) only"

  /** The gRPC servers' settings (AkkaGrpcStack.settings), in words both twins share. */
  private def GrpcSetup: String =
    "set up as grpc_bench's Akka and Pekko servers (settings by Akka HTTP's maintainers): single-frame requests " +
      "collected into strict entities " +
      "(http2.min-collect-strict-entity-size = 1), the default dispatcher capped at one thread per CPU (parallelism-max)"
}
