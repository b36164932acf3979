package runner

import (
	"context"
	"runtime"
	"slices"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/plan"
	"github.com/wirebench/wirebench/results"
)

// The reference: before a batch's first group and after its last (never inside a
// group's rounds), the machine's own speed is measured (driver.MeasureReference), so
// that the results say how much the machine moved under the run and between runs.
// Each measurement is journaled as soon as it is made; a resume keeps the earlier
// batches' and numbers its own after them.

// referenceStart measures the reference before batch b and journals it, and returns
// its record for referenceEnd; nil when the batch has no reference (Batch.Reference
// 0) or nothing left to measure (a resume found all of it done). A reference that
// cannot be measured where the server runs records why (driver.ReferenceWhyNot); one
// that fails records the failure as its why. An error is the journal's.
func (r *groupRuns) referenceStart(ctx context.Context, b plan.Batch) (*results.ReferenceRun, error) {
	if b.Reference <= 0 || !r.pending(b) {
		return nil, nil
	}
	ref := &results.ReferenceRun{Batch: len(r.refs)}
	for _, pg := range b.Groups {
		ref.Groups = append(ref.Groups, r.bs[pg.Members[0]].Spec.RoundsGroup(r.bs[pg.Members[0]].Spec.ServerStack))
	}
	if ref.Why = driver.ReferenceWhyNot(r.opt.Hosts); ref.Why == "" {
		ref.Start, ref.Why = r.measureReference(ctx, b)
		r.p.referenced(b.Reference)
	}
	r.refs = append(r.refs, *ref)
	return ref, r.journalReference(ref)
}

// referenceEnd measures the reference after batch b, whose start referenceStart
// measured (ref; nil: none), and journals the batch's whole record.
func (r *groupRuns) referenceEnd(ctx context.Context, b plan.Batch, ref *results.ReferenceRun) error {
	if ref == nil {
		return nil
	}
	if ref.Start == nil { // the start failed, or none is measured here: no end either
		r.p.referenced(b.Reference)
		return nil
	}
	ref.End, ref.Why = r.measureReference(ctx, b)
	r.p.referenced(b.Reference)
	r.refs[len(r.refs)-1] = *ref
	return r.journalReference(ref)
}

// measureReference measures the reference for batch b on the server CPUs of its
// first benchmark, as its server worker is pinned (none on a machine of one CPU, as
// get leaves the specs unpinned there); a failure is returned as the why.
func (r *groupRuns) measureReference(ctx context.Context, b plan.Batch) (*results.ReferenceSample, string) {
	var cpus []int
	if runtime.NumCPU() >= 2 {
		cpus, _ = r.bs[b.Groups[0].Members[0]].Spec.Pinning()
	}
	s, err := r.reference(ctx, b.Reference, cpus)
	if err != nil {
		return nil, err.Error()
	}
	return s, ""
}

// pending reports whether batch b has a benchmark an earlier run did not summarize.
func (r *groupRuns) pending(b plan.Batch) bool {
	for _, pg := range b.Groups {
		for _, i := range pg.Members {
			if _, ok := r.done[r.bs[i].Name]; !ok {
				return true
			}
		}
	}
	return false
}

func (r *groupRuns) journalReference(ref *results.ReferenceRun) error {
	c := *ref
	c.Groups = slices.Clone(ref.Groups)
	return r.j.append(journalLine{Kind: "reference", Reference: &c})
}

// addReference keeps a journaled reference: a later line of the same batch (its end)
// replaces the earlier (its start).
func (st *journalState) addReference(ref results.ReferenceRun) {
	for i := range st.references {
		if st.references[i].Batch == ref.Batch {
			st.references[i] = ref
			return
		}
	}
	st.references = append(st.references, ref)
}
