package suite

import (
	"strings"
	"time"

	"github.com/wirebench/wirebench/spec"
)

// settings are how one benchmark runs. A nil field is not set at that level (defaults,
// target or workload entry), so the level below shows through.
type settings struct {
	warmup, warmupMax        *time.Duration
	duration, callTimeout    *time.Duration
	iterations, trials       *int
	ops                      *int64
	mode, method             *string
	serverCPUs, clientCPUs   *[]int
	dataSize, maxMessageSize *int
	dataSeed, arrivalSeed    *uint64
	jvmArgs                  *[]string
}

// settingKeys are the keys of settings, in the order the docs list them.
var settingKeys = []string{
	"warmup", "warmup_max", "iterations", "duration", "ops", "trials", "mode", "method", "call_timeout",
	"server_cpus", "client_cpus", "data_size", "data_seed", "arrival_seed", "max_message_size",
	"jvm_args",
}

// builtin are the settings under every suite's defaults: spec.Default, which the
// bench command's flags also take theirs from, so a suite and the bench command given
// the same values build the same spec.
func builtin() settings {
	d := spec.Default()
	return settings{
		warmup: ptr(d.Warmup), warmupMax: ptr(d.WarmupMax), duration: ptr(d.IterationTime), callTimeout: ptr(d.CallTimeout),
		iterations: ptr(d.Iterations), trials: ptr(d.Trials), mode: ptr(d.Mode), method: ptr(d.Method),
		serverCPUs: ptr(d.ServerCPUs), clientCPUs: ptr(d.ClientCPUs),
		dataSize: ptr(d.DataSize), dataSeed: ptr(d.DataSeed), arrivalSeed: ptr(d.ArrivalSeed),
		maxMessageSize: ptr(d.MaxMessageSize),
	}
}

func ptr[T any](v T) *T { return &v }

// over returns s with the fields o sets replaced. duration and ops are one choice (how
// an iteration ends), so setting either drops the other from below.
func (s settings) over(o settings) settings {
	set := func(dst **time.Duration, src *time.Duration) {
		if src != nil {
			*dst = src
		}
	}
	set(&s.warmup, o.warmup)
	set(&s.warmupMax, o.warmupMax)
	set(&s.callTimeout, o.callTimeout)
	if o.duration != nil {
		s.duration, s.ops = o.duration, nil
	}
	if o.ops != nil {
		s.ops, s.duration = o.ops, nil
	}
	s.iterations = orPtr(o.iterations, s.iterations)
	s.trials = orPtr(o.trials, s.trials)
	s.mode = orPtr(o.mode, s.mode)
	s.method = orPtr(o.method, s.method)
	s.serverCPUs = orPtr(o.serverCPUs, s.serverCPUs)
	s.clientCPUs = orPtr(o.clientCPUs, s.clientCPUs)
	s.dataSize = orPtr(o.dataSize, s.dataSize)
	s.maxMessageSize = orPtr(o.maxMessageSize, s.maxMessageSize)
	s.dataSeed = orPtr(o.dataSeed, s.dataSeed)
	s.arrivalSeed = orPtr(o.arrivalSeed, s.arrivalSeed)
	s.jvmArgs = orPtr(o.jvmArgs, s.jvmArgs)
	return s
}

func orPtr[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// readSettings reads the setting keys among fs. Values that fail are reported and
// left unset.
func (c *checker) readSettings(fs map[string]field) settings {
	var s settings
	if f, ok := fs["warmup"]; ok {
		if d, ok := c.duration("warmup", f.val, 0, spec.MaxTime); ok {
			s.warmup = &d
		}
	}
	if f, ok := fs["warmup_max"]; ok {
		if d, ok := c.duration("warmup_max", f.val, 0, spec.MaxTime); ok {
			s.warmupMax = &d
		}
	}
	if f, ok := fs["duration"]; ok {
		if d, ok := c.duration("duration", f.val, time.Millisecond, spec.MaxTime); ok {
			s.duration = &d
		}
	}
	if f, ok := fs["call_timeout"]; ok {
		if d, ok := c.duration("call_timeout", f.val, 0, spec.MaxTime); ok {
			s.callTimeout = &d
		}
	}
	if f, ok := fs["ops"]; ok {
		if v, ok := c.integer("ops", f.val, 1, spec.MaxOps); ok {
			s.ops = &v
		}
	}
	if d, o := fs["duration"], fs["ops"]; d.key != nil && o.key != nil {
		later := o.key
		if d.key.Line > o.key.Line || (d.key.Line == o.key.Line && d.key.Column > o.key.Column) {
			later = d.key
		}
		c.at(later, "set duration or ops, not both: an iteration lasts a time or a number of ops")
	}
	s.iterations = c.intSetting(fs, "iterations", 1, spec.MaxIterations)
	s.trials = c.intSetting(fs, "trials", 1, spec.MaxTrials)
	s.dataSize = c.intSetting(fs, "data_size", 1, spec.MaxDataSize)
	if f, ok := fs["max_message_size"]; ok {
		if v, ok := c.size("max_message_size", f.val, 1, spec.MaxMessageSize); ok {
			s.maxMessageSize = ptr(int(v))
		}
	}
	if f, ok := fs["mode"]; ok {
		if v, ok := c.str("mode", f.val); ok {
			if v != spec.ModeThroughput && v != spec.ModeAverageTime {
				c.at(resolve(f.val), "mode: %q, want thrpt (ops/s) or avgt (time per op)", v)
			} else {
				s.mode = &v
			}
		}
	}
	if f, ok := fs["method"]; ok {
		if v, ok := c.str("method", f.val); ok {
			if v != spec.MethodInterleaved && v != spec.MethodSequential {
				c.at(resolve(f.val), "method: %q, want interleaved (rounds of short slices over a comparison group's targets) or sequential (one after the other)", v)
			} else {
				s.method = &v
			}
		}
	}
	for key, dst := range map[string]**[]int{"server_cpus": &s.serverCPUs, "client_cpus": &s.clientCPUs} {
		if f, ok := fs[key]; ok {
			if v, ok := c.cpus(key, f.val); ok {
				*dst = &v
			}
		}
	}
	if f, ok := fs["jvm_args"]; ok {
		if v, ok := c.str("jvm_args", f.val); ok {
			args := strings.Fields(v)
			for _, a := range args {
				if !strings.HasPrefix(a, "-") || a == "-jar" || a == "-cp" || a == "-classpath" {
					c.at(resolve(f.val), "jvm_args: %q, want JVM options separated by spaces, e.g. \"-Xms2G -Xmx2G\" (the driver names the jar)", a)
					args = nil
					break
				}
			}
			if args != nil || strings.TrimSpace(v) == "" {
				s.jvmArgs = &args
			}
		}
	}
	for key, dst := range map[string]**uint64{"data_seed": &s.dataSeed, "arrival_seed": &s.arrivalSeed} {
		if f, ok := fs[key]; ok {
			if v, ok := c.uinteger(key, f.val); ok {
				*dst = &v
			}
		}
	}
	return s
}

func (c *checker) intSetting(fs map[string]field, key string, lo, hi int64) *int {
	f, ok := fs[key]
	if !ok {
		return nil
	}
	v, ok := c.integer(key, f.val, lo, hi)
	if !ok {
		return nil
	}
	return ptr(int(v))
}
