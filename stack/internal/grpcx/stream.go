package grpcx

import (
	"context"
	"errors"
	"fmt"
	"io"

	"google.golang.org/grpc"

	"github.com/wirebench/wirebench/contract"
)

// RecvTrades reads the trades of a StreamTrades call from stream into one reused wire
// message w, converts each with conv into one reused contract.Trade and hands it to
// yield. It returns yield's error at once, without reading what is still in flight:
// the caller cancels the stream's context (a deferred cancel) to reset the stream, so
// the server's Send fails and it stops. A stream with more or fewer than count trades
// is an error.
func RecvTrades[W any](ctx context.Context, c *Conn, stream grpc.ClientStream, count int64, w *W,
	conv func(*W, *contract.Trade) error, yield func(*contract.Trade) error) error {
	var (
		t contract.Trade
		n int64
	)
	for {
		err := stream.RecvMsg(w)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return c.Err(ctx, "StreamTrades", err)
		}
		if n == count {
			return fmt.Errorf("%s StreamTrades: the server sent more than the %d trades asked for", c.proto, count)
		}
		if err := conv(w, &t); err != nil {
			return fmt.Errorf("%s StreamTrades: %w", c.proto, err)
		}
		if err := yield(&t); err != nil {
			return err
		}
		n++
	}
	if n != count {
		return fmt.Errorf("%s StreamTrades: the stream ended after %d of %d trades", c.proto, n, count)
	}
	return nil
}
