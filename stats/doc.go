// Package stats holds the pure statistics behind wirebench's scores: the
// JMH-style summary of iteration scores (mean ± half-width of a Student's t
// confidence interval, the quantile from gonum's distuv), paired ratios over
// rounds, drift of a machine's speed, the steady-state class of a target's slices
// within a fork (ClassifySteady) and the forks × rounds plan of a comparison
// (PlanForBudget, PlanForPrecision). It does no I/O and keeps no state, so every
// function is safe for concurrent use.
package stats
