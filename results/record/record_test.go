package record

import (
	"fmt"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

func TestHistogramRoundTrip(t *testing.T) {
	h := NewHistogram()
	for _, v := range []int64{1500, 2500, 1e6, 59e9} {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	s, err := EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeHistogram(s)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equals(h) {
		t.Error("histogram changed in an encode/decode round trip")
	}
	for _, bad := range []string{"not base64!", "AAAA", "HIST"} {
		if _, err := DecodeHistogram(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

// A histogram that declares more digits or a longer range than wirebench records is
// refused before it is decoded (its counts would be allocated from its header); one of
// fewer digits, or of the range every wirebench writer uses, decodes.
func TestHistogramOfAnotherRange(t *testing.T) {
	for _, c := range []struct {
		high int64
		sig  int
		ok   bool
	}{
		{1 << 62, 5, false}, // 47 MB of counts from 56 bytes
		{1 << 62, 3, false},
		{int64(60 * time.Second), 4, false},
		{int64(60 * time.Second), 3, true},
		{int64(60 * time.Second), 2, true},
		{int64(100 * time.Second), 3, true}, // a writer that rounds its top up
	} {
		h := hdr.New(1, c.high, c.sig)
		if err := h.RecordValue(1500); err != nil {
			t.Fatal(err)
		}
		s, err := EncodeHistogram(h)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeHistogram(s)
		switch {
		case c.ok && (err != nil || back.TotalCount() != 1):
			t.Errorf("%d digits up to %d ns: %v, want it decoded", c.sig, c.high, err)
		case !c.ok && err == nil:
			t.Errorf("%d digits up to %d ns decoded, want it refused", c.sig, c.high)
		case !c.ok && !strings.Contains(err.Error(), fmt.Sprintf("declares %d significant digits up to %d ns", c.sig, c.high)):
			t.Errorf("%d digits up to %d ns: %v, want the error to say what it declares", c.sig, c.high, err)
		}
	}
}

// Recording: response from intended, service from start, lag between; values out of
// range are clamped and counted; Drain resets the recorder.
func TestRecorder(t *testing.T) {
	r := NewRecorder(true)
	t0 := time.Unix(100, 0)
	r.Record(t0, t0.Add(2*time.Millisecond), t0.Add(3*time.Millisecond))
	r.Record(t0, t0, t0.Add(2*time.Minute)) // over 60 s: clamped
	r.RecordError(Timeout)
	iv := NewInterval(true)
	r.Drain(iv)
	if iv.Ops != 2 || iv.Errors[Timeout] != 1 || iv.Clamped != 1 {
		t.Fatalf("ops %d errors %v clamped %d", iv.Ops, iv.Errors, iv.Clamped)
	}
	// 3 ms response, 1 ms service, 2 ms lag for the first call (within 0.1 %).
	near := func(got int64, want time.Duration) bool {
		return float64(got) >= float64(want)*0.999 && float64(got) <= float64(want)*1.001
	}
	if !near(iv.Resp.Min(), 3*time.Millisecond) || !near(iv.Service.Min(), time.Millisecond) ||
		!near(iv.Lag.Max(), 2*time.Millisecond) {
		t.Errorf("resp min %d, service min %d, lag max %d", iv.Resp.Min(), iv.Service.Min(), iv.Lag.Max())
	}
	if !near(iv.Resp.Max(), time.Duration(HighestNs)) {
		t.Errorf("clamped value recorded as %d, want %d", iv.Resp.Max(), HighestNs)
	}
	empty := NewInterval(true)
	r.Drain(empty)
	if empty.Ops != 0 || empty.Resp.TotalCount() != 0 || len(empty.Errors) != 0 {
		t.Error("Drain did not reset the recorder")
	}
	// Adding intervals sums counts and widens the span.
	a := &Interval{Start: t0, End: t0.Add(time.Second)}
	a.Add(iv)
	b := NewInterval(false)
	b.Start, b.End, b.Ops = t0.Add(time.Second), t0.Add(2*time.Second), 5
	a.Add(b)
	if a.Ops != 7 || a.Seconds() != 2 || a.Throughput() != 3.5 || a.ErrorCount() != 1 {
		t.Errorf("merged: ops %d, %vs, %v ops/s, %d errors; want 7, 2, 3.5, 1", a.Ops, a.Seconds(), a.Throughput(), a.ErrorCount())
	}
}
