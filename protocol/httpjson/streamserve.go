package httpjson

// The trade stream's framing, shared by the servers of both stacks: the count
// parameter, HEAD, the headers, batches of StreamBatch lines with one flush each, and
// the final {"end"} or {"error"} line. Each stack encodes the lines with its own codec
// (a LineEncoder) into the stream's buffer.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/wirebench/wirebench/contract"
)

// LineEncoder appends the lines of one trade stream, each a JSON value and a newline,
// to the buffer the stream gave it. A line that fails to encode appends nothing.
type LineEncoder interface {
	Trade(t *contract.Trade) error
	End(count int64) error
	StreamError(ce *contract.Error) error
}

// OriginalLineEncoder is a LineEncoder that also encodes the original's trade, for a
// stream asked with shape=original. A server whose encoder is not one refuses such a
// stream with invalid_argument, before any line.
type OriginalLineEncoder interface {
	LineEncoder
	OriginalTrade(t *contract.OriginalTrade) error
}

// ErrorWriter answers a refusal with status; each stack writes the body with its own
// codec.
type ErrorWriter func(w http.ResponseWriter, status int, ce *contract.Error)

// ServeTrades streams the trades GET /trades?count=N asks for: lines encodes them into
// buf, which is written to the client every StreamBatch trades (or streamFlushBytes)
// with one flush. The stream ends with {"end":{"count":N}}, or with {"error":...} if
// the service fails after the first trade. Until the first trade nothing is written,
// so a refusal (a bad count) is an ordinary error answer, written by fail.
func ServeTrades(w http.ResponseWriter, r *http.Request, svc contract.Service, buf *bytes.Buffer, lines LineEncoder, fail ErrorWriter) {
	q := r.URL.Query()
	count, ce := TradeCount(q.Has("count"), q.Get("count"))
	if ce != nil {
		fail(w, StatusOf(ce.Code), ce)
		return
	}
	if r.Method == http.MethodHead {
		// The headers only: a HEAD must not cost the work of the stream it asks about.
		if ce := HeadTradeCount(count); ce != nil {
			fail(w, http.StatusBadRequest, ce)
			return
		}
		setStreamHeaders(w)
		w.WriteHeader(http.StatusOK)
		return
	}
	st := &tradeStream{w: w, rc: http.NewResponseController(w), buf: buf, lines: lines}
	buf.Reset()
	var err error
	switch shape := q.Get(ShapeParam); shape {
	case "", contract.TradeCompact:
		err = svc.StreamTrades(r.Context(), count, st.yield)
	case contract.TradeOriginal:
		ol, ok := lines.(OriginalLineEncoder)
		if !ok {
			fail(w, http.StatusBadRequest, &contract.Error{Code: contract.InvalidArgument,
				Message: "this server " + contract.ErrNotCarried.Error() + " (shape=original)"})
			return
		}
		err = svc.StreamOriginalTrades(r.Context(), count, func(t *contract.OriginalTrade) error {
			return st.add(func() error { return ol.OriginalTrade(t) })
		})
	default:
		fail(w, http.StatusBadRequest, &contract.Error{Code: contract.InvalidArgument,
			Message: fmt.Sprintf("query parameter %s=%q: want %s or %s", ShapeParam, shape, contract.TradeCompact, contract.TradeOriginal)})
		return
	}
	switch {
	case err != nil && !st.started:
		ce := ServiceError(err)
		fail(w, StatusOf(ce.Code), ce)
	case err != nil:
		if st.werr != nil || r.Context().Err() != nil {
			return // the client is gone: nobody to tell
		}
		lines.StreamError(ServiceError(err))
		st.flush()
	default:
		st.start()
		lines.End(st.n)
		st.flush()
	}
}

// TradeCount reads the count query parameter (present says whether the query has it,
// text is its value); its range is the service's to check.
func TradeCount(present bool, text string) (int64, *contract.Error) {
	if !present {
		return 0, &contract.Error{Code: contract.InvalidArgument, Message: "missing query parameter count, e.g. /trades?count=100"}
	}
	count, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, &contract.Error{Code: contract.InvalidArgument, Message: "count " + strconv.Quote(text) + " is not an integer"}
	}
	return count, nil
}

// HeadTradeCount refuses the count of a HEAD /trades that is out of the contract's
// range, as the service would refuse the stream; a HEAD runs no stream.
func HeadTradeCount(count int64) *contract.Error {
	if count < 0 || count > contract.MaxTrades {
		return &contract.Error{Code: contract.InvalidArgument,
			Message: fmt.Sprintf("trade count %d out of range [0, %d]", count, contract.MaxTrades)}
	}
	return nil
}

func setStreamHeaders(w http.ResponseWriter) {
	h := w.Header()
	h["Content-Type"] = []string{NDJSONType}
	// Tell browsers and proxies not to guess the type or buffer the stream.
	h["X-Content-Type-Options"] = []string{"nosniff"}
	h["Cache-Control"] = []string{"no-store"}
}

// tradeStream writes the lines of one stream in batches.
type tradeStream struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	buf     *bytes.Buffer
	lines   LineEncoder
	started bool
	n       int64 // trades encoded
	werr    error // the first write error: the client went away
}

func (st *tradeStream) start() {
	if !st.started {
		st.started = true
		setStreamHeaders(st.w)
		st.w.WriteHeader(http.StatusOK)
	}
}

func (st *tradeStream) yield(t *contract.Trade) error {
	return st.add(func() error { return st.lines.Trade(t) })
}

// add encodes one trade line with enc, and flushes a full batch.
func (st *tradeStream) add(enc func() error) error {
	st.start()
	if err := enc(); err != nil {
		return err
	}
	st.n++
	if st.n%StreamBatch == 0 || st.buf.Len() >= streamFlushBytes {
		return st.flush()
	}
	return nil
}

// flush writes the batch as one chunk and pushes it to the client.
func (st *tradeStream) flush() error {
	if st.werr != nil {
		return st.werr
	}
	if st.buf.Len() > 0 {
		if _, err := st.w.Write(st.buf.Bytes()); err != nil {
			st.werr = err
			return err
		}
		st.buf.Reset()
	}
	if err := st.rc.Flush(); err != nil {
		st.werr = err
	}
	return st.werr
}

// StreamStep applies the stream's rules to one line the client decoded: end and fail
// are its {"end"} and {"error"} parts (nil when absent), n the trades received before
// it, count the trades asked. It returns done for a final line: with nil, a complete
// stream (whose body must end right after); with an error, the server's failure or a
// count that does not add up. Otherwise a nil error means the line is the next trade.
func StreamStep(end *StreamEnd, fail *ErrorBody, n, count int64) (done bool, err error) {
	switch {
	case fail != nil:
		ce := &contract.Error{Code: fail.Code, Message: fail.Message}
		if !ce.Code.Valid() {
			ce.Code = contract.Internal
		}
		return true, ce
	case end != nil:
		if end.Count != n || n != count {
			return true, fmt.Errorf("stream ended after %d of %d trades, its end line says %d", n, count, end.Count)
		}
		return true, nil
	case n == count:
		return false, fmt.Errorf("stream sent more than the %d trades asked", count)
	}
	return false, nil
}

// ReadStream reads the lines of a stream body with a bufio.Scanner, each line bounded
// by limit, decodes each with decode, and applies the stream's rules (StreamStep),
// for every client. It returns the yield's error in yerr, and any other failure
// in err.
func ReadStream(body io.Reader, limit int, count int64, decode func([]byte, *AnyLine) error, yield func(*contract.Trade) error) (yerr, err error) {
	return readLines(body, limit, count, decode, func(l *AnyLine) (*StreamEnd, *ErrorBody, contract.Trade) {
		return l.End, l.Error, l.Trade()
	}, yield)
}

// ReadOriginalStream is ReadStream for a stream of the original's trades
// (shape=original).
func ReadOriginalStream(body io.Reader, limit int, count int64, decode func([]byte, *OriginalLine) error, yield func(*contract.OriginalTrade) error) (yerr, err error) {
	return readLines(body, limit, count, decode, func(l *OriginalLine) (*StreamEnd, *ErrorBody, contract.OriginalTrade) {
		return l.End, l.Error, l.OriginalTrade
	}, yield)
}

// readLines is ReadStream for lines of type L, whose parts are the final lines' and
// the trade T.
func readLines[L, T any](body io.Reader, limit int, count int64, decode func([]byte, *L) error,
	parts func(*L) (*StreamEnd, *ErrorBody, T), yield func(*T) error) (yerr, err error) {
	sc := bufio.NewScanner(body)
	sc.Buffer(nil, limit)
	var n int64
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue // a blank line carries nothing
		}
		var line L
		if err := decode(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("stream after %d of %d trades: %w", n, count, err)
		}
		end, fail, t := parts(&line)
		done, err := StreamStep(end, fail, n, count)
		switch {
		case done && err == nil:
			if sc.Scan() {
				return nil, errors.New("stream: data after the end line")
			}
			if err := sc.Err(); err != nil {
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
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return nil, TooLarge(limit)
	case err != nil:
		return nil, fmt.Errorf("stream after %d of %d trades: %w", n, count, err)
	}
	return nil, fmt.Errorf("stream cut short after %d of %d trades: no end line", n, count)
}
