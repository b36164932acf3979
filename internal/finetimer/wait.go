// Package finetimer sleeps to within tens of microseconds without spinning: Go's own
// timers wake up to a millisecond late when a process is otherwise idle (see Timer).
package finetimer

import "time"

// CoarseSlack is how late a Go timer may fire when the process is idle (its
// epoll_wait timeout is in whole milliseconds), with a margin.
const CoarseSlack = 2 * time.Millisecond

// Wait waits until at: on coarse (a stopped or expired Go timer) until CoarseSlack
// before at, the rest on fine (nil: Go's timer all the way, late by up to a
// millisecond). It returns ok=false when done is closed first, which the fine part
// does not notice (it lasts at most CoarseSlack), and fineFailed when the fine timer
// failed: the caller should close it and wait again without it.
func Wait(fine *Timer, at time.Time, coarse *time.Timer, done <-chan struct{}) (ok, fineFailed bool) {
	wait := time.Until(at)
	if wait <= 0 {
		return true, false
	}
	if fine != nil && wait > CoarseSlack {
		wait -= CoarseSlack
	}
	if fine == nil || wait > CoarseSlack {
		coarse.Reset(wait)
		select {
		case <-coarse.C:
		case <-done:
			return false, false
		}
	}
	if wait := time.Until(at); wait > 0 && fine != nil && !fine.Sleep(wait) {
		return true, true
	}
	return true, false
}
