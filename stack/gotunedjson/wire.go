package gotunedjson

// The client's HTTP/1.1 wire layer: a minimal response parser that reads what any
// standard server sends (status line, headers, Content-Length, chunked or
// close-delimited bodies, Connection: close), refuses what it cannot read safely, and
// bounds everything it keeps in memory. It reads from a bufio.Reader, never beyond the
// end of the response, so a connection can carry the next one.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/wirebench/wirebench/protocol/httpjson"
)

const (
	// maxHeaderLines bounds the header lines of one response.
	maxHeaderLines = 128
	// maxInformational bounds the 1xx answers skipped before the final one.
	maxInformational = 8
)

// errProtocol is wrapped by every error about a response that is not valid HTTP/1.1.
var errProtocol = errors.New("malformed HTTP response")

func protocolError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errProtocol, fmt.Sprintf(format, args...))
}

// response is the head of a response.
type response struct {
	status  int
	chunked bool
	length  int64 // the body's length, -1 when it runs to the end of the connection
	close   bool  // the connection must not carry another request
}

// readResponse reads the head of the final response (skipping 1xx answers) from br.
// A line longer than br's buffer is an error.
func readResponse(br *bufio.Reader) (response, error) {
	for range maxInformational {
		resp, err := readHead(br)
		if err != nil {
			return resp, err
		}
		if resp.status >= 200 {
			return resp, nil
		}
		if resp.status == 101 {
			return resp, protocolError("unexpected 101 Switching Protocols")
		}
		// 100 Continue and the like carry no body: the real answer follows.
	}
	return response{}, protocolError("more than %d informational responses", maxInformational)
}

func readHead(br *bufio.Reader) (response, error) {
	resp := response{length: -1}
	line, err := readLine(br)
	if err != nil {
		return resp, err
	}
	// "HTTP/1.1 200 OK": version, a space, three digits, then a space and a reason,
	// or nothing.
	var http11 bool
	switch {
	case bytes.HasPrefix(line, []byte("HTTP/1.1 ")):
		http11 = true
	case bytes.HasPrefix(line, []byte("HTTP/1.0 ")):
	default:
		return resp, protocolError("status line %q", httpjson.Clip(line))
	}
	code := line[len("HTTP/1.1 "):]
	if len(code) < 3 || (len(code) > 3 && code[3] != ' ') {
		return resp, protocolError("status line %q", httpjson.Clip(line))
	}
	for _, c := range code[:3] {
		if c < '0' || c > '9' {
			return resp, protocolError("status line %q", httpjson.Clip(line))
		}
		resp.status = resp.status*10 + int(c-'0')
	}
	if resp.status < 100 {
		return resp, protocolError("status %d", resp.status)
	}
	resp.close = !http11 // HTTP/1.0 closes unless it says keep-alive
	var teSeen, clSeen bool
	for n := 0; ; n++ {
		if n == maxHeaderLines {
			return resp, protocolError("more than %d header lines", maxHeaderLines)
		}
		line, err := readLine(br)
		if err != nil {
			return resp, err
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || len(name) == 0 || name[0] == ' ' || name[0] == '\t' || name[len(name)-1] == ' ' {
			// No colon, a folded continuation line (obsolete, refused by RFC 9112), or
			// space before the colon (a request smuggling vector).
			return resp, protocolError("header line %q", httpjson.Clip(line))
		}
		// Only three headers matter here; the others (Date, Content-Type, ...) are
		// passed over without trimming their values.
		switch {
		case asciiEqualFold(name, "content-length"):
			value = bytes.TrimSpace(value)
			n, ok := parseLength(value)
			if !ok || (clSeen && n != resp.length) {
				return resp, protocolError("Content-Length %q", httpjson.Clip(value))
			}
			resp.length, clSeen = n, true
		case asciiEqualFold(name, "transfer-encoding"):
			value = bytes.TrimSpace(value)
			// We send no TE header, so chunked is the only coding a server may use.
			if teSeen || !asciiEqualFold(value, "chunked") {
				return resp, protocolError("unsupported Transfer-Encoding %q", httpjson.Clip(value))
			}
			teSeen, resp.chunked = true, true
		case asciiEqualFold(name, "connection"):
			for tok := range bytes.SplitSeq(value, []byte(",")) {
				tok = bytes.TrimSpace(tok)
				if asciiEqualFold(tok, "close") {
					resp.close = true
				} else if !http11 && asciiEqualFold(tok, "keep-alive") {
					resp.close = false
				}
			}
		}
	}
	switch {
	case resp.status < 200 || resp.status == 204 || resp.status == 304:
		resp.length, resp.chunked = 0, false
	case resp.chunked:
		if clSeen {
			// Both framings: chunked wins, and the connection cannot be trusted with
			// another message (RFC 9112 §6.3).
			resp.close = true
		}
		resp.length = -1
	case resp.length < 0:
		resp.close = true // the body ends with the connection
	}
	return resp, nil
}

// readLine returns the next line without its line end (CRLF, or a bare LF, which
// RFC 9112 lets a recipient accept). The slice is valid until the next read from br.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		if err == bufio.ErrBufferFull {
			return nil, protocolError("line longer than %d bytes", br.Size())
		}
		if err == io.EOF && len(line) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// parseLength parses a Content-Length or chunk size: digits only, no sign, below 2^62.
func parseLength(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

func asciiEqualFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// bodyReader reads one response body from the connection's reader: exactly length
// bytes, or the chunks of a chunked body (trailers skipped), or everything up to the
// end of the connection. It returns io.EOF at the end of the body, having consumed the
// body's framing and nothing after it.
type bodyReader struct {
	br      *bufio.Reader
	chunked bool
	left    int64 // bytes left in the body (length) or in the current chunk (chunked); -1: to EOF
	done    bool
	err     error
}

func (b *bodyReader) reset(br *bufio.Reader, resp *response) {
	*b = bodyReader{br: br, chunked: resp.chunked, left: resp.length}
	if resp.chunked {
		b.left = 0
	}
	if !resp.chunked && resp.length == 0 {
		b.done = true
	}
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.done {
		return 0, io.EOF
	}
	if b.chunked && b.left == 0 {
		if err := b.nextChunk(); err != nil {
			b.err = err
			return 0, err
		}
		if b.done {
			return 0, io.EOF
		}
	}
	if len(p) == 0 {
		return 0, nil
	}
	if b.left >= 0 && int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.br.Read(p)
	if b.left >= 0 {
		b.left -= int64(n)
	}
	switch {
	case err == io.EOF && b.left < 0:
		b.done = true // close-delimited: the end of the connection is the end of the body
	case err == io.EOF:
		err = io.ErrUnexpectedEOF
	case err == nil && !b.chunked && b.left == 0:
		b.done = true
	case err == nil && b.chunked && b.left == 0:
		err = b.endChunk()
	}
	if err != nil && err != io.EOF {
		b.err = err
	}
	if err == io.EOF {
		err = nil // reported by the next Read, with nothing consumed
	}
	return n, err
}

// nextChunk reads a chunk-size line. A zero size ends the body: the trailer section
// is skipped up to its empty line.
func (b *bodyReader) nextChunk() error {
	line, err := readLine(b.br)
	if err != nil {
		return noEOF(err)
	}
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i] // chunk extensions: none we know
	}
	line = bytes.TrimRight(line, " \t")
	size, ok := parseHex(line)
	if !ok {
		return protocolError("chunk size %q", httpjson.Clip(line))
	}
	if size > 0 {
		b.left = size
		return nil
	}
	for range maxHeaderLines {
		line, err := readLine(b.br)
		if err != nil {
			return noEOF(err)
		}
		if len(line) == 0 {
			b.done = true
			return nil
		}
	}
	return protocolError("more than %d trailer lines", maxHeaderLines)
}

// endChunk reads the line end after a chunk's data.
func (b *bodyReader) endChunk() error {
	line, err := readLine(b.br)
	if err != nil {
		return noEOF(err)
	}
	if len(line) != 0 {
		return protocolError("chunk data longer than its size")
	}
	return nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// parseHex parses a chunk size: 1 to 15 hex digits (below 2^60).
func parseHex(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | int64(d)
	}
	return n, true
}

// readBody reads a whole body into buf (reused from its start) and returns it. A body
// over limit fails with a ResourceExhausted error: from its Content-Length before
// anything is read, otherwise as soon as it passes the limit.
func readBody(b *bodyReader, buf []byte, limit int) ([]byte, error) {
	buf = buf[:0]
	if !b.chunked && b.left >= 0 {
		if b.left > int64(limit) {
			return buf, httpjson.TooLarge(limit)
		}
		n := int(b.left)
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(b, buf); err != nil {
			return buf[:0], noEOF(err)
		}
		return buf, nil
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // let append pick the growth
		}
		n, err := b.Read(buf[len(buf):min(cap(buf), limit+1)])
		buf = buf[:len(buf)+n]
		if len(buf) > limit {
			return buf[:0], httpjson.TooLarge(limit)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf[:0], err
		}
	}
}
