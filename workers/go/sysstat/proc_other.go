//go:build !linux

package sysstat

import (
	"errors"
	"fmt"
)

// Proc reads one process. Only Linux is supported; elsewhere Self and Open fail.
type Proc struct{ pid int }

var errUnsupported = fmt.Errorf("sysstat: process statistics need Linux /proc: %w", errors.ErrUnsupported)

// Self returns a Proc for the calling process; unsupported off Linux.
func Self() (*Proc, error) { return nil, errUnsupported }

// Open returns a Proc for the process pid; unsupported off Linux.
func Open(pid int) (*Proc, error) { return nil, errUnsupported }

// PID returns the process id p reads.
func (p *Proc) PID() int { return p.pid }

// CPUSource says where Read takes CPU time from; empty off Linux.
func (p *Proc) CPUSource() CPUSource { return CPUSource{} }

// Read takes one Sample; unsupported off Linux.
func (p *Proc) Read() (Sample, error) { return Sample{}, errUnsupported }
