//go:build !linux

package finetimer

import "time"

// Timer has no high-resolution implementation here: Go's timers do all.
type Timer struct{}

func New() *Timer                           { return nil }
func (t *Timer) Sleep(d time.Duration) bool { return false }
func (t *Timer) Close()                     {}
