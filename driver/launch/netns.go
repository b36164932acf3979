package launch

import (
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/spec"
)

// NewPair makes the namespaces of a run with Netns, with the link's rate and loss
// on their veth (nil without Netns).
func NewPair(h spec.Hosts) (*nspair.Pair, error) {
	if !h.Netns {
		return nil, nil
	}
	p, err := nspair.New(false)
	if err != nil {
		return nil, err
	}
	if h.Link.RateBits > 0 {
		err = p.Shape(h.Link.RateBits)
	}
	if err == nil && h.Link.Loss > 0 {
		err = p.Drop(h.Link.Loss)
	}
	if err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// PairEnd is the end of p where the server (or the clients) run: A for the server;
// the zero End, the driver's own namespace, without p.
func PairEnd(p *nspair.Pair, server bool) nspair.End {
	switch {
	case p == nil:
		return nspair.End{}
	case server:
		return p.A
	}
	return p.B
}
