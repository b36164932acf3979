package gotunedjson

// The client's side of the trade stream: GET /trades?count=N read line by line.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// StreamTrades calls GET /trades?count=N and hands each trade line, decoded into one
// reused contract.Trade, to yield. It returns nil once count trades and the end line
// {"end":{"count":N}} arrived and the body ended; the contract error of an
// {"error":...} line; an error for a stream cut short. When yield fails, the
// connection is closed (which stops the server at once, rather than draining the
// rest) and the yield's error is returned as it is.
func (c *Client) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	return stream(ctx, c, request{op: httpjson.OpTrades, method: "GET", path: "/trades?count=", id: count, withID: true},
		count, decodeStreamLine, yield)
}

// StreamOriginalTrades is StreamTrades for GET /trades?count=N&shape=original, the
// original's trades decoded by the stack's own reader.
func (c *Client) StreamOriginalTrades(ctx context.Context, count int64, yield func(*contract.OriginalTrade) error) error {
	return stream(ctx, c, request{op: httpjson.OpTrades, method: "GET", path: "/trades?count=", id: count, withID: true,
		suffix: "&" + httpjson.ShapeParam + "=" + contract.TradeOriginal}, count, decodeOriginalLine, yield)
}

// stream makes the stream request r and reads its lines, each decoded into one reused
// T by decode.
func stream[T any](ctx context.Context, c *Client, r request, count int64,
	decode func([]byte, *streamLine, *T) error, yield func(*T) error) error {
	cn, resp, err := c.start(ctx, &r)
	if err != nil {
		return err
	}
	if resp.status/100 != 2 {
		cn.body, err = readBody(&cn.bodyR, cn.body, c.limit)
		cn.disarm()
		if err != nil {
			c.discard(cn)
			return c.fail(ctx, r.op, err)
		}
		err = httpjson.StatusError(resp.status, cn.body, decodeError(cn.body))
		c.put(cn)
		return err
	}
	yerr, err := readStream(c, cn, count, decode, yield)
	cn.disarm()
	switch {
	case yerr != nil:
		c.discard(cn)
		return yerr
	case err != nil:
		c.discard(cn)
		return c.fail(ctx, r.op, err)
	}
	c.put(cn)
	return nil
}

// readStream reads the lines of a stream body. It returns the yield's error in yerr,
// and any other failure in err.
func readStream[T any](c *Client, cn *conn, count int64, decode func([]byte, *streamLine, *T) error, yield func(*T) error) (yerr, err error) {
	if cn.lines == nil {
		cn.lines = bufio.NewReaderSize(&cn.bodyR, lineBufferSize)
	} else {
		cn.lines.Reset(&cn.bodyR)
	}
	var (
		line streamLine
		t    T
		n    int64
	)
	for {
		data, err := c.readStreamLine(cn)
		if err == io.EOF {
			return nil, fmt.Errorf("stream cut short after %d of %d trades: no end line", n, count)
		}
		if err != nil {
			return nil, fmt.Errorf("stream after %d of %d trades: %w", n, count, err)
		}
		if len(data) <= 2 && len(trimEOL(data)) == 0 {
			continue // a blank line carries nothing
		}
		if err := decode(data, &line, &t); err != nil {
			return nil, fmt.Errorf("stream after %d of %d trades: %w", n, count, err)
		}
		done, err := httpjson.StreamStep(line.End, line.Error, n, count)
		switch {
		case done && err == nil:
			// The body must end here; reading its end also consumes the chunked
			// framing, which leaves the connection ready for the next request.
			if _, err := cn.lines.ReadByte(); err != io.EOF {
				if err == nil {
					err = errors.New("data after the end line")
				}
				return nil, fmt.Errorf("stream: %w", err)
			}
			return nil, nil
		case err != nil:
			return nil, err
		}
		n++
		if err := yield(&t); err != nil {
			return err, nil
		}
	}
}

// readStreamLine returns the next line of the stream with its line end, valid until
// the next read. A line longer than the line reader's buffer is gathered in cn.long,
// up to the client's message limit.
func (c *Client) readStreamLine(cn *conn) ([]byte, error) {
	data, err := cn.lines.ReadSlice('\n')
	if err == nil {
		return data, nil
	}
	if err != bufio.ErrBufferFull {
		if err == io.EOF && len(data) > 0 {
			err = io.ErrUnexpectedEOF // a last line without its newline: cut short
		}
		return nil, err
	}
	cn.long = append(cn.long[:0], data...)
	for err == bufio.ErrBufferFull {
		if len(cn.long) > c.limit {
			return nil, httpjson.TooLarge(c.limit)
		}
		data, err = cn.lines.ReadSlice('\n')
		cn.long = append(cn.long, data...)
	}
	if err != nil {
		return nil, noEOF(err)
	}
	if len(cn.long) > c.limit {
		return nil, httpjson.TooLarge(c.limit)
	}
	return cn.long, nil
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
