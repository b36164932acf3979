// Package stats holds the pure statistics behind wirebench's scores: the
// JMH-style summary of slice scores (mean ± half-width of a Student's t
// confidence interval, the quantile from gonum's distuv), paired ratios over
// rounds, drift of a machine's speed, the steady-state class of a target's slices
// within a fork (ClassifySteady) and the forks × rounds plan of a comparison
// (PlanForBudget, PlanForPrecision), the change points of a series of runs
// (DetectChanges) and the distribution-free shift of one sample over another with
// its interval (ShiftOf, behind compare's ratios). It does no I/O and keeps no state, so every
// function is safe for concurrent use.
//
// Everything but paired.go works on numbers; paired.go (Paired, Pairable) pairs two
// benchmarks of a results file by fork and round, reading the results model, so that
// the summary (each target against its group's baseline) and the reports (two other
// targets of a group) share one estimate. Package results imports no statistics.
package stats
