package results

// The values a results file shares with a benchmark's settings (package spec) and its
// load model (package load). They are the file's own vocabulary, written here and in
// the schema (results.schema.json), so that results, and whoever reads it, imports no
// package of the driver's; vocabulary_test.go holds them equal to spec's and load's.
// The views are results' alone: a suite asks for them and reports draw them.

// Method values: how a benchmark was measured against the others of its group.
const (
	MethodInterleaved = "interleaved"
	MethodSequential  = "sequential"
)

// Mode values: what the score is, as JMH names it.
const (
	ModeThroughput  = "thrpt"
	ModeAverageTime = "avgt"
)

// Load model values.
const (
	ModelClosed = "closed"
	ModelOpen   = "open"
)

// InProcess is the transport of protocols that call the service in the client's own
// process (direct).
const InProcess = "inproc"

// Views are extra renderings of a run in the shape of one of the original
// experiments wirebench reproduces (../shared/ORIGINS.md), shown next to the normal
// report when the suite asks for them (SuiteInfo.Views, a suite's views: key, which
// package suite checks against ViewNames); package report renders them. Each is built
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
