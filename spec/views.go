package spec

// Views are extra renderings of a run in the shape of one of the original
// experiments wirebench reproduces (../shared/ORIGINS.md), shown next to the
// normal report when the suite asks for them (results.SuiteInfo.Views); package report renders them. Each is built
// once from the results, as tables and preformatted lines, and rendered by the
// terminal summary, the Markdown and the HTML alike.
const (
	// ViewJMHPerProtocol is JMH's score table once per protocol/transport, as the
	// metrifier experiment printed one per stack.
	ViewJMHPerProtocol = "jmh-per-protocol"
	// ViewRPCEchoLines is rpcecho's output: "1000 calls using gRPC on unix:///…:
	// N millisec" per protocol × transport × payload, and the same as a table.
	ViewRPCEchoLines = "rpcecho-lines"
	// ViewAkkaLatency is the Akka HTTP vs gRPC experiment's table (wrk2's figures).
	ViewAkkaLatency = "akka-latency"
	// ViewGRPCParamsTable is JMH's table with one column per swept parameter, as the
	// REST vs gRPC experiment printed its gRPC parameter sweep.
	ViewGRPCParamsTable = "grpc-params-table"
	// ViewMatrix is every client stack against every server stack of a protocol: grids
	// of throughput, p99 and CPU per call on each side, a row per client and a column
	// per server (a heat map in HTML).
	ViewMatrix = "matrix"
)

// ViewNames are the views a suite may ask for, in the order reports show them.
var ViewNames = []string{ViewJMHPerProtocol, ViewRPCEchoLines, ViewAkkaLatency, ViewGRPCParamsTable, ViewMatrix}
