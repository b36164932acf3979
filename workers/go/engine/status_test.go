package engine

import (
	"fmt"
	"testing"

	"github.com/wirebench/wirebench/results/record"
)

type statusErr string

func (e statusErr) Error() string      { return "status " + string(e) }
func (e statusErr) StatusCode() string { return string(e) }

// A call an outside server answered with an error status is counted by the status,
// also when wrapped.
func TestClassifyStatus(t *testing.T) {
	for _, c := range []struct {
		err  error
		want record.ErrorKind
	}{
		{statusErr("grpc:Unavailable"), "grpc:Unavailable"},
		{fmt.Errorf("call: %w", statusErr("http:503")), "http:503"},
		{statusErr(""), record.Other}, // no status: the error's other kinds
	} {
		if got := classify(c.err); got != c.want {
			t.Errorf("classify(%v) = %q, want %q", c.err, got, c.want)
		}
		if got := classify(c.err).IsStatus(); got != (c.want != record.Other) {
			t.Errorf("IsStatus(%q) = %v", classify(c.err), got)
		}
	}
}
