package answers

import (
	"errors"
	"strconv"
	"sync"
	"testing"
)

// decodeInt stands for a codec: it counts its calls, so a test sees which answers were
// decoded and which accepted on their hash.
type counter struct{ calls int }

func (c *counter) decode(b []byte) (int, error) {
	c.calls++
	return strconv.Atoi(string(b))
}

func TestSameBytesAreNotDecodedAgain(t *testing.T) {
	tb := New[int](16, 1<<10)
	var c counter
	for range 3 {
		v, err := Get(tb, 7, []byte("42"), c.decode)
		if err != nil || v != 42 {
			t.Fatalf("Get = %d, %v; want 42", v, err)
		}
	}
	if c.calls != 1 {
		t.Errorf("the same answer was decoded %d times, want once", c.calls)
	}
}

// A different answer to the same request is decoded, and its value returned: a server
// that answers right and then wrong is caught by the workload's check of the new value.
func TestDifferentBytesAreDecoded(t *testing.T) {
	tb := New[int](16, 1<<10)
	var c counter
	Get(tb, 7, []byte("42"), c.decode)
	if v, _ := Get(tb, 7, []byte("43"), c.decode); v != 43 {
		t.Errorf("a changed answer gave %d, want its own value 43", v)
	}
	// Same length, same request, other bytes.
	if v, _ := Get(tb, 7, []byte("24"), c.decode); v != 24 {
		t.Errorf("a changed answer of the same length gave %d, want 24", v)
	}
	if _, err := Get(tb, 7, []byte("4x"), c.decode); err == nil {
		t.Error("an answer that does not decode was accepted")
	}
	if v, _ := Get(tb, 8, []byte("24"), c.decode); v != 24 || c.calls != 5 {
		t.Errorf("another request's answer: %d after %d decodes, want 24 after 5 (keys do not share entries)", v, c.calls)
	}
}

// An answer that fails to decode is not remembered: the next one is decoded again.
func TestFailuresAreNotRemembered(t *testing.T) {
	tb := New[int](16, 1<<10)
	fail := errors.New("bad")
	calls := 0
	dec := func([]byte) (int, error) { calls++; return 0, fail }
	for range 2 {
		if _, err := Get(tb, 1, []byte("x"), dec); !errors.Is(err, fail) {
			t.Fatalf("Get = %v, want the decoder's error", err)
		}
	}
	if calls != 2 {
		t.Errorf("a failing answer was decoded %d times in 2 calls, want 2", calls)
	}
}

func TestBudgetBoundsMemory(t *testing.T) {
	tb := New[int](64, 10)
	var c counter
	for k := range uint64(20) {
		Get(tb, k, []byte("1234"), c.decode) // 4 bytes each: two fit in 10
	}
	if u := tb.Used(); u > 10 || u != 8 {
		t.Errorf("table holds %d bytes, want 8 (two answers in a budget of 10)", u)
	}
	c.calls = 0
	Get(tb, 19, []byte("1234"), c.decode)
	if c.calls != 1 {
		t.Error("an answer over the budget was remembered")
	}
	// An answer larger than the whole budget is decoded and returned all the same.
	if v, err := Get(tb, 1, []byte("123456789012"), c.decode); err != nil || v != 123456789012 {
		t.Errorf("Get over budget = %d, %v", v, err)
	}
}

func TestNilTableDecodesEverything(t *testing.T) {
	var tb *Table[int]
	var c counter
	for range 3 {
		Get(tb, 1, []byte("5"), c.decode)
	}
	if c.calls != 3 {
		t.Errorf("a nil table decoded %d of 3 answers", c.calls)
	}
}

func TestGetAllocatesNothingOnAHit(t *testing.T) {
	tb := New[int](16, 1<<10)
	body := []byte("42")
	dec := func(b []byte) (int, error) { return strconv.Atoi(string(b)) }
	Get(tb, 3, body, dec)
	if n := testing.AllocsPerRun(1000, func() { Get(tb, 3, body, dec) }); n != 0 {
		t.Errorf("%v allocations per remembered answer, want 0", n)
	}
}

func TestConcurrentUse(t *testing.T) {
	tb := New[int](8, 1<<20)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				k := uint64((g + i) % 13)
				want := int(k) * 11
				v, err := Get(tb, k, []byte(strconv.Itoa(want)), func(b []byte) (int, error) { return strconv.Atoi(string(b)) })
				if err != nil || v != want {
					t.Errorf("key %d: %d, %v; want %d", k, v, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkGetHit(b *testing.B) {
	tb := New[int](4096, 1<<20)
	body := make([]byte, 300)
	dec := func([]byte) (int, error) { return 1, nil }
	Get(tb, 3, body, dec)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		Get(tb, 3, body, dec)
	}
}
