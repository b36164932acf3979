//go:build !linux

package engine

import "time"

// fineTimer has no high-resolution implementation here: the coarse timer does all.
type fineTimer struct{}

func newFineTimer() *fineTimer                  { return nil }
func (t *fineTimer) sleep(d time.Duration) bool { return false }
func (t *fineTimer) close()                     {}
