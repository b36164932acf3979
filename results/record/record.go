// Package record holds wirebench's measurements: HdrHistograms of response time,
// service time and lag, counts of ops and of errors by kind, gathered per interval.
//
// The engine gives each group of callers its own Recorder, so the hot path takes only
// a lock no other shard shares; at each interval boundary the engine drains every
// Recorder into an Interval (Drain resets it under its lock), and the driver merges
// Intervals from every worker process. Histograms travel between processes in
// HdrHistogram's V2 compressed encoding, which Java, Rust and Python readers decode.
package record

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// The histogram range: values in nanoseconds from 1 ns to 60 s at 3 significant
// digits (a value is known to within 0.1 %). Longer values are recorded as 60 s and
// counted in Interval.Clamped, so a report can say that the maximum is a floor.
const (
	LowestNs  = 1
	HighestNs = int64(60 * time.Second)
	SigFigs   = 3
)

// NewHistogram returns an empty histogram of wirebench's range.
func NewHistogram() *hdr.Histogram { return hdr.New(LowestNs, HighestNs, SigFigs) }

// Recorder accumulates the calls of the callers that share it. Its methods are safe
// for concurrent use; callers of one shard rarely meet on its lock.
type Recorder struct {
	mu sync.Mutex
	iv Interval
}

// NewRecorder returns a Recorder; withLag adds a lag histogram (open models).
func NewRecorder(withLag bool) *Recorder {
	r := &Recorder{}
	r.iv.init(withLag)
	return r
}

// Record adds one successful call: response time from its intended start (the
// schedule's time, or start in a closed model), service time from its actual start,
// and the lag between the two.
func (r *Recorder) Record(intended, start, end time.Time) {
	resp := end.Sub(intended)
	svc := end.Sub(start)
	r.mu.Lock()
	r.iv.Ops++
	if resp > time.Duration(HighestNs) {
		r.iv.Clamped++ // response time is the longest of the three
	}
	r.iv.record(r.iv.Resp, resp)
	if r.iv.Lag != nil { // an open model's; in a closed one service time is response time
		r.iv.record(r.iv.Service, svc)
		r.iv.record(r.iv.Lag, start.Sub(intended))
	}
	r.mu.Unlock()
}

// RecordError adds one failed call. Failed calls do not enter the latency histograms:
// a fast error is no fast answer.
func (r *Recorder) RecordError(kind ErrorKind) {
	r.mu.Lock()
	r.iv.Errors[kind]++
	r.mu.Unlock()
}

// Drain adds what r holds into iv and resets r.
func (r *Recorder) Drain(iv *Interval) {
	r.mu.Lock()
	iv.Add(&r.iv)
	r.iv.reset()
	r.mu.Unlock()
}

// Interval is what was measured over a span of time: the merge of every Recorder of a
// worker, or of every worker. An Interval is owned by one goroutine.
type Interval struct {
	Start, End time.Time
	Ops        int64
	Errors     map[ErrorKind]int64
	// Resp is response time (end − intended), Service is service time (end − start),
	// Lag is start − intended; all in ns. In a closed model a call is due when it
	// starts, so Service would be Resp and Lag all zeros: both are nil there.
	Resp, Service, Lag *hdr.Histogram
	// Clamped counts calls whose response time was over HighestNs, recorded as
	// HighestNs.
	Clamped int64
	// Overflow counts open-model arrivals that found every in-flight slot busy.
	Overflow int64
	// FirstErrors keeps the text of the first error of each kind, for reports; nil
	// when there was none.
	FirstErrors map[ErrorKind]string
}

// NewInterval returns an empty interval; withLag adds a lag histogram.
func NewInterval(withLag bool) *Interval {
	iv := &Interval{}
	iv.init(withLag)
	return iv
}

func (iv *Interval) init(withLag bool) {
	iv.Errors = map[ErrorKind]int64{}
	iv.Resp = NewHistogram()
	if withLag {
		iv.Service, iv.Lag = NewHistogram(), NewHistogram()
	}
}

func (iv *Interval) reset() {
	iv.Ops, iv.Clamped, iv.Overflow = 0, 0, 0
	clear(iv.Errors)
	iv.Resp.Reset()
	if iv.Lag != nil {
		iv.Service.Reset()
		iv.Lag.Reset()
	}
}

func (iv *Interval) record(h *hdr.Histogram, d time.Duration) {
	// Below the range: a clock step; the call took some time.
	h.RecordValue(min(max(int64(d), LowestNs), HighestNs)) // in range by construction
}

// Add merges o into iv: counts add up, histograms merge, and the span widens to cover
// both. Service and lag histograms in o are kept even when iv has none yet.
func (iv *Interval) Add(o *Interval) {
	if iv.Errors == nil {
		iv.init(o.Lag != nil)
	}
	if iv.Start.IsZero() || (!o.Start.IsZero() && o.Start.Before(iv.Start)) {
		iv.Start = o.Start
	}
	if o.End.After(iv.End) {
		iv.End = o.End
	}
	iv.Ops += o.Ops
	iv.Clamped += o.Clamped
	iv.Overflow += o.Overflow
	for k, n := range o.Errors {
		iv.Errors[k] += n
	}
	for k, msg := range o.FirstErrors {
		if _, ok := iv.FirstErrors[k]; !ok {
			if iv.FirstErrors == nil {
				iv.FirstErrors = map[ErrorKind]string{}
			}
			iv.FirstErrors[k] = msg
		}
	}
	iv.Resp.Merge(o.Resp)
	if o.Service != nil {
		if iv.Service == nil {
			iv.Service = NewHistogram()
		}
		iv.Service.Merge(o.Service)
	}
	if o.Lag != nil {
		if iv.Lag == nil {
			iv.Lag = NewHistogram()
		}
		iv.Lag.Merge(o.Lag)
	}
}

// ErrorCount returns the number of failed calls.
func (iv *Interval) ErrorCount() int64 {
	var n int64
	for _, c := range iv.Errors {
		n += c
	}
	return n
}

// Seconds returns the interval's length in seconds.
func (iv *Interval) Seconds() float64 { return iv.End.Sub(iv.Start).Seconds() }

// Throughput returns successful ops per second over the interval (0 for an empty span).
func (iv *Interval) Throughput() float64 {
	if s := iv.Seconds(); s > 0 {
		return float64(iv.Ops) / s
	}
	return 0
}

// EncodeHistogram returns h in HdrHistogram's V2 compressed encoding, base64 text.
func EncodeHistogram(h *hdr.Histogram) (string, error) {
	b, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encoding histogram: %w", err)
	}
	return string(b), nil
}

// DecodeHistogram reads a histogram that EncodeHistogram (or any V2 writer) encoded,
// and refuses one that declares more significant digits than SigFigs or a range
// beyond twice HighestNs (every wirebench writer, in every language, uses SigFigs and
// HighestNs) before it is decoded: hdrhistogram-go allocates a histogram's counts
// from its header, and 56 bytes that declare 5 digits up to 2^62 ns made it allocate
// 47 MB (2026-11-29), so a damaged journal or a remote worker's message could
// otherwise fill the memory.
func DecodeHistogram(s string) (*hdr.Histogram, error) {
	if s == "" {
		return nil, nil
	}
	if sig, high, ok := histogramHeader(s); ok && (sig > SigFigs || high > 2*HighestNs) {
		return nil, fmt.Errorf("decoding histogram: it declares %d significant digits up to %d ns; "+
			"wirebench's histograms have %d up to %d ns (60 s)", sig, high, SigFigs, HighestNs)
	}
	h, err := hdr.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decoding histogram: %w", err)
	}
	return h, nil
}

// histogramHeader reads the significant digits and the highest value that a V2
// compressed histogram's header declares; ok is false when s is not one (hdr.Decode
// then says why). hdrhistogram-go reads the header only inside Decode, after which the
// counts are allocated, so this reads it first: base64 of a cookie and a length (two
// int32s), then a zlib stream that opens with the cookie, the payload's length, the
// normalizing offset and the significant digits (int32s), then the lowest and highest
// trackable values (int64s), big-endian (hdrhistogram-go's
// decodeDeCompressedHeaderFormat).
func histogramHeader(s string) (sig int32, high int64, ok bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) < 8 {
		return 0, 0, false
	}
	z, err := zlib.NewReader(bytes.NewReader(b[8:]))
	if err != nil {
		return 0, 0, false
	}
	defer z.Close()
	var h [32]byte
	if _, err := io.ReadFull(z, h[:]); err != nil {
		return 0, 0, false
	}
	return int32(binary.BigEndian.Uint32(h[12:16])), int64(binary.BigEndian.Uint64(h[24:32])), true
}
