// Package stats holds the pure statistics behind wirebench's scores: the
// JMH-style summary of iteration scores (mean ± half-width of a Student's t
// confidence interval, the quantile from gonum's distuv), paired ratios over
// rounds, drift of a machine's speed, the steady-state class of a target's slices
// within a fork (ClassifySteady) and the forks × rounds plan of a comparison
// (PlanForBudget, PlanForPrecision), the change points of a series of runs
// (DetectChanges) and the distribution-free shift of one sample over another with
// its interval (ShiftOf, behind compare's ratios). It does no I/O and keeps no state, so every
// function is safe for concurrent use.
package stats
