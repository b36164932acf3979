// Package driver measures benchmarks over worker processes: per fork it starts (launch) or
// reaches the workers of each target, sends each the benchmark as a control message
// (control), warms each target up and measures it in slices, one target after the
// other or in interleaved rounds with the others frozen (isolation), and returns what
// the workers measured (results.Measured). MeasureBatch shares each fork's workers among
// groups of the same targets. Capacity runs a capacity search (the maths in package
// capacity) on one target; Serve serves one stack from a worker process for
// `wirebench serve`; MeasureOneProcess measures a group in this process, with no worker. A
// local run and a multi-host run are the same code path.
package driver
