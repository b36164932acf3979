package results

import (
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/spec"
)

// The values a results file shares with a benchmark's settings are spec's (and
// load's), named here so that readers of results need not import them.

// Method values: how a benchmark was measured against the others of its group.
const (
	MethodInterleaved = spec.MethodInterleaved
	MethodSequential  = spec.MethodSequential
)

// Mode values: what the score is, as JMH names it.
const (
	ModeThroughput  = spec.ModeThroughput
	ModeAverageTime = spec.ModeAverageTime
)

// Load model values.
const (
	ModelClosed = string(load.Closed)
	ModelOpen   = string(load.Open)
)

// InProcess is the transport of protocols that call the service in the client's own
// process (direct).
const InProcess = spec.InProc

// The views a suite may ask its reports to show (spec.ViewNames).
const (
	ViewJMHPerProtocol  = spec.ViewJMHPerProtocol
	ViewRPCEchoLines    = spec.ViewRPCEchoLines
	ViewAkkaLatency     = spec.ViewAkkaLatency
	ViewGRPCParamsTable = spec.ViewGRPCParamsTable
	ViewMatrix          = spec.ViewMatrix
)

// ViewNames are the views a suite may ask for, in the order reports show them.
var ViewNames = spec.ViewNames
