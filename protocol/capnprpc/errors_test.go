package capnprpc

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"capnproto.org/go/capnp/v3/exc"

	"github.com/wirebench/wirebench/contract"
)

func TestErrorEncoding(t *testing.T) {
	for _, code := range contract.Codes {
		in := &contract.Error{Code: code, Message: "it: failed: badly"}
		wire := EncodeError(fmt.Errorf("wrapped: %w", in))
		// As the client sees it: the reason wrapped in the method's name.
		got := DecodeError(exc.Annotate("", "wirebench.capnp:Wirebench.getPerson", exc.New(exc.Failed, "", wire.Error())))
		if got == nil || *got != *in {
			t.Errorf("%s: round trip gave %+v", code, got)
		}
	}
	if got := DecodeError(EncodeError(errors.New("disk on fire"))); got == nil || got.Code != contract.Internal {
		t.Errorf("a plain service error decoded as %+v, want internal", got)
	}
	if err := EncodeError(context.Canceled); !errors.Is(err, context.Canceled) {
		t.Errorf("context error encoded as %v", err)
	}
	for _, s := range []string{"rpc: connection closed", "wirebench:bogus: x", "wirebench:not_found", "x wirebench:not_found: y"} {
		if got := DecodeError(errors.New(s)); got != nil {
			t.Errorf("DecodeError(%q) = %+v, want nil", s, got)
		}
	}
}
