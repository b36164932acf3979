package conform

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
)

// IdentifyTimeout bounds each protocol's try in Identify: a client that waits for an
// answer in its own framing (Cap'n Proto's bootstrap) waits no longer.
const IdentifyTimeout = 2 * time.Second

// Identify returns the protocols the server at target answers, sorted: those whose
// default Go client gets an answer to Stats there (every server of the contract
// answers it, and it takes no argument). The clients try at once, each for at most
// IdentifyTimeout. Only tcp and unix targets are tried: a TLS or QUIC server needs
// its CA, which a probe does not have.
func Identify(ctx context.Context, target transport.Addr) []string {
	if target.Network != "tcp" && target.Network != "unix" {
		return nil
	}
	var mu sync.Mutex
	var found []string
	var wg sync.WaitGroup
	for _, p := range protocol.All() {
		st, err := protocol.LookupStack(p.Name, "", protocol.ClientSide)
		if p.InProcess || err != nil || st.Worker != protocol.WorkerGo || st.QUIC {
			continue
		}
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, IdentifyTimeout)
			defer cancel()
			cl, err := st.Dial(ctx, protocol.ClientConfig{Address: target})
			if err != nil {
				return
			}
			defer cl.Close()
			if _, err := cl.Stats(ctx); err == nil {
				mu.Lock()
				found = append(found, p.Name)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(found)
	return found
}

// Mismatch says what the server at target speaks when a call of protocol proto to it
// failed with err: when err is not the contract's (the server did not understand the
// call), it asks Identify, and when other protocols are answered there and proto is
// not, it returns an error naming them, with what to use instead. Otherwise (the
// server understood, or answers no protocol, or proto among others) it returns nil.
func Mismatch(ctx context.Context, proto string, target transport.Addr, err error) error {
	if err == nil || contract.CodeOf(err) != "" || ctx.Err() != nil {
		return nil
	}
	found := Identify(ctx, target)
	if len(found) == 0 || slices.Contains(found, proto) {
		return nil
	}
	what := found[0]
	if p, err := protocol.Lookup(what); err == nil {
		what += " (" + p.Summary + ")"
	}
	return fmt.Errorf("the server at %s does not speak %s, it answers %s: this looks like a server of %s, not of %s; use --protocol %s",
		target, proto, strings.Join(found, ", "), what, proto, found[0])
}
