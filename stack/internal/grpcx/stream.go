package grpcx

import (
	"context"
	"errors"
	"fmt"
	"io"

	"google.golang.org/grpc"
)

// RecvTrades reads the trades of a stream call (method: StreamTrades or
// StreamOriginalTrades) from stream into one reused wire message w, converts each with
// conv into one reused contract trade T and hands it to yield. It returns yield's error at once, without reading what is still in flight:
// the caller cancels the stream's context (a deferred cancel) to reset the stream, so
// the server's Send fails and it stops. A stream with more or fewer than count trades
// is an error.
func RecvTrades[W, T any](ctx context.Context, c *Conn, stream grpc.ClientStream, method string, count int64, w *W,
	conv func(*W, *T) error, yield func(*T) error) error {
	var (
		t T
		n int64
	)
	for {
		err := stream.RecvMsg(w)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return c.Err(ctx, method, err)
		}
		if n == count {
			return fmt.Errorf("%s %s: the server sent more than the %d trades asked for", c.proto, method, count)
		}
		if err := conv(w, &t); err != nil {
			return fmt.Errorf("%s %s: %w", c.proto, method, err)
		}
		if err := yield(&t); err != nil {
			return err
		}
		n++
	}
	if n != count {
		return fmt.Errorf("%s %s: the stream ended after %d of %d trades", c.proto, method, n, count)
	}
	return nil
}
