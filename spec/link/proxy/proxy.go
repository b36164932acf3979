// Package proxy is the in-process TCP proxy that puts a link profile's delay, jitter
// and (per connection) rate between a load generator and its server: toxiproxy's
// proxy with a nanosecond delay toxic. The profile itself is package link's, apart
// so that reading one does not bring toxiproxy in.
package proxy

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/Shopify/toxiproxy/v2/toxics"
	"github.com/rs/zerolog"

	"github.com/wirebench/wirebench/internal/finetimer"
	"github.com/wirebench/wirebench/spec/link"
)

// Proxy is a TCP proxy that adds a profile's delay (and, when asked, its rate) to
// every connection made through it: toxiproxy's proxy and toxic chain, in this
// process. Each accepted connection gets its own upstream connection; data is read
// in chunks, and each chunk is held for the delay (± jitter) from the moment it was
// read, in each direction, so a round trip gains twice the delay and chunks in
// flight overlap as on a real link. Safe for concurrent use.
type Proxy struct {
	p *toxiproxy.Proxy
}

// delayToxic is toxiproxy's latency toxic at nanosecond resolution: the library's
// own counts whole milliseconds, and a cross-zone link is a fraction of one.
type delayToxic struct {
	Nanos       int64 `json:"nanos"`
	JitterNanos int64 `json:"jitter_nanos"`
}

const delayToxicName = "wirebench_delay"

func init() { toxics.Register(delayToxicName, new(delayToxic)) }

// GetBufferSize lets chunks queue behind one being delayed, as the library's latency
// toxic does, so a burst is delayed as a whole rather than chunk after chunk.
func (t *delayToxic) GetBufferSize() int { return 1024 }

func (t *delayToxic) delay() time.Duration {
	d := t.Nanos
	if t.JitterNanos > 0 {
		d += rand.Int64N(2*t.JitterNanos+1) - t.JitterNanos
	}
	return time.Duration(d)
}

// Pipe holds each chunk until its delay since it was read has passed. Chunks keep
// their order (a chunk drawn a shorter delay waits for the one before it). The wait
// ends on a timerfd (finetimer): Go's timers wake up to a millisecond late in an
// idle process, which turned a 0.5 ms delay into about 1.2 ms.
func (t *delayToxic) Pipe(stub *toxics.ToxicStub) {
	coarse := time.NewTimer(time.Hour)
	coarse.Stop()
	defer coarse.Stop()
	fine := finetimer.New()
	defer func() {
		if fine != nil {
			fine.Close()
		}
	}()
	for {
		select {
		case <-stub.Interrupt:
			return
		case c := <-stub.Input:
			if c == nil {
				stub.Close()
				return
			}
			at := c.Timestamp.Add(t.delay())
			ok, failed := finetimer.Wait(fine, at, coarse, stub.Interrupt)
			if failed {
				fine.Close()
				fine = nil
				ok, _ = finetimer.Wait(nil, at, coarse, stub.Interrupt)
			}
			stub.Output <- c // never drop data on the floor, interrupted or not
			if !ok {
				return
			}
		}
	}
}

// Start listens on listen (host:port, port 0 for any) and forwards to upstream
// (host:port) with p's delay and jitter in each direction; with rate, also p's rate,
// in each direction of each connection (toxiproxy's bandwidth toxic paces a
// connection, not the link the connections share: a kernel shaper is the better
// tool where there is one). Loss is refused: see the package comment.
func Start(listen, upstream string, p link.Profile, rate bool) (*Proxy, error) {
	if p.Loss > 0 {
		return nil, errors.New("link: the proxy cannot drop packets (it sees a TCP byte stream); loss needs a link the kernel shapes")
	}
	srv := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	px := toxiproxy.NewProxy(srv, "wirebench", listen, upstream)
	var toxicJSON []string
	for _, dir := range []string{"upstream", "downstream"} {
		if p.NeedsProxy() {
			toxicJSON = append(toxicJSON, fmt.Sprintf(`{"name":"delay_%s","type":%q,"stream":%q,"toxicity":1,"attributes":{"nanos":%d,"jitter_nanos":%d}}`,
				dir, delayToxicName, dir, p.Delay.Nanoseconds(), p.Jitter.Nanoseconds()))
		}
		if rate && p.RateBits > 0 {
			// toxiproxy's rate is in kB/s (1000 bytes); rounded, at least 1.
			kBps := max((p.RateBits+4000)/8000, 1)
			toxicJSON = append(toxicJSON, fmt.Sprintf(`{"name":"rate_%s","type":"bandwidth","stream":%q,"toxicity":1,"attributes":{"rate":%d}}`,
				dir, dir, kBps))
		}
	}
	for _, js := range toxicJSON {
		if _, err := px.Toxics.AddToxicJson(strings.NewReader(js)); err != nil {
			return nil, fmt.Errorf("link: adding a toxic: %w", err)
		}
	}
	if err := px.Start(); err != nil {
		return nil, fmt.Errorf("link: %w", err)
	}
	return &Proxy{p: px}, nil
}

// Addr is the address the proxy listens on, host:port.
func (x *Proxy) Addr() string {
	x.p.Lock()
	defer x.p.Unlock()
	return x.p.Listen
}

// Close stops listening and closes every connection through the proxy.
func (x *Proxy) Close() { x.p.Stop() }
