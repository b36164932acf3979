package gonetrpcgob_test

import (
	"context"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/stack/gonetrpcgob"
)

// Shutdown makes Serve return nil, as protocol.Server says (`wirebench serve` exits
// 0 on SIGTERM only then), and the server answers no new connection meanwhile.
func TestShutdownServeReturnsNil(t *testing.T) {
	for range 20 { // Serve's Accept and Shutdown race: try it more than once
		srv, err := gonetrpcgob.NewServer(contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)), protocol.ServerConfig{})
		if err != nil {
			t.Fatal(err)
		}
		_, served, err := protocol.ServeAt(srv, protocoltest.ListenAddr(t, "tcp"))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Fatalf("Serve after Shutdown returned %v, want nil", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Serve did not return within 5s of Shutdown")
		}
	}
}
