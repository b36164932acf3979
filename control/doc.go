// Package control is the contract between the driver and its workers, both sides of
// it: the control API (controlpb, served by every worker language), a benchmark
// checked against the stack registry (Resolve, the one check both sides make), the
// codec between a benchmark and its control message (BenchmarkMessage and SpecOf, an
// interval and its message), and how a worker reachable from other hosts admits a
// driver (a token, mutual TLS). It starts no process and serves nothing itself:
// launch starts and reaches workers, worker serves the API, driver runs benchmarks
// over it.
package control
