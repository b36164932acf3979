package gotunedjson

import (
	"strconv"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// The protocol's bodies for a client that frames HTTP itself (stack/instrument's
// HTTP/2 client): the tuned codec of this package (go-tuned-json's), the bytes the tuned client sends
// and the checks it makes, without its HTTP/1.1 connection. The functions may be
// called concurrently; a TradeLines is owned by one stream.

// AppendPerson appends the body of POST /persons: the person p and a newline.
func AppendPerson(b []byte, p *contract.Person) []byte { return append(appendPerson(b, p), '\n') }

// AppendEcho appends the body of POST /echo: {"payload":...} and a newline.
func AppendEcho(b []byte, payload string) []byte {
	b = appendString(append(b, `{"payload":`...), payload)
	return append(b, '}', '\n')
}

// AppendNumber appends the body of POST /increment: {"value":n} and a newline.
func AppendNumber(b []byte, n int64) []byte {
	b = strconv.AppendInt(append(b, `{"value":`...), n, 10)
	return append(b, '}', '\n')
}

// DecodePerson decodes a person body.
func DecodePerson(b []byte) (contract.Person, error) { return decodePersonValue(b) }

// DecodePersons decodes the body of GET /persons.
func DecodePersons(b []byte) ([]contract.Person, error) { return decodePersonList(b) }

// DecodeLinks decodes the body of GET /persons/{id}/links.
func DecodeLinks(b []byte) ([]contract.PersonLink, error) { return decodeLinks(b) }

// DecodeEcho decodes the body of POST /echo; a body without a payload is an error.
func DecodeEcho(b []byte) (string, error) { return decodeEcho(b) }

// DecodeNumber decodes the body of POST /increment.
func DecodeNumber(b []byte) (int64, error) { return decodeValue(b) }

// DecodeStats decodes the body of GET /stats.
func DecodeStats(b []byte) (contract.Stats, error) { return decodeStats(b) }

// StatusError is the error of an answer with a status other than 2xx, as the
// clients of this package return it: the contract error its body carries, else the
// one its status stands for, else a plain error.
func StatusError(status int, body []byte) error {
	return httpjson.StatusError(status, body, decodeError(body))
}

// TradeLines checks the lines of one trade stream (GET /trades?count=N) as the
// clients of this package do: trades, then the end line with their count, or an
// error line.
type TradeLines struct {
	line  streamLine
	n     int64
	count int64
}

// Reset readies l for a stream of count trades.
func (l *TradeLines) Reset(count int64) { l.n, l.count = 0, count }

// Line decodes one line of the stream (its newline included or not) into *t. It
// reports whether the line was a trade (in *t), or the end of a stream that
// completed (done), or fails: a contract error for an error line, an error for a
// line that does not decode, more trades than asked, or an end line whose count is
// wrong. Blank lines are neither.
func (l *TradeLines) Line(data []byte, t *contract.Trade) (trade, done bool, err error) {
	if len(trimEOL(data)) == 0 {
		return false, false, nil
	}
	if err := decodeStreamLine(data, &l.line, t); err != nil {
		return false, false, err
	}
	if done, err := httpjson.StreamStep(l.line.End, l.line.Error, l.n, l.count); done || err != nil {
		return false, done && err == nil, err
	}
	l.n++
	return true, false, nil
}

// Trades is the number of trades Line has accepted.
func (l *TradeLines) Trades() int64 { return l.n }
