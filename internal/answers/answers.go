// Package answers lets a load generator check an answer it has seen before without
// decoding it again. A Table remembers, per request key, the hash of an answer's bytes
// and the value decoded from them (which the workload then checked); an answer to the
// same request with the same bytes is accepted on the hash and the remembered value is
// returned, so the workload's own check still runs on it. Any other answer is decoded
// in full, as it would be without the table, and remembered in its place.
//
// The hash is hash/maphash (the runtime's AES-based memhash, about 20 ns for a 300-byte
// person) with a seed drawn at random for each table: a server cannot know it, so it
// cannot craft a wrong answer that hashes like a right one, and by chance two
// different answers share a 64-bit hash once in 2^64 comparisons. A module such as
// xxhash would be as fast but is unseeded (its collisions can be computed), and
// standard-library code needs no pin.
//
// Bounds: a table has a fixed number of slots (a request key maps to one slot, which
// holds the last answer remembered for a key of that slot) and a budget of answer
// bytes; an answer that would pass the budget is not remembered (it is then decoded
// every time). A table is safe for concurrent use: slots are atomic pointers to
// immutable entries, so a lookup takes no lock and allocates nothing.
//
// Values are shared between the calls that get them: callers must not modify them
// (the workloads only read them).
package answers

import (
	"hash/maphash"
	"sync/atomic"
)

// Table remembers checked answers of one kind of request (one operation). A nil
// *Table remembers nothing: Get then decodes every answer.
type Table[T any] struct {
	seed   maphash.Seed
	slots  []atomic.Pointer[entry[T]]
	mask   uint64
	budget int64
	used   atomic.Int64
}

type entry[T any] struct {
	key  uint64
	sum  uint64
	size int
	val  T
}

// New returns a table of slots slots (rounded up to a power of two) that remembers
// answers of at most budget bytes in all.
func New[T any](slots int, budget int64) *Table[T] {
	n := 1
	for n < slots {
		n <<= 1
	}
	return &Table[T]{seed: maphash.MakeSeed(), slots: make([]atomic.Pointer[entry[T]], n), mask: uint64(n - 1), budget: budget}
}

// Key returns a request key for a request parameter that is a string (an echo
// payload). Two parameters with one key meet in one slot and may get each other's
// remembered value, which is then the wrong answer for one of them: the workload's
// check fails on it, so a key collision can cost a spurious error, never let a wrong
// answer pass.
func (t *Table[T]) Key(s string) uint64 {
	if t == nil {
		return 0
	}
	return maphash.String(t.seed, s)
}

func (t *Table[T]) slot(key uint64) *atomic.Pointer[entry[T]] {
	// Fibonacci hashing spreads small consecutive keys (ids) and string hashes alike.
	return &t.slots[(key*0x9E3779B97F4A7C15>>32)&t.mask]
}

// Get returns the value for the answer body to the request key: the remembered one
// when body has the bytes of the answer it was decoded from, else decode(body),
// remembered when it decodes. The error is decode's.
func Get[T any](t *Table[T], key uint64, body []byte, decode func([]byte) (T, error)) (T, error) {
	if t == nil {
		return decode(body)
	}
	sum := maphash.Bytes(t.seed, body)
	s := t.slot(key)
	if e := s.Load(); e != nil && e.key == key && e.sum == sum && e.size == len(body) {
		return e.val, nil
	}
	v, err := decode(body)
	if err != nil {
		return v, err
	}
	t.remember(s, &entry[T]{key: key, sum: sum, size: len(body), val: v})
	return v, nil
}

// remember puts e in slot s unless that would pass the budget.
func (t *Table[T]) remember(s *atomic.Pointer[entry[T]], e *entry[T]) {
	old := s.Load()
	delta := int64(e.size)
	if old != nil {
		delta -= int64(old.size)
	}
	if t.used.Load()+delta > t.budget {
		return
	}
	if s.CompareAndSwap(old, e) {
		t.used.Add(delta)
	}
}

// Used returns the bytes of the answers the table remembers.
func (t *Table[T]) Used() int64 { return t.used.Load() }
