package suite

import (
	"fmt"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/spec"
)

// SetTransport puts every benchmark of the suite that crosses a wire on transport t
// (run --transport), or with tlsOnly, puts its tcp benchmarks on tls and leaves the
// others as they are (run --tls, as bench's --tls turns tcp into tls). In-process
// benchmarks (direct) and outside targets (whose address says their transport) are
// left as they are. Names are recomputed, and benchmarks that become the same run
// once. A benchmark whose stacks cannot take the transport is an error naming it, and
// the suite is left as it was: nothing is half run.
func (s *Suite) SetTransport(t string, tlsOnly bool) error {
	return s.rewrite(func(b *Benchmark) error {
		sp := &b.Spec
		switch {
		case sp.Transport == spec.InProc || sp.Address != "":
			return nil
		case tlsOnly && sp.Transport != spec.TCP:
			return nil
		case tlsOnly:
			sp.Transport = spec.TLS
		default:
			sp.Transport = t
		}
		if _, err := control.Resolve(*sp); err != nil {
			return fmt.Errorf("%s on %s: %w", b.Name, sp.Transport, err)
		}
		return nil
	})
}
